-- The browser an authorization request was started in: the SHA-256 (hex)
-- of the random value of the __Host- cookie its first page set. Only that
-- browser is shown the request's match code and sent back with its code,
-- so that the page's address, handed to someone else, is of no use.
-- Requests stored before this column have none, and answer no one.
ALTER TABLE oauth_requests ADD COLUMN browser_hash TEXT NOT NULL DEFAULT '';
