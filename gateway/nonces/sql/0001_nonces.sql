-- Nonces of verified requests, kept until the signature they came with
-- expires, so a replay is refused even after the node restarts.
CREATE TABLE nonces (
  key     TEXT PRIMARY KEY, -- keyid, NUL, nonce
  expires INTEGER NOT NULL  -- Unix seconds
) WITHOUT ROWID;
CREATE INDEX nonces_expires ON nonces (expires);
