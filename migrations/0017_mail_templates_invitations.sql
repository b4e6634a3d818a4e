CREATE TABLE "event_email_templates" (
	"event_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"updated_by" uuid NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "event_email_templates_pk" PRIMARY KEY("event_id","kind"),
	CONSTRAINT "event_email_templates_kind_check" CHECK ("event_email_templates"."kind" in ('signature_request', 'registration_confirmed', 'refund_issued', 'certificate_issued', 'event_invitation'))
);
--> statement-breakpoint
CREATE TABLE "event_invitations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"event_id" uuid NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"invited_by" uuid NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp (3) with time zone,
	"accepted_by" uuid,
	CONSTRAINT "event_invitations_status_check" CHECK ("event_invitations"."status" in ('pending', 'accepted', 'withdrawn')),
	CONSTRAINT "event_invitations_role_check" CHECK ("event_invitations"."role" in ('admin', 'staff'))
);
--> statement-breakpoint
ALTER TABLE "certificate_issuances" ADD COLUMN "language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "event_email_templates" ADD CONSTRAINT "event_email_templates_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_invitations" ADD CONSTRAINT "event_invitations_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "event_invitations_pending_unique" ON "event_invitations" USING btree ("event_id",lower("email")) WHERE "event_invitations"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "event_invitations_email_pending_idx" ON "event_invitations" USING btree (lower("email")) WHERE "event_invitations"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "event_invitations_event_idx" ON "event_invitations" USING btree ("event_id","created_at");