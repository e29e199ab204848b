-- Whether a merged fact's senders were trusted when it was merged
-- (mail/trust), so that the tools' limits keep trusted facts first: twenty
-- strangers' trips departing before a real one filled get_upcoming_travel's
-- twenty places, and the split into trips and unverified came after the
-- limit (the second outside review of 2026-11-28). The answer's own
-- trusted_sender is still worked out as of the question's now.
ALTER TABLE facts_merged ADD COLUMN trusted INTEGER NOT NULL DEFAULT 0;
UPDATE facts_state SET dirty = 1 WHERE id = 1;
