-- facts_extracted.relayed: the message relays another writer's words
-- under its From domain (mail/trust.Relayed: a share's, a list post's, a
-- marketplace seller's message), so its sender is the message alone and
-- never trusted (the tenth outside review of 2026-11-29, HIGH-2). Set as
-- messages are read; extract.Version 17 reads every stored message again.
ALTER TABLE facts_extracted ADD COLUMN relayed INTEGER NOT NULL DEFAULT 0;
