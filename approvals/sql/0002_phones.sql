-- Paired phones (docs/phone.md). A phone is 'pending' from its
-- registration until the user confirms the short code on the node, then
-- 'paired'. Removing a phone deletes its row. Keys are public keys,
-- base64url uncompressed P-256 points.
CREATE TABLE phones (
    id         TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    sign_pub   TEXT NOT NULL,
    box_pub    TEXT NOT NULL,
    state      TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    paired_at  INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;

-- The node's ECDH key for sealing messages to phones (PKCS #8 DER). It is
-- the node's side of every pairing: replacing it unpairs every phone.
CREATE TABLE phone_node_key (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    private BLOB NOT NULL
);
