-- The index's vocabulary, one row per term with the number of messages
-- holding it: ask weighs the words of a question by how rare they are
-- (their idf) before it decides whether the mail answers it at all.
CREATE VIRTUAL TABLE messages_fts_vocab USING fts5vocab (messages_fts, row);
