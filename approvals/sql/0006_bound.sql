-- The value a raw_read or send request was bound to when it was made
-- (Call.Bind or Call.Pin): for send_draft the hash of the draft, for
-- get_excerpt the hash of the excerpt the phone showed. The tool compares
-- it with what it would act on when the approved call runs. A pinned
-- value takes no part in finding the request (args_hash), so that what a
-- call is answered never depends on the mail the value was computed from.
-- Rows made before this migration hold ''; they lapse within
-- ApprovedTTL, and a pinned call approved among them fails closed.
ALTER TABLE approvals ADD COLUMN bound TEXT NOT NULL DEFAULT '';
