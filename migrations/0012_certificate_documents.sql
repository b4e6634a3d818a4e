CREATE TABLE "certificate_documents" (
	"certificate_id" uuid NOT NULL,
	"version" text NOT NULL,
	"pdf" "bytea" NOT NULL,
	"etag" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "certificate_documents_certificate_id_version_pk" PRIMARY KEY("certificate_id","version"),
	CONSTRAINT "certificate_documents_version_check" CHECK ("certificate_documents"."version" in ('issued', 'revoked'))
);
--> statement-breakpoint
ALTER TABLE "certificates" ADD COLUMN "signature_ids" uuid[];--> statement-breakpoint
ALTER TABLE "certificate_documents" ADD CONSTRAINT "certificate_documents_certificate_id_certificates_id_fk" FOREIGN KEY ("certificate_id") REFERENCES "public"."certificates"("id") ON DELETE cascade ON UPDATE no action;