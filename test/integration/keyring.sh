#!/usr/bin/env bash
# The keyring: named FF1 keys in a file only the server's user can read, named by idcodec.keyring_file, on a cluster
# of its own (with pg_stat_statements, which keeps the text of every statement). A named key encrypts exactly as its
# bytes do; a second role (no superuser) uses the names and reads neither the keys nor the path; no SQL sets the
# keyring; SHOW, pg_stat_statements and the server's log only ever see the path; a reload reads the file again; a
# file others may read, or a malformed one, is refused (naming the line, quoting nothing) and the keys read before
# stay, and the server's log names it, at a reload, at start and when a backend loads idcodec (no client is told the
# path); a named key in a parallel worker is an error that says so; the keyring works without preloading too. A
# client asking for another keyring file (-c in PGOPTIONS or options=) is refused at connection where idcodec is
# preloaded, and elsewhere warned while its session keeps the configured keyring, as with a database's setting; ALTER
# SYSTEM sets the file as the docs say on every major (LOAD 'idcodec' first, which 15 and 16 need).
source "$(dirname "$0")/../lib/suite.sh"
source test/lib/cluster.sh
customers=2b7e151628aed2a6abf7158809cf4f3c
invoices=000102030405060708090a0b0c0d0e0f1011121314151617
orders=c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00
port=$(free_port)
cluster_init keys
data="$CLUSTERS/keys"
keys="$data/idcodec.keys"
# write_keys MODE TEXT: the keyring file, as the server's user
write_keys() { as_postgres sh -c "umask 077; printf '%s\n' \"\$1\" > '$keys' && chmod $1 '$keys'" sh "$2"; }
write_keys 600 "# idcodec's keys
customers = $customers
invoices=$invoices   # since 2026"
# relative to the data directory, as PostgreSQL's own file settings
as_postgres sh -c "echo \"idcodec.keyring_file = 'idcodec.keys'\" >> '$data/postgresql.conf'"
cluster_run keys "$port" "shared_preload_libraries=idcodec,pg_stat_statements" "pg_stat_statements.track=all"
log=$(cluster_log keys)

as_super() { cluster_psql "$port" -d postgres "$@" 2>&1 || true; }
as_app() { psql -X -q -At -h "$CLUSTERS" -p "$port" -U idcodec_app -d postgres "$@" 2>&1 || true; }
# as_app_with OPTIONS [psql arguments]: as the second role, asking for OPTIONS in the connection string (options=)
as_app_with() { psql -X -q -At -h "$CLUSTERS" -p "$port" -U idcodec_app -d "dbname=postgres options='$1'" "${@:2}" 2>&1 || true; }
sqlstate() { psql -X -q -At -h "$CLUSTERS" -p "$port" -U "$1" -d postgres -v VERBOSITY=verbose -c "$2" 2>&1 |
    sed -nE 's/^ERROR:  ([0-9A-Z]{5}): .*/\1/p' | head -n 1; }
reload() { cluster_reload "$port"; }

version_num=$(as_super -c "SHOW server_version_num")
as_super -c "CREATE EXTENSION idcodec" -c "CREATE EXTENSION pg_stat_statements" \
    -c "CREATE ROLE idcodec_app LOGIN NOSUPERUSER" -c "GRANT CREATE ON SCHEMA public TO idcodec_app" \
    -c "GRANT pg_read_all_stats TO idcodec_app" >/dev/null

check "a named key encrypts as its bytes do" \
    "$(as_super -c "SELECT idcrypt_encode(42, key_name => 'customers') = idcrypt_encode(42, '\\x$customers'::bytea)
                       AND idcrypt_encode(42, 'invoices', 'invoice') = idcrypt_encode(42, '\\x$invoices'::bytea, 'invoice')")" "t"
