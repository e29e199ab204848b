-- The readable form of a request, as the phone shows it (docs/phone.md):
-- for a send, the recipients, subject and full body of the draft. Rows
-- are deleted with the rest of the request after AuditRetention.
ALTER TABLE approvals ADD COLUMN details TEXT NOT NULL DEFAULT '';
