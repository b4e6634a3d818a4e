-- The registrations' search (docs/reference/tickets.md, "Sales") reads one trigram index over the
-- e-mail and the name together instead of one per column: the pattern's trigram lists are read once.
DROP INDEX "actors_email_trgm_idx";--> statement-breakpoint
DROP INDEX "actors_name_trgm_idx";--> statement-breakpoint
CREATE INDEX "actors_search_trgm_idx" ON "actors" USING gin ((lower("email") || chr(10) || lower(coalesce("name", ''))) gin_trgm_ops);