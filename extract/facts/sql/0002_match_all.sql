-- facts_merged.match now names bills (issuer and domain) and trips (places,
-- hotels, carriers, numbers) as well as orders, for questions that name
-- them (ask). Merge again so that existing rows get theirs.
UPDATE facts_state SET dirty = 1 WHERE id = 1;
