-- 0004: the full-text index merges its segments sixteen at a time instead
-- of FTS5's default four. Each merge rewrites every posting it holds, so at
-- four a posting was rewritten about three times while a large mailbox was
-- first synced (10,000-message sync, A/B: 3.42 s at four, 3.26 s at
-- sixteen). Queries read a few more segments; docs/benchmarks.md measures
-- both.
INSERT INTO messages_fts (messages_fts, rank) VALUES ('automerge', 16);
