-- 0001: accounts, folders with their IMAP sync state, messages, raw bytes,
-- attachment metadata and the full-text index.

CREATE TABLE accounts (
	id       INTEGER PRIMARY KEY,
	name     TEXT NOT NULL UNIQUE, -- the node's label for the account, e.g. "personal"
	server   TEXT NOT NULL,        -- host:port
	username TEXT NOT NULL
);

-- A folder's sync state moves in the same transaction as the messages it
-- describes. last_uid is a watermark: every message the server had with
-- uid <= last_uid is stored (or was expunged and removed).
CREATE TABLE folders (
	id            INTEGER PRIMARY KEY,
	account_id    INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
	name          TEXT NOT NULL,
	special_use   TEXT NOT NULL DEFAULT '',
	uidvalidity   INTEGER NOT NULL DEFAULT 0,
	uidnext       INTEGER NOT NULL DEFAULT 0,
	highestmodseq INTEGER NOT NULL DEFAULT 0,
	last_uid      INTEGER NOT NULL DEFAULT 0,
	synced_at     INTEGER NOT NULL DEFAULT 0, -- Unix seconds of the last complete pass
	UNIQUE (account_id, name)
);

CREATE TABLE messages (
	id            INTEGER PRIMARY KEY,
	folder_id     INTEGER NOT NULL REFERENCES folders(id) ON DELETE CASCADE,
	uid           INTEGER NOT NULL,
	modseq        INTEGER NOT NULL DEFAULT 0,
	flags         TEXT NOT NULL DEFAULT '', -- sorted, space-separated
	internal_date INTEGER NOT NULL DEFAULT 0,
	size          INTEGER NOT NULL DEFAULT 0,
	message_id    TEXT NOT NULL DEFAULT '',
	in_reply_to   TEXT NOT NULL DEFAULT '',
	refs          TEXT NOT NULL DEFAULT '', -- References, space-separated
	thread_id     TEXT NOT NULL DEFAULT '',
	subject       TEXT NOT NULL DEFAULT '',
	from_addr     TEXT NOT NULL DEFAULT '', -- first From address, lower case
	from_name     TEXT NOT NULL DEFAULT '',
	to_addrs      TEXT NOT NULL DEFAULT '', -- JSON array of {name,address}
	cc_addrs      TEXT NOT NULL DEFAULT '',
	date          INTEGER NOT NULL DEFAULT 0, -- Date header, Unix seconds; 0 if missing
	has_html      INTEGER NOT NULL DEFAULT 0,
	mime_problems TEXT NOT NULL DEFAULT '', -- one problem per line; empty when clean
	UNIQUE (folder_id, uid)
);
CREATE INDEX messages_message_id ON messages (message_id);
CREATE INDEX messages_thread_id ON messages (thread_id);
CREATE INDEX messages_date ON messages (date);

-- The bulky part of each message, apart from its row so that scans of
-- messages read a few hundred bytes per message, not tens of kilobytes.
-- Each column is an S2 block (github.com/klauspost/compress/s2), empty when
-- there is nothing: the raw RFC 5322 bytes, the parsed text of the
-- text/plain parts and the readable text of the text/html parts. S2 cuts
-- the bytes written at sync time, and the file, two- to threefold for text
-- mail, for a third of zstd's CPU. Read with Store.Raw and Store.Text.
CREATE TABLE message_content (
	message_id INTEGER PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
	raw_s2     BLOB NOT NULL,
	text_s2    BLOB NOT NULL,
	html_s2    BLOB NOT NULL
);

CREATE TABLE attachments (
	id           INTEGER PRIMARY KEY,
	message_id   INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
	part         TEXT NOT NULL,
	filename     TEXT NOT NULL DEFAULT '',
	content_type TEXT NOT NULL,
	disposition  TEXT NOT NULL DEFAULT '',
	size         INTEGER NOT NULL
);
CREATE INDEX attachments_message_id ON attachments (message_id);

-- Contentless: the text already lives in messages, so the index stores only
-- postings. rowid = messages.id.
CREATE VIRTUAL TABLE messages_fts USING fts5 (
	subject, sender, body,
	content = '',
	contentless_delete = 1,
	tokenize = 'unicode61 remove_diacritics 2'
);

CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
	DELETE FROM messages_fts WHERE rowid = old.id;
END;