check "and decodes" "$(as_super -c "SELECT idcrypt_decode(idcrypt_encode(7, '\\x$customers'::bytea, 't'), key_name => 'customers', tweak => 't')")" "7"
check "a superuser's SHOW gives the path" "$(as_super -c "SHOW idcodec.keyring_file")" "idcodec.keys"

check "the second role is no superuser and not in pg_read_all_settings (but reads all statistics)" \
    "$(as_app -c "SELECT rolsuper OR pg_has_role('pg_read_all_settings', 'member'), pg_has_role('pg_read_all_stats', 'member')
                  FROM pg_roles WHERE rolname = current_user")" "f|t"
check "it uses the named keys" \
    "$(as_app -c "SELECT idcrypt_encode(42, key_name => 'customers') = '$(as_super -c "SELECT idcrypt_encode(42, '\\x$customers'::bytea)")'")" "t"
check "SHOW is refused to it" "$(sqlstate idcodec_app "SHOW idcodec.keyring_file")" "42501"
check "pg_settings does not list it" "$(as_app -c "SELECT count(*) FROM pg_settings WHERE name LIKE 'idcodec.keyring%'")" "0"
check "it cannot SET it" "$(sqlstate idcodec_app "SET idcodec.keyring_file = '/tmp/mine'")" "55P02"
check "it cannot ALTER SYSTEM it" "$(sqlstate idcodec_app "ALTER SYSTEM SET idcodec.keyring_file = '/tmp/mine'")" "42501"
# (17 and later check a name ALTER SYSTEM does not know against the prefixes modules reserve)
check "keys inline (idcodec 1.2.0's idcodec.keyring) are no setting any more, even for a superuser" \
    "$(sqlstate postgres "ALTER SYSTEM SET idcodec.keyring = 'x=$customers'")" "$([ "$version_num" -lt 170000 ] && echo 42704 || echo 42602)"
loaded=$(as_super -c "SELECT pg_conf_load_time()")
check "ALTER SYSTEM of the path works for a superuser, and checks the file" \
    "$(as_super -c "ALTER SYSTEM SET idcodec.keyring_file = '$keys'" -c "SELECT pg_reload_conf()")" "t"
cluster_await_reload "$port" "$loaded"
check "the statistics every pg_read_all_stats member reads hold no key, only the path" \
    "$(as_app -c "SELECT count(*) FILTER (WHERE query ~* '$customers|$invoices'),
                         count(*) FILTER (WHERE query ~ 'ALTER SYSTEM SET idcodec.keyring_file')
                  FROM pg_stat_statements")" "0|1"

as_app -c "CREATE TABLE app_customer (id bigint PRIMARY KEY,
             public_id text GENERATED ALWAYS AS (idcrypt_encode(id, key_name => 'customers', tweak => 'customer')) STORED UNIQUE)" \
       -c "INSERT INTO app_customer SELECT generate_series(1, 1000)" >/dev/null
check "its generated column holds encrypted IDs that decode" \
    "$(as_app -c "SELECT count(*) FROM app_customer WHERE idcrypt_decode(public_id, key_name => 'customers', tweak => 'customer') = id")" "1000"
check "and the catalog holds the key's name, not the key" \
    "$(as_app -c "SELECT pg_get_expr(adbin, adrelid) ~ 'customers' AND pg_get_expr(adbin, adrelid) !~ '$customers' FROM pg_attrdef WHERE adrelid = 'app_customer'::regclass")" "t"

# The named forms run in the leader of a parallel plan (PARALLEL RESTRICTED), above a Gather whose workers scan the
# table, and give the same answers; wrapped in a function declared PARALLEL SAFE, they would run in a worker, and
# there they refuse with a message that says why.
as_app -c "INSERT INTO app_customer SELECT generate_series(1001, 200000)" -c "ANALYZE app_customer" >/dev/null
parallel="SET max_parallel_workers_per_gather = 2; SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0;
          SET min_parallel_table_scan_size = 0;"
