CREATE TABLE "checkout_claims" (
	"edition_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"claim_id" uuid NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "checkout_claims_pk" PRIMARY KEY("edition_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "intent_refunds" (
	"id" uuid PRIMARY KEY NOT NULL,
	"intent_id" uuid NOT NULL,
	"amount_cents" bigint NOT NULL,
	"provider_key" text NOT NULL,
	"reason" text,
	"status" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp (3) with time zone,
	CONSTRAINT "intent_refunds_amount_check" CHECK ("intent_refunds"."amount_cents" > 0),
	CONSTRAINT "intent_refunds_status_check" CHECK ("intent_refunds"."status" in ('pending', 'settled'))
);
--> statement-breakpoint
ALTER TABLE "checkout_claims" ADD CONSTRAINT "checkout_claims_edition_id_editions_id_fk" FOREIGN KEY ("edition_id") REFERENCES "public"."editions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "intent_refunds" ADD CONSTRAINT "intent_refunds_intent_id_intents_id_fk" FOREIGN KEY ("intent_id") REFERENCES "public"."intents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "intent_refunds_one_pending" ON "intent_refunds" USING btree ("intent_id") WHERE "intent_refunds"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "intent_refunds_intent_idx" ON "intent_refunds" USING btree ("intent_id","created_at");