-- The organisers' sales views (docs/reference/tickets.md, "Sales"): the registrations' search by a
-- substring of the registrant's e-mail or name goes through trigram indexes (pg_trgm, shipped with
-- PostgreSQL's contrib and with PGlite); a ticket checkout's intent records the marketplace fee it
-- was sold with, and is found by its edition.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
ALTER TABLE "intents" ADD COLUMN "fee_bps" integer;--> statement-breakpoint
-- The checkouts made before this migration: the fee their wallet has now is the best record left.
-- A checkout's intent is the one whose first event the service recorded as the provider's.
UPDATE "intents" SET "fee_bps" = "wallets"."fee_bps"
  FROM "wallets"
 WHERE "wallets"."id" = "intents"."wallet_id"
   AND "intents"."metadata" ? 'registration_id'
   AND EXISTS (SELECT 1 FROM "payment_events"
                WHERE "payment_events"."intent_id" = "intents"."id"
                  AND "payment_events"."type" = 'payment.pending'
                  AND "payment_events"."source" = 'mercadopago');--> statement-breakpoint
CREATE INDEX "actors_email_trgm_idx" ON "actors" USING gin (lower("email") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "actors_name_trgm_idx" ON "actors" USING gin (lower("name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "intents_checkout_edition_idx" ON "intents" USING btree (("metadata" ->> 'edition_id')) WHERE "intents"."fee_bps" is not null;--> statement-breakpoint
ALTER TABLE "intents" ADD CONSTRAINT "intents_fee_check" CHECK ("intents"."fee_bps" between 0 and 10000);
