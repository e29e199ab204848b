-- Limits apply per registrable domain (eTLD+1) too, so that
-- a.evil.example, b.evil.example, ... share them (Config.MaxPending,
-- MaxPromptsPerHour). Rows made before this migration are counted under
-- their own domain; they lapse within the hour.
ALTER TABLE approvals ADD COLUMN site TEXT NOT NULL DEFAULT '';
UPDATE approvals SET site = domain;
CREATE INDEX approvals_by_site_time ON approvals (site, created_at);
