-- Web Push (docs/phone.md, "Notifications"). The node's VAPID key (RFC
-- 8292), PKCS #8 DER of an ECDSA P-256 key: push services tie each
-- subscription to its public half, so replacing it silences every
-- subscription until the phones subscribe again.
CREATE TABLE push_vapid_key (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    private BLOB NOT NULL
);

-- One row per phone that ever subscribed: its push subscription
-- (endpoint '' once it unsubscribed or the push service forgot it) and
-- what became of the last push to it. Removing the phone deletes its row.
CREATE TABLE push_devices (
    phone_id      TEXT PRIMARY KEY,
    endpoint      TEXT NOT NULL DEFAULT '',
    p256dh        TEXT NOT NULL DEFAULT '',
    auth          TEXT NOT NULL DEFAULT '',
    subscribed_at INTEGER NOT NULL DEFAULT 0,
    last_at       INTEGER NOT NULL DEFAULT 0,
    last_ok       INTEGER NOT NULL DEFAULT 0,
    last_result   TEXT NOT NULL DEFAULT ''
) WITHOUT ROWID;
