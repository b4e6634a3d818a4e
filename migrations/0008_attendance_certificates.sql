CREATE TABLE "certificate_issuances" (
	"id" uuid PRIMARY KEY NOT NULL,
	"edition_id" uuid NOT NULL,
	"template_ids" jsonb,
	"requested_by" uuid NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"issued" integer DEFAULT 0 NOT NULL,
	"skipped" integer DEFAULT 0 NOT NULL,
	"errors" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp (3) with time zone,
	"finished_at" timestamp (3) with time zone,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "certificate_issuances_status_check" CHECK ("certificate_issuances"."status" in ('queued', 'running', 'completed', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "certificates" (
	"id" uuid PRIMARY KEY NOT NULL,
	"template_id" uuid NOT NULL,
	"edition_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"holder_name" text NOT NULL,
	"holder_email" text NOT NULL,
	"issued_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"status" text DEFAULT 'valid' NOT NULL,
	"revoked_at" timestamp (3) with time zone,
	"reason" text,
	"revoked_by" uuid,
	"verification_code" text NOT NULL,
	"status_list_id" uuid NOT NULL,
	"status_list_index" integer NOT NULL,
	"issuance_id" uuid,
	CONSTRAINT "certificates_status_check" CHECK ("certificates"."status" in ('valid', 'revoked'))
);
--> statement-breakpoint
CREATE TABLE "credential_status_lists" (
	"id" uuid PRIMARY KEY NOT NULL,
	"size" integer NOT NULL,
	"allocated" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credential_status_lists_allocated_check" CHECK ("credential_status_lists"."allocated" between 0 and "credential_status_lists"."size")
);
--> statement-breakpoint
CREATE TABLE "check_ins" (
	"id" uuid PRIMARY KEY NOT NULL,
	"edition_id" uuid NOT NULL,
	"emission_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"program_id" uuid,
	"checked_in_at" timestamp (3) with time zone NOT NULL,
	"recorded_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"scanned_by" uuid NOT NULL,
	"nonce" text,
	CONSTRAINT "check_ins_place_unique" UNIQUE NULLS NOT DISTINCT("emission_id","program_id")
);
--> statement-breakpoint
CREATE TABLE "program_participants" (
	"program_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"registration_id" uuid,
	"status" text DEFAULT 'active' NOT NULL,
	"signed_up_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"cancelled_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "program_participants_pk" PRIMARY KEY("program_id","user_id"),
	CONSTRAINT "program_participants_status_check" CHECK ("program_participants"."status" in ('active', 'cancelled'))
);
--> statement-breakpoint
ALTER TABLE "actors" ADD COLUMN "name" text;--> statement-breakpoint
ALTER TABLE "programs" ADD COLUMN "max_participants" integer;--> statement-breakpoint
ALTER TABLE "certificate_issuances" ADD CONSTRAINT "certificate_issuances_edition_id_editions_id_fk" FOREIGN KEY ("edition_id") REFERENCES "public"."editions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_template_id_certification_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."certification_templates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_edition_id_editions_id_fk" FOREIGN KEY ("edition_id") REFERENCES "public"."editions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_user_id_actors_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."actors"("user_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_status_list_id_credential_status_lists_id_fk" FOREIGN KEY ("status_list_id") REFERENCES "public"."credential_status_lists"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_ins" ADD CONSTRAINT "check_ins_edition_id_editions_id_fk" FOREIGN KEY ("edition_id") REFERENCES "public"."editions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_ins" ADD CONSTRAINT "check_ins_emission_id_badge_emissions_id_fk" FOREIGN KEY ("emission_id") REFERENCES "public"."badge_emissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_ins" ADD CONSTRAINT "check_ins_user_id_actors_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."actors"("user_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_ins" ADD CONSTRAINT "check_ins_program_id_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."programs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "program_participants" ADD CONSTRAINT "program_participants_program_id_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."programs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "program_participants" ADD CONSTRAINT "program_participants_user_id_actors_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."actors"("user_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "program_participants" ADD CONSTRAINT "program_participants_registration_id_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."registrations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "certificate_issuances_edition_idx" ON "certificate_issuances" USING btree ("edition_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "certificates_holder_unique" ON "certificates" USING btree ("template_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "certificates_code_unique" ON "certificates" USING btree ("verification_code");--> statement-breakpoint
CREATE UNIQUE INDEX "certificates_status_bit_unique" ON "certificates" USING btree ("status_list_id","status_list_index");--> statement-breakpoint
CREATE INDEX "certificates_edition_idx" ON "certificates" USING btree ("edition_id","issued_at");--> statement-breakpoint
CREATE INDEX "certificates_user_idx" ON "certificates" USING btree ("user_id","issued_at");--> statement-breakpoint
CREATE UNIQUE INDEX "check_ins_nonce_unique" ON "check_ins" USING btree ("edition_id","nonce") WHERE "check_ins"."nonce" is not null;--> statement-breakpoint
CREATE INDEX "check_ins_edition_time_idx" ON "check_ins" USING btree ("edition_id","checked_in_at");--> statement-breakpoint
CREATE INDEX "check_ins_program_idx" ON "check_ins" USING btree ("program_id");--> statement-breakpoint
CREATE INDEX "check_ins_user_idx" ON "check_ins" USING btree ("edition_id","user_id");--> statement-breakpoint
CREATE INDEX "program_participants_user_idx" ON "program_participants" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "programs" ADD CONSTRAINT "programs_max_participants_check" CHECK ("programs"."max_participants" is null or "programs"."max_participants" >= 1);