-- A call waiting for the user is kept once however often the agent
-- repeats it while it waits (issue 42): retries counts the calls after
-- the first, last_at is the time of the last one. audit_waiting makes the
-- waiting calls unique, so that a repeat updates their row (ON CONFLICT).
-- Rows written before this migration are merged the same way: the first
-- row of each waiting call keeps its id and time and takes the count.
ALTER TABLE audit ADD COLUMN retries INTEGER NOT NULL DEFAULT 0;
ALTER TABLE audit ADD COLUMN last_at INTEGER NOT NULL DEFAULT 0;
UPDATE audit SET last_at = at;
UPDATE audit SET retries = w.n - 1, last_at = w.last
FROM (SELECT min(id) AS first, count(*) AS n, max(at) AS last FROM audit
      WHERE decision = 'approval_required' AND approval_id != ''
      GROUP BY approval_id, domain, key_fp, tool, tier) AS w
WHERE audit.id = w.first;
DELETE FROM audit WHERE decision = 'approval_required' AND approval_id != '' AND id NOT IN (
    SELECT min(id) FROM audit WHERE decision = 'approval_required' AND approval_id != ''
    GROUP BY approval_id, domain, key_fp, tool, tier);
CREATE UNIQUE INDEX audit_waiting ON audit (approval_id, domain, key_fp, tool, tier)
    WHERE decision = 'approval_required' AND approval_id != '';
