-- A grant request may ask for several grant tiers under one prompt and
-- one match code (Call.Also): an OAuth client's consent asks for the
-- tiers of its scopes together. also holds the tiers besides tier,
-- space-separated; approving the request grants each of them with the
-- same key. '' for every other request.
ALTER TABLE approvals ADD COLUMN also TEXT NOT NULL DEFAULT '';