query="SELECT count(*) FILTER (WHERE idcrypt_decode(public_id, 'customers', 'customer') = id) FROM app_customer"
check "a parallel plan with a named key has a Gather" \
    "$(as_app -c "$parallel EXPLAIN (COSTS OFF) $query" | grep -c "Gather")" "1"
check "and answers as a serial one" "$(as_app -c "$parallel $query")" "200000"
as_app -c "CREATE FUNCTION wrongly_safe(code text) RETURNS bigint LANGUAGE plpgsql PARALLEL SAFE
           SET search_path = pg_catalog, public, pg_temp AS \$\$ BEGIN RETURN idcrypt_decode(code, 'customers', 'customer'); END \$\$" >/dev/null
check "in a parallel worker, a named key is an error that says so" \
    "$(as_app -c "$parallel SELECT count(*) FROM app_customer WHERE wrongly_safe(public_id) = id" | sed -n 's/^ERROR:  //p' | head -n 1)" \
    "idcodec named keys cannot be used in a parallel worker"

check "a missing name is an error (42704)" "$(sqlstate idcodec_app "SELECT idcrypt_encode(1, key_name => 'orders')")" "42704"
check "a key passed where a name belongs is refused (22023)" \
    "$(sqlstate idcodec_app "SELECT idcrypt_encode(1, key_name => '\\x$customers')")" "22023"
check "neither error quotes what it was given" \
    "$(as_app -c "SELECT idcrypt_encode(1, key_name => 'orders')" -c "SELECT idcrypt_encode(1, key_name => '\\x$customers')" | grep -c "orders\|$customers")" "0"

write_keys 600 "customers=$customers, invoices=$invoices
orders = $orders"
reload
check "a reload reads the file again: a new name" \
    "$(as_app -c "SELECT idcrypt_encode(5, key_name => 'orders') = idcrypt_encode(5, '\\x$orders'::bytea)")" "t"
check "and the others stay" "$(as_app -c "SELECT count(*) FROM app_customer WHERE idcrypt_decode(public_id, 'customers', 'customer') = id")" "200000"

write_keys 644 "customers=$customers"
reload
check "a file others may read is refused on reload, in the log" \
    "$(grep -c 'the file named in idcodec.keyring_file cannot be used' "$log")" "1"
check "the log says why (in the refusal and in the line naming the file)" "$(grep -c 'It has group or world access' "$log")" "2"
named_in_log="idcodec cannot use the keyring file \"$keys\""
check "and names the file" "$(grep -cF "$named_in_log" "$log")" "1"
check "and the keys read before stay" "$(as_app -c "SELECT idcrypt_encode(5, key_name => 'orders') = idcrypt_encode(5, '\\x$orders'::bytea)")" "t"
check "parallel queries still run (a worker does not read the file)" \
    "$(as_app -c "$parallel SELECT count(*) FROM app_customer WHERE id > 0")" "200000"
check "and a new session has the keys read before too (the server's own, from its last good reading)" \
    "$(as_app -c "SELECT idcrypt_encode(5, key_name => 'orders') = idcrypt_encode(5, '\\x$orders'::bytea)")" "t"

write_keys 600 "customers=$customers
broken"
reload
check "a malformed file is refused on reload, naming the line (in the refusal and in the line naming the file)" \
    "$(grep -c "The file is malformed: line 2 has no '=' between a name and a key" "$log")" "2"

# A client asking for a keyring file of its own, where idcodec is preloaded: the setting is defined before the client
# connects, and the connection is refused.
check "where idcodec is preloaded, a client's -c idcodec.keyring_file (PGOPTIONS) refuses the connection" \
    "$(PGOPTIONS="-c idcodec.keyring_file=/tmp/mine" as_app -c "SELECT 1" | grep -o 'FATAL: .*')" \
    'FATAL:  parameter "idcodec.keyring_file" cannot be changed now'
