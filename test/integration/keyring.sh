#!/usr/bin/env bash
# The keyring: named FF1 keys in idcodec.keyring, on a cluster of its own that preloads idcodec and has the keyring
# in its configuration file. A named key encrypts exactly as its bytes do; a second role (no superuser) uses the
# names and reads none of the keys (SHOW, current_setting, pg_settings, pg_file_settings, the catalog of a generated
# column); nobody sets it from SQL; a reload brings new names; a malformed keyring and a missing name are errors
# that quote neither; and no key's hex is ever in the server's log.
set -euo pipefail
cd "$(dirname "$0")/../.."
source test/lib/cluster.sh
customers=2b7e151628aed2a6abf7158809cf4f3c
invoices=000102030405060708090a0b0c0d0e0f1011121314151617
orders=c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00
port=$(free_port)
cluster_init keys
conf="$CLUSTERS/keys/postgresql.conf"
set_keyring() { as_postgres sh -c "sed -i '/^idcodec.keyring/d' '$conf' && echo \"idcodec.keyring = '$1'\" >> '$conf'"; }
set_keyring "customers=$customers, invoices=$invoices"
cluster_run keys "$port" "shared_preload_libraries=idcodec"
log=$(cluster_log keys)

failures=0
check() {  # check WHAT GOT EXPECTED
    if [ "$2" = "$3" ]; then echo "ok: $1"; else echo "FAILED: $1: got '$2', expected '$3'"; failures=$((failures + 1)); fi
}
as_super() { cluster_psql "$port" -d postgres "$@" 2>&1 || true; }
as_app() { psql -X -q -At -h "$CLUSTERS" -p "$port" -U idcodec_app -d postgres "$@" 2>&1 || true; }
sqlstate() { psql -X -q -At -h "$CLUSTERS" -p "$port" -U "$1" -d postgres -v VERBOSITY=verbose -c "$2" 2>&1 |
    sed -nE 's/^ERROR:  ([0-9A-Z]{5}): .*/\1/p' | head -n 1; }

as_super -c "CREATE EXTENSION idcodec" -c "CREATE ROLE idcodec_app LOGIN NOSUPERUSER" \
    -c "GRANT CREATE ON SCHEMA public TO idcodec_app" >/dev/null

check "a named key encrypts as its bytes do" \
    "$(as_super -c "SELECT idcrypt_encode(42, key_name => 'customers') = idcrypt_encode(42, '\\x$customers'::bytea)
                       AND idcrypt_encode(42, 'invoices', 'invoice') = idcrypt_encode(42, '\\x$invoices'::bytea, 'invoice')")" "t"
check "and decodes" "$(as_super -c "SELECT idcrypt_decode(idcrypt_encode(7, '\\x$customers'::bytea, 't'), key_name => 'customers', tweak => 't')")" "7"
check "a superuser sees only a constant" "$(as_super -c "SHOW idcodec.keyring")" "(hidden)"

check "the second role is no superuser and not in pg_read_all_settings" \
    "$(as_app -c "SELECT rolsuper OR pg_has_role('pg_read_all_settings', 'member') FROM pg_roles WHERE rolname = current_user")" "f"
check "it uses the named keys" \
    "$(as_app -c "SELECT idcrypt_encode(42, key_name => 'customers') = '$(as_super -c "SELECT idcrypt_encode(42, '\\x$customers'::bytea)")'")" "t"
check "SHOW is refused to it" "$(sqlstate idcodec_app "SHOW idcodec.keyring")" "42501"
check "current_setting is refused to it" "$(sqlstate idcodec_app "SELECT current_setting('idcodec.keyring')")" "42501"
check "pg_settings does not list it" "$(as_app -c "SELECT count(*) FROM pg_settings WHERE name = 'idcodec.keyring'")" "0"
check "pg_file_settings is refused to it" "$(sqlstate idcodec_app "SELECT * FROM pg_file_settings")" "42501"
check "it cannot SET it" "$(sqlstate idcodec_app "SET idcodec.keyring = 'x=$customers'")" "55P02"
check "it cannot ALTER SYSTEM it" "$(sqlstate idcodec_app "ALTER SYSTEM SET idcodec.keyring = 'x=$customers'")" "42501"
check "a superuser cannot SET it either (only the configuration file does)" \
    "$(sqlstate postgres "SET idcodec.keyring = 'x=$customers'")" "55P02"

