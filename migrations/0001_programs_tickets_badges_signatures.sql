CREATE TABLE "certification_template_programs" (
	"template_id" uuid NOT NULL,
	"program_id" uuid NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "certification_template_programs_pk" PRIMARY KEY("template_id","program_id")
);
--> statement-breakpoint
CREATE TABLE "certification_templates" (
	"id" uuid PRIMARY KEY NOT NULL,
	"edition_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"design_data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	CONSTRAINT "certification_templates_kind_check" CHECK ("certification_templates"."kind" in ('edition_attendance', 'program_attendance'))
);
--> statement-breakpoint
CREATE TABLE "programs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"edition_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"starts_at" timestamp (3) with time zone,
	"ends_at" timestamp (3) with time zone,
	"location" text,
	"min_access_level" integer DEFAULT 0 NOT NULL,
	"staff_only" boolean DEFAULT false NOT NULL,
	"price" integer DEFAULT 0 NOT NULL,
	"banner_url" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	CONSTRAINT "programs_kind_check" CHECK ("programs"."kind" in ('activity', 'checkpoint')),
	CONSTRAINT "programs_access_level_check" CHECK ("programs"."min_access_level" >= 0),
	CONSTRAINT "programs_price_check" CHECK ("programs"."price" >= 0),
	CONSTRAINT "programs_dates_check" CHECK ("programs"."starts_at" is null or "programs"."ends_at" is null or "programs"."ends_at" > "programs"."starts_at")
);
--> statement-breakpoint
CREATE TABLE "signature_requests" (
	"id" uuid PRIMARY KEY NOT NULL,
	"edition_id" uuid NOT NULL,
	"signatory_name" text NOT NULL,
	"signatory_email" text NOT NULL,
	"signatory_title" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"reason" text,
	"created_by" uuid NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp (3) with time zone,
	CONSTRAINT "signature_requests_status_check" CHECK ("signature_requests"."status" in ('pending', 'completed', 'denied', 'cancelled', 'expired'))
);
--> statement-breakpoint
CREATE TABLE "signatures" (
	"id" uuid PRIMARY KEY NOT NULL,
	"request_id" uuid NOT NULL,
	"edition_id" uuid NOT NULL,
	"signatory_name" text NOT NULL,
	"signatory_title" text,
	"image_url" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"revoke_token_hash" text NOT NULL,
	"revoke_expires_at" timestamp (3) with time zone NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp (3) with time zone,
	CONSTRAINT "signatures_status_check" CHECK ("signatures"."status" in ('active', 'revoked'))
);
--> statement-breakpoint
CREATE TABLE "badge_emissions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"edition_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"origin" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"status_reason" text,
	"registration_id" uuid,
	"emitted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "badge_emissions_origin_check" CHECK ("badge_emissions"."origin" in ('participant', 'staff')),
	CONSTRAINT "badge_emissions_status_check" CHECK ("badge_emissions"."status" in ('active', 'revoked'))
);
--> statement-breakpoint
CREATE TABLE "badge_templates" (
	"id" uuid PRIMARY KEY NOT NULL,
	"edition_id" uuid NOT NULL,
	"name" text NOT NULL,
	"design_data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"origin" text,
	"ticket_type_id" uuid,
	"scope" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	CONSTRAINT "badge_templates_scope_check" CHECK (not ("badge_templates"."origin" is not null and "badge_templates"."ticket_type_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "registrations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"edition_id" uuid NOT NULL,
	"ticket_type_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"status" text NOT NULL,
	"created_by" uuid NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"cancelled_at" timestamp (3) with time zone,
	CONSTRAINT "registrations_status_check" CHECK ("registrations"."status" in ('confirmed', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "ticket_types" (
	"id" uuid PRIMARY KEY NOT NULL,
	"edition_id" uuid NOT NULL,
	"name" text NOT NULL,
	"price_cents" integer DEFAULT 0 NOT NULL,
	"access_level" integer DEFAULT 0 NOT NULL,
	"max_quantity" integer,
	"confirmed_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ticket_types_price_check" CHECK ("ticket_types"."price_cents" >= 0),
	CONSTRAINT "ticket_types_access_level_check" CHECK ("ticket_types"."access_level" >= 0),
	CONSTRAINT "ticket_types_capacity_check" CHECK ("ticket_types"."confirmed_count" >= 0 and ("ticket_types"."max_quantity" is null or "ticket_types"."confirmed_count" <= "ticket_types"."max_quantity")),
	CONSTRAINT "ticket_types_max_quantity_check" CHECK ("ticket_types"."max_quantity" is null or "ticket_types"."max_quantity" >= 1)
);
--> statement-breakpoint
ALTER TABLE "certification_template_programs" ADD CONSTRAINT "certification_template_programs_template_id_certification_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."certification_templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certification_template_programs" ADD CONSTRAINT "certification_template_programs_program_id_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."programs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certification_templates" ADD CONSTRAINT "certification_templates_edition_id_editions_id_fk" FOREIGN KEY ("edition_id") REFERENCES "public"."editions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "programs" ADD CONSTRAINT "programs_edition_id_editions_id_fk" FOREIGN KEY ("edition_id") REFERENCES "public"."editions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_requests" ADD CONSTRAINT "signature_requests_edition_id_editions_id_fk" FOREIGN KEY ("edition_id") REFERENCES "public"."editions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signatures" ADD CONSTRAINT "signatures_request_id_signature_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."signature_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signatures" ADD CONSTRAINT "signatures_edition_id_editions_id_fk" FOREIGN KEY ("edition_id") REFERENCES "public"."editions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "badge_emissions" ADD CONSTRAINT "badge_emissions_edition_id_editions_id_fk" FOREIGN KEY ("edition_id") REFERENCES "public"."editions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "badge_emissions" ADD CONSTRAINT "badge_emissions_user_id_actors_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."actors"("user_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "badge_emissions" ADD CONSTRAINT "badge_emissions_registration_id_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."registrations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "badge_templates" ADD CONSTRAINT "badge_templates_edition_id_editions_id_fk" FOREIGN KEY ("edition_id") REFERENCES "public"."editions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "badge_templates" ADD CONSTRAINT "badge_templates_ticket_type_id_ticket_types_id_fk" FOREIGN KEY ("ticket_type_id") REFERENCES "public"."ticket_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_edition_id_editions_id_fk" FOREIGN KEY ("edition_id") REFERENCES "public"."editions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_ticket_type_id_ticket_types_id_fk" FOREIGN KEY ("ticket_type_id") REFERENCES "public"."ticket_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_user_id_actors_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."actors"("user_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_types" ADD CONSTRAINT "ticket_types_edition_id_editions_id_fk" FOREIGN KEY ("edition_id") REFERENCES "public"."editions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "certification_template_programs_program_idx" ON "certification_template_programs" USING btree ("program_id");--> statement-breakpoint
CREATE INDEX "certification_templates_edition_idx" ON "certification_templates" USING btree ("edition_id","created_at");--> statement-breakpoint
CREATE INDEX "programs_edition_schedule_idx" ON "programs" USING btree ("edition_id","starts_at","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "signature_requests_token_unique" ON "signature_requests" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "signature_requests_edition_idx" ON "signature_requests" USING btree ("edition_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "signatures_request_unique" ON "signatures" USING btree ("request_id");--> statement-breakpoint
CREATE UNIQUE INDEX "signatures_revoke_token_unique" ON "signatures" USING btree ("revoke_token_hash");--> statement-breakpoint
CREATE INDEX "signatures_edition_idx" ON "signatures" USING btree ("edition_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "badge_emissions_holder_unique" ON "badge_emissions" USING btree ("edition_id","user_id","origin");--> statement-breakpoint
CREATE INDEX "badge_emissions_user_idx" ON "badge_emissions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "badge_templates_scope_unique" ON "badge_templates" USING btree ("edition_id","scope") WHERE "badge_templates"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "registrations_one_active_unique" ON "registrations" USING btree ("edition_id","user_id") WHERE "registrations"."status" <> 'cancelled';--> statement-breakpoint
CREATE INDEX "registrations_edition_idx" ON "registrations" USING btree ("edition_id","created_at");--> statement-breakpoint
CREATE INDEX "registrations_user_idx" ON "registrations" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "ticket_types_edition_idx" ON "ticket_types" USING btree ("edition_id","created_at");