check "and so does options= in the connection string" \
    "$(as_app_with "-c idcodec.keyring_file=/tmp/mine" -c "SELECT 1" | grep -o 'FATAL: .*')" \
    'FATAL:  parameter "idcodec.keyring_file" cannot be changed now'

# Bad from the start (the malformed file, at a restart): the log names the file, which the error of a named key
# sends an administrator to, and the client is not told the path.
cluster_stop keys
cluster_run keys "$port" "shared_preload_libraries=idcodec,pg_stat_statements" "pg_stat_statements.track=all"
check "a file bad from the start: the server's log names it" "$(grep -cF "$named_in_log" "$log")" "3"
check "a named key is then an error (F0000)" "$(sqlstate idcodec_app "SELECT idcrypt_encode(1, key_name => 'customers')")" "F0000"
check "whose hint sends to the log, which has both the file and why" \
    "$(as_app -c "SELECT idcrypt_encode(1, key_name => 'customers')" | sed -n 's/^HINT:  //p')" \
    "The server's log names the file and says why; fix it and reload the configuration."
check "and the client is not told the path" \
    "$(as_app -c "SELECT idcrypt_encode(1, key_name => 'customers')" | grep -cF "$keys")" "0"
write_keys 600 "customers=$customers, invoices=$invoices
orders = $orders"
reload
check "once fixed, a reload brings the keys" \
    "$(as_app -c "SELECT idcrypt_encode(5, key_name => 'orders') = idcrypt_encode(5, '\\x$orders'::bytea)")" "t"

as_super -c "ALTER SYSTEM SET idcodec.keyring_file = ''" >/dev/null
reload
check "with no file set, a named key is an error (55000) that says what to do" \
    "$(sqlstate idcodec_app "SELECT idcrypt_encode(1, key_name => 'customers')") $(as_app -c "SELECT idcrypt_encode(1, key_name => 'customers')" | sed -n 's/^ERROR:  //p')" \
    "55000 no idcodec keyring file is set"

# Without preloading, each backend reads the file when it loads idcodec.
write_keys 600 "customers = $customers"
as_super -c "ALTER SYSTEM SET idcodec.keyring_file = '$keys'" -c "ALTER SYSTEM SET shared_preload_libraries = ''" >/dev/null
cluster_stop keys
cluster_run keys "$port" "shared_preload_libraries="
check "without preloading, the named keys work" \
    "$(as_app -c "SELECT count(*) FROM app_customer WHERE idcrypt_decode(public_id, 'customers', 'customer') = id")" "200000"
# (a session that has not loaded idcodec yet holds the setting as a placeholder, which any role may SHOW: the path)
check "a session that has not loaded idcodec shows any role at most the path" \
    "$(as_app -c "SHOW idcodec.keyring_file")" "$keys"
check "once loaded, SHOW is refused to the second role again" \
    "$(sqlstate idcodec_app "SELECT idcrypt_encode(1, key_name => 'customers') IS NOT NULL; SHOW idcodec.keyring_file")" "42501"

# Without preloading, a value the client asks for reaches the session before idcodec does, as a placeholder that
# replaces the configuration's; loading idcodec refuses it with a warning, and the session keeps the server's
# keyring. A file of the client's own choosing is never read.
as_postgres sh -c "umask 077; printf 'customers = %s\n' '$orders' > '$data/other.keys'"
named="SELECT idcrypt_encode(5, key_name => 'customers') = idcrypt_encode(5, '\\x$customers'::bytea)"
refused='WARNING:  parameter "idcodec.keyring_file" cannot be changed now'
got=$(PGOPTIONS="-c idcodec.keyring_file=$data/other.keys" as_app -c "$named")
check "without preloading, a client's -c idcodec.keyring_file (PGOPTIONS) is refused with a warning" \
    "$(grep -cF "$refused" <<<"$got")" "1"