as_app -c "CREATE TABLE app_customer (id bigint PRIMARY KEY,
             public_id text GENERATED ALWAYS AS (idcrypt_encode(id, key_name => 'customers', tweak => 'customer')) STORED UNIQUE)" \
       -c "INSERT INTO app_customer SELECT generate_series(1, 1000)" >/dev/null
check "its generated column holds encrypted IDs that decode" \
    "$(as_app -c "SELECT count(*) FROM app_customer WHERE idcrypt_decode(public_id, key_name => 'customers', tweak => 'customer') = id")" "1000"
check "and the catalog holds the key's name, not the key" \
    "$(as_app -c "SELECT pg_get_expr(adbin, adrelid) ~ 'customers' AND pg_get_expr(adbin, adrelid) !~ '$customers' FROM pg_attrdef WHERE adrelid = 'app_customer'::regclass")" "t"

# A parallel worker cannot read the keyring: the named forms run in the leader of a parallel plan (PARALLEL
# RESTRICTED), above a Gather whose workers scan the table, and give the same answers.
as_app -c "INSERT INTO app_customer SELECT generate_series(1001, 200000)" -c "ANALYZE app_customer" >/dev/null
parallel="SET max_parallel_workers_per_gather = 2; SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0;
          SET min_parallel_table_scan_size = 0;"
query="SELECT count(*) FILTER (WHERE idcrypt_decode(public_id, 'customers', 'customer') = id) FROM app_customer"
check "a parallel plan with a named key has a Gather" \
    "$(as_app -c "$parallel EXPLAIN (COSTS OFF) $query" | grep -c "Gather")" "1"
check "and answers as a serial one" "$(as_app -c "$parallel $query")" "200000"

check "a missing name is an error (42704)" "$(sqlstate idcodec_app "SELECT idcrypt_encode(1, key_name => 'orders')")" "42704"
check "a key passed where a name belongs is refused (22023)" \
    "$(sqlstate idcodec_app "SELECT idcrypt_encode(1, key_name => '\\x$customers')")" "22023"
check "neither error quotes what it was given" \
    "$(as_app -c "SELECT idcrypt_encode(1, key_name => 'orders')" -c "SELECT idcrypt_encode(1, key_name => '\\x$customers')" | grep -c "orders\|$customers")" "0"

set_keyring "customers=$customers invoices=$invoices orders=$orders"
as_super -c "SELECT pg_reload_conf()" >/dev/null
sleep 1
check "a reload brings a new name" \
    "$(as_app -c "SELECT idcrypt_encode(5, key_name => 'orders') = idcrypt_encode(5, '\\x$orders'::bytea)")" "t"
check "and keeps the others" "$(as_app -c "SELECT count(*) FROM app_customer WHERE idcrypt_decode(public_id, 'customers', 'customer') = id")" "200000"

set_keyring "customers=$customers, broken"
as_super -c "SELECT pg_reload_conf()" >/dev/null
sleep 1
check "a malformed keyring is an error naming the entry" \
    "$(as_app -c "SELECT idcrypt_encode(5, key_name => 'customers')" | sed -n 's/^ERROR:  //p')" \
    "idcodec.keyring is malformed: entry 2 has no '=' between a name and a key"
check "the server still runs, with the constant shown" "$(as_super -c "SHOW idcodec.keyring")" "(hidden)"

# STATEMENT lines are the failing statements above, which hold keys themselves (log_min_error_statement).
check "no key's hex is in the server's log (reloads, errors), but in statements that hold it" \
    "$(grep -v " STATEMENT: " "$log" | grep -ciE "$customers|$invoices|$orders" || true)" "0"
check "the log does have the reloads" "$(grep -c "received SIGHUP" "$log" || true)" "2"
echo "keyring: $failures failures"
[ "$failures" -eq 0 ]
