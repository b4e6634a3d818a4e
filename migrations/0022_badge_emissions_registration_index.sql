-- A registration's badge by its registration: the confirmation mails of a claim read their badges
-- by registration (badge-emissions.repository.ts, findConfirmationFacts), which read the whole table.
CREATE INDEX "badge_emissions_registration_idx" ON "badge_emissions" USING btree ("registration_id");