CREATE TABLE "emails" (
	"id" uuid PRIMARY KEY NOT NULL,
	"event_id" uuid,
	"kind" text NOT NULL,
	"recipient" text NOT NULL,
	"language" text NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"subject" text,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"message_id" text,
	"resent_from" uuid,
	"next_attempt_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"claims" integer DEFAULT 0 NOT NULL,
	"claim_id" uuid,
	"leased_until" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp (3) with time zone,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "emails_status_check" CHECK ("emails"."status" in ('queued', 'sent', 'failed')),
	CONSTRAINT "emails_kind_check" CHECK ("emails"."kind" in ('signature_request', 'registration_confirmed', 'refund_issued', 'certificate_issued', 'event_invitation'))
);
--> statement-breakpoint
CREATE TABLE "email_attempts" (
	"email_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"started_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp (3) with time zone,
	"outcome" text,
	"smtp_code" integer,
	"response" text,
	CONSTRAINT "email_attempts_pk" PRIMARY KEY("email_id","number"),
	CONSTRAINT "email_attempts_outcome_check" CHECK ("email_attempts"."outcome" is null or "email_attempts"."outcome" in ('accepted', 'temporary', 'permanent'))
);
--> statement-breakpoint
CREATE TABLE "dev_mailbox" (
	"email_id" uuid PRIMARY KEY NOT NULL,
	"sender" text NOT NULL,
	"subject" text NOT NULL,
	"html" text NOT NULL,
	"text" text NOT NULL,
	"attachments" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"kept_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "emails" ADD CONSTRAINT "emails_resent_from_emails_id_fk" FOREIGN KEY ("resent_from") REFERENCES "public"."emails"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_attempts" ADD CONSTRAINT "email_attempts_email_id_emails_id_fk" FOREIGN KEY ("email_id") REFERENCES "public"."emails"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dev_mailbox" ADD CONSTRAINT "dev_mailbox_email_id_emails_id_fk" FOREIGN KEY ("email_id") REFERENCES "public"."emails"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "emails_event_created_idx" ON "emails" USING btree ("event_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "emails_status_idx" ON "emails" USING btree ("status");--> statement-breakpoint
CREATE INDEX "emails_due_idx" ON "emails" USING btree ("next_attempt_at") WHERE "emails"."status" = 'queued';--> statement-breakpoint
CREATE INDEX "emails_recipient_idx" ON "emails" USING btree (lower("recipient"));
