-- 0004: the full-text index merges its segments sixteen at a time instead
-- of FTS5's default four. Each merge rewrites every posting it holds, so at
-- four a posting was rewritten about three times while a large mailbox was
-- first synced: a third of the index's cost at sync time. Queries read a
-- few more segments; docs/benchmarks.md measures both.
INSERT INTO messages_fts (messages_fts, rank) VALUES ('automerge', 16);
