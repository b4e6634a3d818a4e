ALTER TABLE "intent_refunds" ADD COLUMN "attempt_id" uuid;--> statement-breakpoint
ALTER TABLE "intent_refunds" ADD COLUMN "attempt_until" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "intent_refunds" ADD COLUMN "sends" integer DEFAULT 0 NOT NULL;