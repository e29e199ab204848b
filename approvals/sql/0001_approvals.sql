-- Grants, approvals, blocked agents and the audit log of agent calls.
-- Times are Unix seconds. Nothing here holds mail content.

-- A standing grant: an agent domain may use a tier without asking, while
-- it signs with the key whose fingerprint asked and until expires_at.
CREATE TABLE grants (
    domain      TEXT NOT NULL,
    tier        TEXT NOT NULL,
    key_fp      TEXT NOT NULL,
    granted_at  INTEGER NOT NULL,
    expires_at  INTEGER NOT NULL,
    approval_id TEXT NOT NULL,
    PRIMARY KEY (domain, tier)
) WITHOUT ROWID;

-- One request put to the user. For raw_read and send it is bound to the
-- tool and the hash of its canonical arguments and is used at most once;
-- for other tiers args_hash is '' and approving it stores a grant.
-- state: pending, approved, denied, used, revoked. A pending or approved row past
-- expires_at counts as expired.
CREATE TABLE approvals (
    id          TEXT PRIMARY KEY,
    match_code  TEXT NOT NULL,
    domain      TEXT NOT NULL,
    key_fp      TEXT NOT NULL,
    tool        TEXT NOT NULL,
    tier        TEXT NOT NULL,
    args_hash   TEXT NOT NULL,
    args        TEXT NOT NULL,
    state       TEXT NOT NULL,
    created_at  INTEGER NOT NULL,
    expires_at  INTEGER NOT NULL,
    decided_at  INTEGER
);
CREATE INDEX approvals_by_subject ON approvals (domain, tier, key_fp, args_hash);
CREATE INDEX approvals_by_state ON approvals (state, expires_at);

CREATE TABLE blocked (
    domain     TEXT PRIMARY KEY,
    blocked_at INTEGER NOT NULL
) WITHOUT ROWID;

-- Every tools/call that reached authorisation: who, what tool, which
-- decision. Never arguments or results.
CREATE TABLE audit (
    id          INTEGER PRIMARY KEY,
    at          INTEGER NOT NULL,
    domain      TEXT NOT NULL,
    key_fp      TEXT NOT NULL,
    tool        TEXT NOT NULL,
    tier        TEXT NOT NULL,
    decision    TEXT NOT NULL,
    approval_id TEXT NOT NULL
);
CREATE INDEX audit_by_time ON audit (at);
