CREATE TABLE "checkout_claims" (
	"edition_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"claim_id" uuid NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "checkout_claims_pk" PRIMARY KEY("edition_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "checkout_claims" ADD CONSTRAINT "checkout_claims_edition_id_editions_id_fk" FOREIGN KEY ("edition_id") REFERENCES "public"."editions"("id") ON DELETE cascade ON UPDATE no action;