-- Idempotency-Key answers are stored sealed with SECRETS_KEY from this version on (issue 27): the
-- answers kept before were in clear, some with a secret shown once (a webhook signing secret, a
-- signature request's token). They are forgotten here rather than left readable for their last
-- hours; a retry with such a key runs again, as after the 24 hours.
DELETE FROM "idempotency_keys" WHERE "response_body" IS NOT NULL;
