-- 0005: what the node knows of a sender beyond its authentication
-- (mail/trust): when mail from each registrable domain first arrived, and
-- the addresses the user has written to. Both are kept as messages are
-- stored (senders.go) and filled from the messages already stored by the
-- Go step of this migration (backfillSenders), since a registrable domain
-- needs the Public Suffix List, which SQL does not have.

-- One row per registrable domain of a From address of mail outside Junk
-- and Trash. first_seen is Unix seconds: the earliest internal_date (the
-- server's arrival time, which no sender can set) of its mail, or the time
-- the node stored a message that has none.
CREATE TABLE sender_domains (
	domain     TEXT PRIMARY KEY,
	first_seen INTEGER NOT NULL
) WITHOUT ROWID;

-- One row per To and Cc address of mail in \Sent folders, lower case,
-- under its registrable domain.
CREATE TABLE correspondents (
	domain  TEXT NOT NULL,
	address TEXT NOT NULL,
	PRIMARY KEY (domain, address)
) WITHOUT ROWID;
