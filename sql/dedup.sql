-- examples/dedup.sql, a deduplicating store, as a regression test
\i examples/dedup.sql
