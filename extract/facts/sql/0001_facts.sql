-- 0001: what the extractors read from each message, and the merged state
-- the read tools answer from.

-- Which messages have been read, by which version of the extractors.
CREATE TABLE facts_extracted (
	message_id    INTEGER PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
	version       INTEGER NOT NULL,
	authenticated INTEGER NOT NULL DEFAULT 0,
	auth_method   TEXT NOT NULL DEFAULT ''
);

-- One row per fact: an extract.Record as JSON.
CREATE TABLE facts (
	message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
	seq        INTEGER NOT NULL,
	kind       TEXT NOT NULL,
	record     TEXT NOT NULL,
	PRIMARY KEY (message_id, seq)
);

-- The merged trips, orders and bills, rebuilt whenever facts change.
-- start_at/end_at (trips) and due_at (bills) are Unix seconds.
CREATE TABLE facts_merged (
	id       TEXT PRIMARY KEY,     -- t_…, o_…, b_…
	kind     TEXT NOT NULL,        -- trip, order, bill
	status   TEXT NOT NULL,
	start_at INTEGER NOT NULL DEFAULT 0,
	end_at   INTEGER NOT NULL DEFAULT 0,
	due_at   INTEGER NOT NULL DEFAULT 0,
	match    TEXT NOT NULL DEFAULT '', -- orders: folded merchant name and domain
	data     TEXT NOT NULL         -- the JSON an agent sees
);
CREATE INDEX facts_merged_trips ON facts_merged (kind, end_at);
CREATE INDEX facts_merged_bills ON facts_merged (kind, status, due_at);

-- Set when facts disappear with their message, so that the next pass
-- merges again even if it reads nothing new.
CREATE TABLE facts_state (
	id    INTEGER PRIMARY KEY CHECK (id = 1),
	dirty INTEGER NOT NULL
);
INSERT INTO facts_state (id, dirty) VALUES (1, 1);
CREATE TRIGGER facts_deleted AFTER DELETE ON facts BEGIN
	UPDATE facts_state SET dirty = 1 WHERE id = 1 AND dirty = 0;
END;
