-- Drafts agents wrote (create_draft, draft_reply). They stay on the node
-- until the user approves a send on their phone. The message's exact
-- bytes are rebuilt from these fields, so its hash is stable: a send
-- approval is bound to it. Times are Unix seconds.
-- state: draft, sending (handed to the SMTP server, outcome not yet
-- known), sent, failed (refused before the server accepted it; the
-- draft can be sent again), unknown (the connection broke after the
-- message was handed over: it may have been delivered; never resent
-- automatically).
CREATE TABLE drafts (
    id          TEXT PRIMARY KEY,
    agent       TEXT NOT NULL,
    from_addr   TEXT NOT NULL,
    to_addrs    TEXT NOT NULL,  -- JSON array
    cc_addrs    TEXT NOT NULL,  -- JSON array
    subject     TEXT NOT NULL,
    body        TEXT NOT NULL,
    in_reply_to TEXT NOT NULL,
    refs        TEXT NOT NULL,  -- JSON array of message ids
    message_id  TEXT NOT NULL,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    state       TEXT NOT NULL,
    sent_at     INTEGER NOT NULL DEFAULT 0,
    detail      TEXT NOT NULL DEFAULT ''  -- the server's answer to the last send
) WITHOUT ROWID;
CREATE INDEX drafts_by_agent ON drafts (agent, created_at);
