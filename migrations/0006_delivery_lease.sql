DROP INDEX "webhook_deliveries_event_idx";--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "leased_until" timestamp (3) with time zone;--> statement-breakpoint
-- Room in each page for in-place (HOT) updates: a claim changes only unindexed columns.
ALTER TABLE "webhook_deliveries" SET (fillfactor = 70);
