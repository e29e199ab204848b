-- facts_merged.trusted becomes the order in which the tools fill their
-- limits: 2 a verified fact whose every sender is trusted (1 before this),
-- 1 one whose every sender at least has standing (authenticated at a
-- domain of its own: a new airline's first booking, the person's own
-- forward), 0 the rest, so that strangers at free-mail addresses cannot
-- crowd those out (the third outside review of 2026-11-28). The merge
-- writes the new values; until it runs, the old ones keep trusted facts
-- first.
UPDATE facts_merged SET trusted = 2 WHERE trusted = 1;
UPDATE facts_state SET dirty = 1 WHERE id = 1;
