-- 0009: the clock's listing of what is due (host/clock.py, Store.matches_due) reads an index
-- holding every column its condition tests, so of the matches whose deadline is near only those
-- with something due have their rows read (docs/clocks.md, "Numbers").  It replaces the index
-- on the deadline alone, which it begins with.
DROP INDEX matches_deadline;
CREATE INDEX matches_due ON matches (deadline, status, reminded, turn_seconds) WHERE deadline IS NOT NULL;
