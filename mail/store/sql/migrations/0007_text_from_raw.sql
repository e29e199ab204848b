-- 0007: a plain-text message's text is read again from its raw bytes
-- instead of being kept beside them. For a message of one text/plain part
-- (no HTML, no attachment) the stored text is nearly the raw bytes' body a
-- second time: compressing and writing it was about 6 % of an initial
-- sync's CPU and a third of such a message's bytes in the file. Such a
-- row has text_from_raw = 1 and an empty text_s2; Store.Text parses its
-- raw bytes (mime.Parse, storedText: the same code that made the text at
-- sync time) when it is asked for. Rows stored before keep their text.
ALTER TABLE message_content ADD COLUMN text_from_raw INTEGER NOT NULL DEFAULT 0;