check "and its session keeps the configured keyring" "$(tail -n 1 <<<"$got")" "t"
check "so does one asking in options= of the connection string" \
    "$(as_app_with "-c idcodec.keyring_file=$data/other.keys" -c "$named" | tail -n 1)" "t"
check "or for no keyring file at all" \
    "$(PGOPTIONS="-c idcodec.keyring_file=" as_app -c "$named" | tail -n 1)" "t"
check "a superuser's client too: SHOW gives the configured file once idcodec is loaded" \
    "$(PGOPTIONS="-c idcodec.keyring_file=$data/other.keys" as_super -c "$named" -c "SHOW idcodec.keyring_file" | tail -n 2 | tr '\n' ' ')" \
    "t $keys "
check "a SET before idcodec is loaded is refused, and the keyring stays" \
    "$(as_app -c "SET idcodec.keyring_file = '$data/other.keys'" -c "$named" | tail -n 1)" "t"
as_super -c "ALTER DATABASE postgres SET idcodec.keyring_file = '$data/other.keys'" >/dev/null
check "a superuser's ALTER DATABASE SET (taken in a session without idcodec) is refused, and the keyring stays" \
    "$(as_app -c "$named" | tail -n 1)" "t"
as_super -c "ALTER DATABASE postgres RESET idcodec.keyring_file" >/dev/null

# A file refused when a backend loads idcodec: that backend's log line names it, its client gets the reason only.
write_keys 644 "customers=$customers"
before=$(grep -cF "$named_in_log" "$log" || true)
got=$(as_app -c "SELECT idcrypt_encode(1, key_name => 'customers')")
check "without preloading, a file refused at load is an error (F0000) whose hint sends to the log" \
    "$(sed -n 's/^HINT:  //p' <<<"$got")" "The server's log names the file and says why; fix it and reload the configuration."
check "the client is told why (in the warning of the load and in the error), not the path" \
    "$(grep -c 'DETAIL:  It has group or world access' <<<"$got") $(grep -cF "$keys" <<<"$got")" "2 0"
check "the loading backend's log line names the file" "$(($(grep -cF "$named_in_log" "$log") - before))" "1"
write_keys 600 "customers = $customers"

# ALTER SYSTEM in a session that has not loaded idcodec, on a server whose configuration does not set the file
# (so not even a placeholder): 15 and 16 know a module's setting only once it is loaded there, 17 and later accept
# it. The docs' procedure, LOAD 'idcodec' first, works on each.
as_super -c "LOAD 'idcodec'" -c "ALTER SYSTEM RESET idcodec.keyring_file" >/dev/null
as_postgres sed -i '/^idcodec.keyring_file/d' "$data/postgresql.conf"
cluster_stop keys
cluster_run keys "$port" "shared_preload_libraries="
check "a session without idcodec: ALTER SYSTEM of the file $([ "$version_num" -lt 170000 ] && echo "fails (before 17)" || echo "works (17 and later)")" \
    "$(sqlstate postgres "ALTER SYSTEM SET idcodec.keyring_file = '$keys'")" "$([ "$version_num" -lt 170000 ] && echo 42704)"
loaded=$(as_super -c "SELECT pg_conf_load_time()")
check "the docs' procedure (LOAD 'idcodec', ALTER SYSTEM, reload) works" \
    "$(as_super -c "LOAD 'idcodec'" -c "ALTER SYSTEM SET idcodec.keyring_file = '$keys'" -c "SELECT pg_reload_conf()")" "t"
cluster_await_reload "$port" "$loaded"
check "and a new session has the keys" "$(as_app -c "$named")" "t"

# STATEMENT lines are the failing statements above, which hold keys themselves (log_min_error_statement).
check "no key's hex is in the server's log (reloads, refusals, errors), but in statements that hold it" \
    "$(grep -v " STATEMENT: " "$log" | grep -ciE "$customers|$invoices|$orders" || true)" "0"
check "the log does have the reloads" "$(grep -c "received SIGHUP" "$log" || true)" "7"
tap_done
