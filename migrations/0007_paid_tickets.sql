CREATE TABLE "idempotency_keys" (
	"user_id" uuid NOT NULL,
	"key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"status" text NOT NULL,
	"response_status" integer,
	"response_body" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_user_id_key_pk" PRIMARY KEY("user_id","key")
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"run_at" timestamp (3) with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"claim_id" uuid,
	"leased_until" timestamp (3) with time zone,
	"last_error" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "jobs_status_check" CHECK ("jobs"."status" in ('pending', 'done', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "event_payment_links" (
	"event_id" uuid PRIMARY KEY NOT NULL,
	"wallet_id" uuid NOT NULL,
	"seller_id" uuid NOT NULL,
	"created_by" uuid NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "registrations" DROP CONSTRAINT "registrations_status_check";--> statement-breakpoint
ALTER TABLE "ticket_types" DROP CONSTRAINT "ticket_types_capacity_check";--> statement-breakpoint
DROP INDEX "registrations_one_active_unique";--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "status_reason" text;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "intent_id" uuid;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "hold_expires_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "checkout_url" text;--> statement-breakpoint
ALTER TABLE "ticket_types" ADD COLUMN "currency" text;--> statement-breakpoint
ALTER TABLE "ticket_types" ADD COLUMN "held_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "intents" ADD COLUMN "refunded_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "event_payment_links" ADD CONSTRAINT "event_payment_links_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "idempotency_keys_expires_idx" ON "idempotency_keys" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("run_at") WHERE "jobs"."status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_kind_key_unique" ON "jobs" USING btree ("kind","key");--> statement-breakpoint
CREATE UNIQUE INDEX "registrations_intent_unique" ON "registrations" USING btree ("intent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "registrations_one_active_unique" ON "registrations" USING btree ("edition_id","user_id") WHERE "registrations"."status" in ('pending_payment', 'confirmed');--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_status_check" CHECK ("registrations"."status" in ('pending_payment', 'confirmed', 'cancelled', 'expired', 'refunded'));--> statement-breakpoint
-- NOT VALID: paid ticket types made before currencies existed keep a null currency (they cannot be
-- sold through checkout until recreated); every row written from now on is checked.
ALTER TABLE "ticket_types" ADD CONSTRAINT "ticket_types_currency_check" CHECK (("ticket_types"."currency" is null or "ticket_types"."currency" ~ '^[A-Z]{3}$') and ("ticket_types"."price_cents" = 0 or "ticket_types"."currency" is not null)) NOT VALID;--> statement-breakpoint
ALTER TABLE "ticket_types" ADD CONSTRAINT "ticket_types_capacity_check" CHECK ("ticket_types"."confirmed_count" >= 0 and "ticket_types"."held_count" >= 0 and ("ticket_types"."max_quantity" is null or "ticket_types"."confirmed_count" + "ticket_types"."held_count" <= "ticket_types"."max_quantity"));--> statement-breakpoint
ALTER TABLE "intents" ADD CONSTRAINT "intents_refunded_check" CHECK ("intents"."refunded_cents" between 0 and "intents"."amount_cents");