#!/usr/bin/env bash
# A table taken over by snowflake_convert_column survives pg_dump and pg_restore: an account table whose identity key
# 5,000 invoices refer to is converted, gets new rows, is dumped (custom format) and restored into a new database.
# There the rows and their keys are those of the original, the foreign key holds and is enforced, the default is
# idcodec's snowflake_generate() and new rows get snowflakes of the restoring session's node above every old key.
set -euo pipefail
cd "$(dirname "$0")/../.."
source test/lib/check.sh
q() { psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }
source_db=idcodec_snowflake_source
restored_db=idcodec_snowflake_restored
dump=$(mktemp)
cleanup() {
    rm -f "$dump"
    q -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $source_db" \
      -c "DROP DATABASE IF EXISTS $restored_db" >/dev/null 2>&1 || true
}
trap cleanup EXIT
q -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $source_db" -c "DROP DATABASE IF EXISTS $restored_db" \
  -c "CREATE DATABASE $source_db" -c "CREATE DATABASE $restored_db"

# every row's key, name and place (the place shows the table was not rewritten)
rows="SELECT string_agg(id || ':' || name, ',' ORDER BY id) FROM account"
PGOPTIONS="-c idcodec.node_id=11" q -d $source_db <<'SQL'
CREATE EXTENSION idcodec;
CREATE TABLE account (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, name text NOT NULL);
CREATE TABLE invoice (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                      account_id bigint NOT NULL REFERENCES account, amount int NOT NULL);
INSERT INTO account (name) SELECT 'account ' || g FROM generate_series(1, 1000) g;
INSERT INTO invoice (account_id, amount) SELECT 1 + g % 1000, g FROM generate_series(1, 5000) g;
CREATE TABLE places_before AS SELECT id, ctid AS place FROM account;
SQL
filenode_before=$(q -d $source_db -c "SELECT pg_relation_filenode('account')")
PGOPTIONS="-c idcodec.node_id=11" q -d $source_db -c "SELECT snowflake_convert_column('account', 'id')" \
    -c "SELECT snowflake_convert_column('invoice', 'id')" >/dev/null
check "converted in place: same file, every old row where it was" \
    "$(q -d $source_db -c "SELECT pg_relation_filenode('account') = $filenode_before,
                                  count(*) FROM places_before p JOIN account a ON a.id = p.id AND a.ctid = p.place")" \
    "t|1000"
PGOPTIONS="-c idcodec.node_id=11" q -d $source_db \
    -c "INSERT INTO account (name) SELECT 'new account ' || g FROM generate_series(1, 10) g" \
    -c "INSERT INTO invoice (account_id, amount) SELECT id, 1 FROM account WHERE name LIKE 'new %'"
check "new rows on node 11, above the old keys" \
    "$(q -d $source_db -c "SELECT count(*), bool_and(snowflake_node(id) = 11), min(id) > 1000 FROM account WHERE name LIKE 'new %'")" \
    "10|t|t"
check "the dump writes the default as idcodec's function" \
    "$(pg_dump -d $source_db --schema-only -t account | grep -c 'DEFAULT public.snowflake_generate()')" "1"

pg_dump -d $source_db -Fc -f "$dump"
restore_errors=$(pg_restore -d $restored_db --exit-on-error "$dump" 2>&1 || echo "exit $?")
check "pg_restore into a new database: no error" "$restore_errors" ""
check "the restored rows: the same keys and names" \
    "$(q -d $restored_db -c "$rows" | md5sum)" "$(q -d $source_db -c "$rows" | md5sum)"
check "the restored foreign key holds and is enforced" \
    "$(q -d $restored_db -c "SELECT count(*) FROM invoice i JOIN account a ON a.id = i.account_id" \
         -c "SELECT convalidated FROM pg_constraint WHERE conname = 'invoice_account_id_fkey'")
$(PGOPTIONS="-c idcodec.node_id=12" q -d $restored_db -c "INSERT INTO invoice (account_id, amount) VALUES (-1, 1)" 2>&1 |
  grep -o 'violates foreign key constraint')" \
    "5010
t
violates foreign key constraint"
PGOPTIONS="-c idcodec.node_id=12" q -d $restored_db -c "INSERT INTO account (name) VALUES ('restored')"
check "after the restore, new rows get snowflakes of this node above every key" \
    "$(q -d $restored_db -c "SELECT snowflake_node(id), id > (SELECT max(id) FROM account WHERE name <> 'restored')
                             FROM account WHERE name = 'restored'")" "12|t"

echo "$passes passed, $failures failed"
[ "$failures" -eq 0 ]
