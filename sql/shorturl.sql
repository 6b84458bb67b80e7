-- examples/shorturl.sql, the seed systems rebuilt in SQL, as a regression test
\i examples/shorturl.sql
