-- The planner's statistics of the tables this service writes, kept fresh after bulk writes
-- (store/planner_stats.py, ADR 0118).

-- name: stale_tables --
-- The tables of the current schema that autovacuum would analyze when it next wakes: changed by more
-- rows since their last analyze than the server's own autovacuum_analyze_threshold plus
-- autovacuum_analyze_scale_factor of their live rows; only those the role may analyze (owns, or is a
-- member of the owner: another role's ANALYZE skips the table, which then stays listed); most
-- changed first.
SELECT quote_ident(s.relname) AS name
FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
WHERE s.schemaname = current_schema() AND pg_has_role(c.relowner, 'USAGE')
  AND s.n_mod_since_analyze > CAST(current_setting('autovacuum_analyze_threshold') AS bigint)
      + CAST(current_setting('autovacuum_analyze_scale_factor') AS float8) * s.n_live_tup
ORDER BY s.n_mod_since_analyze DESC, s.relname;

-- name: outgrown_tables --
-- The tables of the current schema whose rows changed since their last analyze by more than
-- autovacuum_analyze_threshold plus half their live rows: a table that only grew has at least
-- doubled (a table never analyzed counts every row as changed; an update counts as a change); only
-- those the role may analyze, as stale_tables; most changed first.
SELECT quote_ident(s.relname) AS name
FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
WHERE s.schemaname = current_schema() AND pg_has_role(c.relowner, 'USAGE')
  AND s.n_mod_since_analyze > CAST(current_setting('autovacuum_analyze_threshold') AS bigint) + s.n_live_tup / 2
ORDER BY s.n_mod_since_analyze DESC, s.relname;

-- name: try_lock --
-- A session advisory lock on analyzing by one rule, :rule naming it (false: another connection is
-- analyzing by that rule now); the two rules do not wait for each other.
SELECT pg_try_advisory_lock(hashtextextended(:rule, 0));

-- name: unlock --
-- Release try_lock's lock.
SELECT pg_advisory_unlock(hashtextextended(:rule, 0));
