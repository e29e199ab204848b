-- The OAuth front door's state (package gateway/oauth). Times are Unix
-- seconds. Codes and tokens are stored as the hex SHA-256 of their value:
-- the file never holds one that works.

-- Clients registered by Dynamic Client Registration (RFC 7591). Clients
-- identified by a Client ID Metadata Document are not stored: their
-- document is fetched and cached in memory.
CREATE TABLE oauth_clients (
    id            TEXT PRIMARY KEY,
    name          TEXT NOT NULL,
    redirect_uris TEXT NOT NULL, -- JSON array
    created_at    INTEGER NOT NULL
);

-- One authorization request: waiting for the person's consent (the
-- approval approval_id), then holding the code issued for it until the
-- code is redeemed once or expires. key_fp is what the consent's grant is
-- pinned to ("oauth:" and the request id): every authorization asks the
-- person again, and the grant follows the newest.
CREATE TABLE oauth_requests (
    id           TEXT PRIMARY KEY,
    client_id    TEXT NOT NULL,
    domain       TEXT NOT NULL,
    key_fp       TEXT NOT NULL,
    redirect_uri TEXT NOT NULL,
    state        TEXT NOT NULL,
    challenge    TEXT NOT NULL,
    scopes       TEXT NOT NULL, -- space-separated tiers
    resource     TEXT NOT NULL,
    approval_id  TEXT NOT NULL,
    created_at   INTEGER NOT NULL,
    expires_at   INTEGER NOT NULL,
    code_hash    TEXT,
    code_expires INTEGER,
    code_used    INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX oauth_requests_by_code ON oauth_requests (code_hash);
CREATE INDEX oauth_requests_by_time ON oauth_requests (expires_at);

-- Access and refresh tokens. family is the authorization request they
-- descend from: a refresh rotates within it, and reusing a spent refresh
-- token, redeeming a code twice or revoking deletes the whole family.
CREATE TABLE oauth_tokens (
    hash       TEXT PRIMARY KEY,
    kind       TEXT NOT NULL, -- access, refresh
    family     TEXT NOT NULL,
    client_id  TEXT NOT NULL,
    domain     TEXT NOT NULL,
    key_fp     TEXT NOT NULL,
    scopes     TEXT NOT NULL,
    resource   TEXT NOT NULL,
    expires_at INTEGER NOT NULL,
    spent      INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
CREATE INDEX oauth_tokens_by_family ON oauth_tokens (family);
CREATE INDEX oauth_tokens_by_time ON oauth_tokens (expires_at);
