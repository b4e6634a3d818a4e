-- Idempotency-Key answers are stored sealed with SECRETS_KEY from this version on: the answers kept
-- before were in clear, some with a secret shown once (a webhook signing secret, a signature
-- request's token). Their bodies are dropped here rather than left readable for their last hours;
-- the keys stay, so a retry with one is told its answer is withheld (409) instead of running again.
UPDATE "idempotency_keys" SET "response_body" = NULL WHERE "response_body" IS NOT NULL;
