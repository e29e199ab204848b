-- Request counts the prompts an agent opened in the last hour
-- (Config.MaxPromptsPerHour) on every new prompt.
CREATE INDEX approvals_by_domain_time ON approvals (domain, created_at);
