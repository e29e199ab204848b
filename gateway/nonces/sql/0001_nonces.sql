-- Nonces of verified requests, kept until the signature they came with
-- expires, so a replay is refused even after the node restarts.
--
-- The table is only appended to, pruned by expiry and read whole at
-- start: the duplicate check happens in memory. Keyed by expiry first, new
-- rows land on the rightmost page and pruning cuts from the left, so a
-- commit rewrites one page and there is no second index to update.
CREATE TABLE nonces (
  expires INTEGER NOT NULL, -- Unix seconds
  key     TEXT NOT NULL,    -- keyid, NUL, nonce
  PRIMARY KEY (expires, key)
) WITHOUT ROWID;
