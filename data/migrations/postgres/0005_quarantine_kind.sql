-- 0005 (PostgreSQL twin of ../0005_quarantine_kind.sql): why a row was quarantined (issue 31): 'data' (a value does not decode, fields do not fit
-- together), 'log' (n_commands does not fit the command log), 'game' (the engines cannot serve
-- the row), 'replay' (the log does not replay, or not to the stored snapshot).  NULL: quarantined
-- before this migration; such a row whose reason names a failing connection is re-checked on
-- its next load and released when it reads and replays cleanly.
ALTER TABLE quarantine ADD COLUMN kind TEXT;
