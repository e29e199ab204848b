-- Questions that name a fact (ask) and order_status search facts_merged.match
-- with LIKE '% word %', which no index can seek; a scan of this narrow
-- covering index reads the names alone instead of every fact's JSON.
CREATE INDEX facts_merged_match ON facts_merged (match, kind, status, id);
