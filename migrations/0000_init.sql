CREATE TABLE "actors" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "editions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"event_id" uuid NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"tagline" text,
	"description" text,
	"is_draft" boolean DEFAULT true NOT NULL,
	"registration_opens_at" timestamp (3) with time zone,
	"starts_at" timestamp (3) with time zone NOT NULL,
	"ends_at" timestamp (3) with time zone NOT NULL,
	"location_name" text,
	"location_description" text,
	"logo_url" text,
	"banner_url" text,
	"contact_email" text,
	"created_by" uuid NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	CONSTRAINT "editions_dates_check" CHECK ("editions"."ends_at" > "editions"."starts_at"),
	CONSTRAINT "editions_registration_check" CHECK ("editions"."registration_opens_at" is null or "editions"."registration_opens_at" <= "editions"."starts_at")
);
--> statement-breakpoint
CREATE TABLE "event_members" (
	"event_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "event_members_pk" PRIMARY KEY("event_id","user_id"),
	CONSTRAINT "event_members_role_check" CHECK ("event_members"."role" in ('owner', 'admin', 'staff'))
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"description" text,
	"contact_email" text,
	"logo_url" text,
	"banner_url" text,
	"status" text DEFAULT 'draft' NOT NULL,
	"owner_id" uuid NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "events_status_check" CHECK ("events"."status" in ('draft', 'active'))
);
--> statement-breakpoint
ALTER TABLE "editions" ADD CONSTRAINT "editions_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_members" ADD CONSTRAINT "event_members_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_members" ADD CONSTRAINT "event_members_user_id_actors_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."actors"("user_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "actors_email_lower_idx" ON "actors" USING btree (lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "editions_event_slug_unique" ON "editions" USING btree ("event_id","slug") WHERE "editions"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "editions_event_starts_idx" ON "editions" USING btree ("event_id","starts_at");--> statement-breakpoint
CREATE INDEX "event_members_user_idx" ON "event_members" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "events_slug_unique" ON "events" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "events_status_created_idx" ON "events" USING btree ("status","created_at");