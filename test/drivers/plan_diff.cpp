// Differential query test of idcodec's types: every operator of the extensions, in the query shapes users write,
// under a matrix of planner settings, must give the answer PostgreSQL's own types give to the same question.
//
// Each value is stored twice in a row: as an idcodec type (column v) and as its reference in a built-in type
// (column r): a ulid as the uuid of the same bytes; a typeid as a bytea that sorts as a typeid does (the prefix's
// bytes, a zero byte, which no prefix holds and which sorts before every letter, so a shorter prefix comes before a
// longer one it begins, then the UUID's 16 bytes); a uuid, the partner of ulid's cross-type operators, as itself. A
// query is written once and rendered twice: over v with idcodec's operator, its literals and parameters as idcodec's
// types, and over r with pg_catalog's operator of the reference types. The reference runs with default settings;
// the idcodec query runs under every setting of the matrix; any error or any difference fails.
//
// What is tested comes from the catalog: every operator the extensions own (its reference is pg_catalog's operator
// of the same name between the reference types; an operator without one, or of a type the test has no model of,
// is a failure, so a new operator or type cannot go unnoticed), every operator class they own (amvalidate must
// hold, and each gets an index on the tables the queries read).
//
//   plan_diff CONNINFO [--seed N] [--rounds N] [--cases N] [--show N] [--plans-without CONNINFO]
//
//   --seed N     the generator's seed (default 1); printed with every failure, so a run can be repeated
//   --rounds N   how many times each shape is generated per operator and type, with new constants (default 1)
//   --cases N    about N cases: every query runs, each under a share of the settings (a different share per
//                query and seed) so that the cases are about N (default: each under every setting)
//   --show N     how many failures are shown in full (default 10)
//   --plans-without CONNINFO   also: the reference queries (plain uuid and bytea ones, prepared ones with custom
//                and generic plans) must have the same plans, as EXPLAIN (COSTS OFF) shows them under the settings
//                they run under, in a database of the same server without idcodec as in CONNINFO's database with it
//                (idcodec's schema on the search path)
//
// Prints one summary line; exit status 0 when every case passed, 1 when one failed, 2 on a usage or setup error.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <libpq-fe.h>
#include <map>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "drivers/libpq.hpp"

namespace {

using idcodec_test::Connection;
using idcodec_test::exec;
using idcodec_test::Result;
using idcodec_test::succeeded;

// ---- libpq

std::string error_of(const PGresult* result) {
    const char* state = PQresultErrorField(result, PG_DIAG_SQLSTATE);
    const char* message = PQresultErrorField(result, PG_DIAG_MESSAGE_PRIMARY);
    return std::string(state ? state : "?????") + " " + (message ? message : PQresultErrorMessage(result));
}

// A statement of the setup, which must succeed.
Result must(PGconn* connection, const std::string& sql) {
    Result result = exec(connection, sql);
    if (!succeeded(result.get())) throw std::runtime_error(error_of(result.get()) + "\n    in: " + sql.substr(0, 300));
    return result;
}

std::string single(PGconn* connection, const std::string& sql) {
    const Result result = must(connection, sql);
    return PQntuples(result.get()) > 0 ? PQgetvalue(result.get(), 0, 0) : "";
}

// The rows of a result, fields separated by '|' (NULL as \N).
std::vector<std::string> rows_of(const PGresult* result) {
    std::vector<std::string> rows;
    for (int row = 0; row < PQntuples(result); ++row) {
        std::string line;
        for (int field = 0; field < PQnfields(result); ++field) {
            if (field > 0) line += '|';
            line += PQgetisnull(result, row, field) ? "\\N" : PQgetvalue(result, row, field);
        }
        rows.push_back(std::move(line));
    }
    return rows;
}

// ---- values

using Uuid = std::array<std::uint8_t, 16>;

// A value of one of the two domains: a UUID's bytes (ulid and uuid), or a TypeID's prefix and UUID.
struct Value {
    bool null = false;
    std::string prefix;
    Uuid uuid{};
};

std::string hex(const std::string& bytes) {
    static const char digits[] = "0123456789abcdef";
    std::string out;
    for (const unsigned char byte : bytes) {
        out += digits[byte >> 4];
        out += digits[byte & 15];
    }
    return out;
}

std::string uuid_text(const Uuid& uuid) {
    const std::string digits = hex(std::string(uuid.begin(), uuid.end()));
    return digits.substr(0, 8) + "-" + digits.substr(8, 4) + "-" + digits.substr(12, 4) + "-" + digits.substr(16, 4) +
           "-" + digits.substr(20);
}

// The 128 bits as 26 Crockford base32 digits, most significant first (the first digit holds 3 bits): the text of a
// ULID (upper case) and of a TypeID's suffix (lower case). Written here from the specifications, independently of
// the extension's codec, so the literals the queries use are not the extension's own output.
std::string base32(const Uuid& uuid, bool upper) {
    const char* alphabet = upper ? "0123456789ABCDEFGHJKMNPQRSTVWXYZ" : "0123456789abcdefghjkmnpqrstvwxyz";
    std::string out(26, '0');
    for (int digit = 25, bit = 0; digit >= 0; --digit, bit += 5) {
        int value = 0;
        for (int i = 0; i < 5; ++i) {
            const int position = bit + i;  // from the least significant bit
            if (position >= 128) break;
            const int byte = 15 - position / 8;
            value |= ((uuid[static_cast<std::size_t>(byte)] >> (position % 8)) & 1) << i;
        }
        out[static_cast<std::size_t>(digit)] = alphabet[value];
    }
    return out;
}

// The bytes a reference value sorts by (also the bytea of a typeid's reference).
std::string reference_key(const Value& value) {
    return value.prefix + std::string(1, '\0') + std::string(value.uuid.begin(), value.uuid.end());
}

// ---- the types the test knows

enum class Domain { uuid, type_id };

struct TypeModel {
    std::string key;        // table names: d_<key>, e_<key>, ph_<key>, pr_<key>
    std::string sql_type;   // the type as queries name it
    std::string reference;  // its reference type
    Domain domain;
    bool extension_type;  // an idcodec type (the type shapes run on these)
    std::string oid;
    std::string reference_oid;
    bool has_min_max = false;  // min and max aggregates (from the catalog)
    std::string array_oid;
    std::string reference_array_oid;
    bool casts_to_reference = false;  // a binary-coercible cast to the reference type (from the catalog)
};

struct OperatorModel {
    std::string signature;  // regoperator text, for messages
    std::string name;
    const TypeModel* left;
    const TypeModel* right;
};

// One side of the comparison: the idcodec query or the reference query.
struct Side {
    bool reference;
    std::string schema;    // idcodec's schema
    std::mt19937_64* rng;  // the idcodec side varies the text of its literals (ULID or UUID text for a ulid)

    std::string column() const { return reference ? "r" : "v"; }
    Side as_reference() const { return Side{true, schema, rng}; }
    std::string type(const TypeModel& model) const { return reference ? model.reference : model.sql_type; }
    std::string op(const OperatorModel& op) const {
        return "OPERATOR(" + (reference ? std::string("pg_catalog") : schema) + "." + op.name + ")";
    }
    // The partitioned tables are read by the idcodec query; the reference reads the plain table with the same rows.
    std::string table(const std::string& kind, const TypeModel& model) const {
        return (reference && kind != "e" ? "d" : kind) + "_" + model.key;
    }

    // The text of a value as a parameter or inside a literal.
    std::string text(const TypeModel& model, const Value& value) const {
        if (model.domain == Domain::type_id) {
            if (reference) return "\\x" + hex(reference_key(value));
            return value.prefix.empty() ? base32(value.uuid, false) : value.prefix + "_" + base32(value.uuid, false);
        }
        if (!reference && model.key == "ulid" && (*rng)() % 2 == 0) return base32(value.uuid, true);
        return uuid_text(value.uuid);
    }

    // An array's text, as a driver sends a list in one parameter.
    std::string array_text(const TypeModel& model, const std::vector<Value>& values) const {
        std::string out = "{";
        for (std::size_t i = 0; i < values.size(); ++i) {
            if (i) out += ",";
            if (values[i].null) {
                out += "NULL";
                continue;
            }
            out += '"';
            for (const char c : text(model, values[i])) {
                if (c == '"' || c == '\\') out += '\\';
                out += c;
            }
            out += '"';
        }
        return out + "}";
    }

    std::string literal(const TypeModel& model, const Value& value) const {
        if (value.null) return "NULL::" + type(model);
        return "'" + text(model, value) + "'::" + type(model);
    }
};

// The query of one case, rendered for each side.
struct Query {
    std::string label;
    bool ordered = false;  // the order of the rows is part of the answer
    std::string sql[2];    // [0] idcodec, [1] reference
    // prepared queries: the parameters' type OIDs per side, their values and the type they are of
    bool prepared = false;
    std::vector<std::string> parameter_types[2];
    std::vector<Value> parameters;
    const TypeModel* parameter_model = nullptr;
    bool array_parameter = false;  // the parameters go as one array ($1), as drivers send a list
};

// ---- the planner settings

struct Setting {
    std::string name;
    std::string sql;
};

std::vector<Setting> settings_matrix(int server_version) {
    const std::string force_parallel =
        server_version >= 160000 ? "SET debug_parallel_query = on;" : "SET force_parallel_mode = on;";
    return {
        {"default", ""},
        {"index scans", "SET enable_seqscan = off; SET enable_bitmapscan = off;"},
        {"bitmap scans", "SET enable_seqscan = off; SET enable_indexscan = off; SET enable_indexonlyscan = off;"},
        {"sequential scans",
         "SET enable_indexscan = off; SET enable_indexonlyscan = off; SET enable_bitmapscan = off;"},
        {"nested loops", "SET enable_hashjoin = off; SET enable_mergejoin = off;"},
        {"merge joins", "SET enable_hashjoin = off; SET enable_nestloop = off;"},
        {"hash joins", "SET enable_mergejoin = off; SET enable_nestloop = off;"},
        {"sorted grouping", "SET enable_hashagg = off;"},
        {"hashed grouping and no sorts", "SET enable_sort = off;"},
        {"no memoize, no material", "SET enable_memoize = off; SET enable_material = off;"},
        {"parallel",
         "SET max_parallel_workers_per_gather = 2; SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0;"
         "SET min_parallel_table_scan_size = 0; SET min_parallel_index_scan_size = 0;" +
             force_parallel},
        // where the server has JIT (its expressions compiled, without inlining or optimization, which cost time
        // and change no result); elsewhere the same as the default
        {"JIT",
         "SET jit = on; SET jit_above_cost = 0; SET jit_inline_above_cost = -1; SET jit_optimize_above_cost = -1;"},
        {"no partition pruning, partitionwise",
         "SET enable_partition_pruning = off; SET enable_partitionwise_join = on;"
         "SET enable_partitionwise_aggregate = on;"},
    };
}

// ---- the data

struct Pools {
    std::vector<Value> uuids;  // in the tables (d_ reads the first 36, e_ the last 36)
    std::vector<Value> typeids;
    std::vector<Value> uuid_absent;  // never stored
    std::vector<Value> typeid_absent;
};

Uuid random_uuid(std::mt19937_64& rng) {
    Uuid uuid;
    for (auto& byte : uuid) byte = static_cast<std::uint8_t>(rng());
    return uuid;
}

Pools make_pools(std::mt19937_64& rng) {
    Pools pools;
    // the extremes, and neighbours that differ only in their last or first byte
    Uuid zero{}, ones, low{}, high{}, near = random_uuid(rng);
    ones.fill(0xff);
    low[15] = 1;
    high[0] = 0x80;
    for (const Uuid& uuid : {zero, ones, low, high, near}) pools.uuids.push_back({false, "", uuid});
    Uuid next = near;
    next[15] ^= 1;
    pools.uuids.push_back({false, "", next});
    next = near;
    next[0] ^= 0x80;
    pools.uuids.push_back({false, "", next});
    // version 7 UUIDs of nearby milliseconds, as generated keys are
    while (pools.uuids.size() < 48) {
        Uuid uuid = random_uuid(rng);
        uuid[0] = 0x01;
        uuid[1] = 0x9a;
        uuid[6] = static_cast<std::uint8_t>(0x70 | (uuid[6] & 0x0f));
        uuid[8] = static_cast<std::uint8_t>(0x80 | (uuid[8] & 0x3f));
        pools.uuids.push_back({false, "", uuid});
    }
    std::shuffle(pools.uuids.begin(), pools.uuids.end(), rng);
    for (int i = 0; i < 6; ++i) pools.uuid_absent.push_back({false, "", random_uuid(rng)});
    // prefixes: none, one that begins another, the longest (63 letters), underscores
    const std::vector<std::string> prefixes = {"", "a", "ab", "abc", "b", "user", "user_account", std::string(63, 'z')};
    for (int i = 0; i < 48; ++i) {
        const Value& uuid = pools.uuids[rng() % 16];  // few UUIDs, so prefixes decide many comparisons
        pools.typeids.push_back({false, prefixes[rng() % prefixes.size()], uuid.uuid});
    }
    for (int i = 0; i < 6; ++i)
        pools.typeid_absent.push_back({false, prefixes[rng() % prefixes.size()], random_uuid(rng)});
    return pools;
}

const std::vector<Value>& stored(const Pools& pools, const TypeModel& model) {
    return model.domain == Domain::type_id ? pools.typeids : pools.uuids;
}
const std::vector<Value>& absent(const Pools& pools, const TypeModel& model) {
    return model.domain == Domain::type_id ? pools.typeid_absent : pools.uuid_absent;
}

// A constant for a query: mostly a stored value, sometimes one never stored, sometimes NULL.
Value pick(const Pools& pools, const TypeModel& model, std::mt19937_64& rng) {
    const unsigned roll = rng() % 20;
    if (roll == 0) return Value{true, "", {}};
    if (roll <= 4) return absent(pools, model)[rng() % absent(pools, model).size()];
    return stored(pools, model)[rng() % stored(pools, model).size()];
}

// ---- the catalog

struct Catalog {
    std::string schema;
    int server_version = 0;
    std::vector<std::unique_ptr<TypeModel>> types;
    std::vector<OperatorModel> operators;
    struct OperatorClass {
        std::string name, method, type_oid;
    };
    std::vector<OperatorClass> classes;
    std::vector<std::string> problems;  // what the catalog holds that the test cannot check: failures

    const TypeModel* model_of(const std::string& oid) const {
        for (const auto& type : types)
            if (type->oid == oid) return type.get();
        return nullptr;
    }
};

const char* const owned_by_extensions = R"(
    JOIN pg_catalog.pg_depend d ON d.objid = x.oid AND d.deptype = 'e'
    JOIN pg_catalog.pg_extension e ON e.oid = d.refobjid AND e.extname IN ('idcodec', 'idcodec_pg_hashids'))";

Catalog read_catalog(PGconn* connection) {
    Catalog catalog;
    catalog.schema = single(connection,
                            "SELECT pg_catalog.quote_ident(n.nspname) FROM pg_catalog.pg_extension e "
                            "JOIN pg_catalog.pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'idcodec'");
    if (catalog.schema.empty()) throw std::runtime_error("idcodec is not installed in this database");
    catalog.server_version = std::atoi(single(connection, "SHOW server_version_num").c_str());
    const auto add = [&](std::string key, std::string type, std::string reference, Domain domain, bool extension_type) {
        auto model = std::make_unique<TypeModel>(
            TypeModel{key, type, reference, domain, extension_type, "", "", false, "", "", false});
        model->oid = single(connection, "SELECT '" + type + "'::regtype::oid");
        model->reference_oid = single(connection, "SELECT '" + reference + "'::regtype::oid");
        model->has_min_max = single(connection,
                                    "SELECT count(*) FROM pg_catalog.pg_aggregate a JOIN pg_catalog.pg_proc p ON "
                                    "p.oid = a.aggfnoid WHERE p.proname IN ('min', 'max') AND p.pronargs = 1 AND "
                                    "p.proargtypes[0] = " +
                                        model->oid) == "2";
        model->array_oid = single(connection, "SELECT typarray FROM pg_catalog.pg_type WHERE oid = " + model->oid);
        model->reference_array_oid =
            single(connection, "SELECT typarray FROM pg_catalog.pg_type WHERE oid = " + model->reference_oid);
        model->casts_to_reference =
            model->oid != model->reference_oid &&
            single(connection, "SELECT count(*) FROM pg_catalog.pg_cast WHERE castmethod = 'b' AND castsource = " +
                                   model->oid + " AND casttarget = " + model->reference_oid) == "1";
        catalog.types.push_back(std::move(model));
    };
    add("ulid", catalog.schema + ".ulid", "uuid", Domain::uuid, true);
    add("typeid", catalog.schema + ".typeid", "bytea", Domain::type_id, true);
    add("uuid", "uuid", "uuid", Domain::uuid, false);

    // every base type of the extensions must have a model above (their array types, members too from PostgreSQL 18
    // on, are arrays of these)
    Result result =
        must(connection, std::string("SELECT x.oid, x.oid::regtype FROM pg_catalog.pg_type x") + owned_by_extensions +
                             " AND d.classid = 'pg_type'::regclass "
                             "WHERE x.typtype = 'b' AND x.typcategory <> 'A' ORDER BY 1");
    for (int row = 0; row < PQntuples(result.get()); ++row)
        if (!catalog.model_of(PQgetvalue(result.get(), row, 0)))
            catalog.problems.push_back(std::string("type ") + PQgetvalue(result.get(), row, 1) +
                                       " has no model in the differential test (test/drivers/plan_diff.cpp)");

    result = must(connection, std::string("SELECT x.oid::regoperator, x.oprname, x.oprleft, x.oprright, "
                                          "x.oprresult = 'boolean'::regtype FROM pg_catalog.pg_operator x") +
                                  owned_by_extensions +
                                  " AND d.classid = 'pg_operator'::regclass ORDER BY 1::text COLLATE \"C\"");
    for (int row = 0; row < PQntuples(result.get()); ++row) {
        const std::string signature = PQgetvalue(result.get(), row, 0);
        const TypeModel* left = catalog.model_of(PQgetvalue(result.get(), row, 2));
        const TypeModel* right = catalog.model_of(PQgetvalue(result.get(), row, 3));
        if (!left || !right) {
            catalog.problems.push_back("operator " + signature + " has a type the differential test has no model of");
            continue;
        }
        if (std::string(PQgetvalue(result.get(), row, 4)) != "t") {
            catalog.problems.push_back("operator " + signature + " does not return boolean: no shape tests it");
            continue;
        }
        catalog.operators.push_back({signature, PQgetvalue(result.get(), row, 1), left, right});
    }
    // the reference operators must exist (checked here, with the models' reference types)
    for (const OperatorModel& op : catalog.operators) {
        const std::string reference =
            "pg_catalog." + op.name + "(" + op.left->reference + "," + op.right->reference + ")";
        if (single(connection, "SELECT pg_catalog.to_regoperator('" + reference + "') IS NOT NULL") != "t")
            catalog.problems.push_back("operator " + op.signature + " has no reference operator " + reference);
    }

    result =
        must(connection, std::string("SELECT x.opcname, a.amname, x.opcintype, pg_catalog.amvalidate(x.oid) "
                                     "FROM pg_catalog.pg_opclass x JOIN pg_catalog.pg_am a ON a.oid = x.opcmethod") +
                             owned_by_extensions + " AND d.classid = 'pg_opclass'::regclass ORDER BY 1");
    for (int row = 0; row < PQntuples(result.get()); ++row) {
        const std::string name = PQgetvalue(result.get(), row, 0);
        if (std::string(PQgetvalue(result.get(), row, 3)) != "t")
            catalog.problems.push_back("operator class " + name + " fails amvalidate");
        if (!catalog.model_of(PQgetvalue(result.get(), row, 2)))
            catalog.problems.push_back("operator class " + name + " is for a type without a model");
        catalog.classes.push_back({name, PQgetvalue(result.get(), row, 1), PQgetvalue(result.get(), row, 2)});
    }
    return catalog;
}

// ---- the tables

// Rows of d_<type> (from the first 36 stored values) and e_<type> (from the last 36), about one in twelve NULL.
std::vector<Value> rows_for(const Pools& pools, const TypeModel& model, bool first, int count, std::mt19937_64& rng) {
    const std::vector<Value>& values = stored(pools, model);
    std::vector<Value> rows;
    for (int i = 0; i < count; ++i) {
        if (rng() % 12 == 0) {
            rows.push_back(Value{true, "", {}});
            continue;
        }
        rows.push_back(values[(first ? 0 : 12) + rng() % 36]);
    }
    return rows;
}

// `reference_only`: tables of the reference columns alone, for comparing plans with a database without idcodec.
void create_tables(PGconn* connection, const Catalog& catalog, const Pools& pools, const std::string& schema,
                   bool reference_only, std::uint64_t seed) {
    std::mt19937_64 rng(seed * 7919 + 1);
    const Side test{false, catalog.schema, &rng}, reference{true, catalog.schema, &rng};
    must(connection, "SET client_min_messages = warning; DROP SCHEMA IF EXISTS " + schema + " CASCADE; CREATE SCHEMA " +
                         schema + "; SET search_path = " + schema + ", " + catalog.schema);
    for (const auto& model : catalog.types) {
        for (const std::string kind : {"d", "e"}) {
            const std::string table = kind + "_" + model->key;
            must(connection, "CREATE TABLE " + table + " (k int PRIMARY KEY" +
                                 (reference_only ? "" : ", v " + model->sql_type) + ", r " + model->reference + ")");
            const std::vector<Value> rows = rows_for(pools, *model, kind == "d", kind == "d" ? 240 : 120, rng);
            std::string insert = "INSERT INTO " + table + " VALUES ";
            for (std::size_t i = 0; i < rows.size(); ++i) {
                insert += (i ? ", (" : "(") + std::to_string(i + 1) + ", ";
                if (!reference_only) insert += test.literal(*model, rows[i]) + ", ";
                insert += reference.literal(*model, rows[i]) + ")";
            }
            must(connection, insert);
            must(connection, "CREATE INDEX ON " + table + " (r); CREATE INDEX ON " + table + " USING hash (r)");
            if (reference_only) continue;
            if (model->extension_type) {
                for (const auto& opclass : catalog.classes)
                    if (opclass.type_oid == model->oid)
                        must(connection, "CREATE INDEX ON " + table + " USING " + opclass.method + " (v " +
                                             catalog.schema + "." + opclass.name + ")");
            } else {
                must(connection, "CREATE INDEX ON " + table + " (v); CREATE INDEX ON " + table + " USING hash (v)");
            }
        }
        if (reference_only) continue;
        // the same rows as d_, hash partitioned and range partitioned by v
        const std::string d = "d_" + model->key, ph = "ph_" + model->key, pr = "pr_" + model->key;
        must(connection, "CREATE TABLE " + ph + " (k int, v " + model->sql_type + ", r " + model->reference +
                             ") PARTITION BY HASH (v)");
        for (int i = 0; i < 3; ++i)
            must(connection, "CREATE TABLE " + ph + "_" + std::to_string(i) + " PARTITION OF " + ph +
                                 " FOR VALUES WITH (MODULUS 3, REMAINDER " + std::to_string(i) + ")");
        std::vector<Value> bounds = stored(pools, *model);
        std::sort(bounds.begin(), bounds.end(),
                  [](const Value& a, const Value& b) { return reference_key(a) < reference_key(b); });
        const std::string low = test.literal(*model, bounds[bounds.size() / 3]);
        const std::string high = test.literal(*model, bounds[2 * bounds.size() / 3]);
        must(connection, "CREATE TABLE " + pr + " (k int, v " + model->sql_type + ", r " + model->reference +
                             ") PARTITION BY RANGE (v)");
        must(connection, "CREATE TABLE " + pr + "_0 PARTITION OF " + pr + " FOR VALUES FROM (MINVALUE) TO (" + low +
                             "); CREATE TABLE " + pr + "_1 PARTITION OF " + pr + " FOR VALUES FROM (" + low + ") TO (" +
                             high + "); CREATE TABLE " + pr + "_2 PARTITION OF " + pr + " FOR VALUES FROM (" + high +
                             ") TO (MAXVALUE); CREATE TABLE " + pr + "_null PARTITION OF " + pr + " DEFAULT");
        for (const std::string& table : {ph, pr})
            must(connection,
                 "INSERT INTO " + table + " SELECT k, v, r FROM " + d + "; CREATE INDEX ON " + table + " (v)");
    }
    must(connection, "VACUUM ANALYZE");
}

// ---- the queries

using Shape = std::function<std::string(const Side&)>;

struct Generator {
    const Catalog& catalog;
    const Pools& pools;
    std::mt19937_64 rng;
    std::vector<Query> queries;

    void add(const std::string& label, bool ordered, const Shape& shape) {
        Query query;
        query.label = label;
        query.ordered = ordered;
        // the reference is rendered first, so the idcodec side's choices of literal text never shift it
        std::mt19937_64 literal_rng(rng());
        const Side test{false, catalog.schema, &literal_rng}, reference{true, catalog.schema, &literal_rng};
        query.sql[1] = shape(reference);
        query.sql[0] = shape(test);
        queries.push_back(std::move(query));
    }

    Value pick(const TypeModel& model) { return ::pick(pools, model, rng); }

    // The values' literals, separated by commas (an IN list's or an array's elements).
    static std::string listed(const Side& s, const TypeModel& model, const std::vector<Value>& values) {
        std::string out;
        for (std::size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + s.literal(model, values[i]);
        return out;
    }

    std::string array(const Side& s, const TypeModel& model, const std::vector<Value>& values) const {
        return "ARRAY[" + listed(s, model, values) + "]::" + s.type(model) + "[]";
    }

    void operator_shapes(const OperatorModel& op) {
        const TypeModel& L = *op.left;
        const TypeModel& R = *op.right;
        const std::string name = op.signature + ": ";
        const Value c = pick(R), c_left = pick(L);
        std::vector<Value> list = {pick(R), pick(R), pick(R)};
        if (rng() % 3 == 0) list.push_back(Value{true, "", {}});
        // ten or more: the executor hashes an = ANY or <> ALL list this long (with the family's hash function)
        std::vector<Value> long_list;
        for (int i = 0; i < 12; ++i) long_list.push_back(pick(R));
        const std::vector<Value> empty;
        const int n = static_cast<int>(rng() % 7);
        const std::string joined =
            "count(*), count(b.k), sum(a.k), sum(b.k), sum((a.k::bigint * 7919 + b.k) % 1000003)";

        add(name + "scan", false, [&](const Side& s) {
            return "SELECT k FROM " + s.table("d", L) + " WHERE " + s.column() + " " + s.op(op) + " " + s.literal(R, c);
        });
        add(name + "count (index-only)", false, [&](const Side& s) {
            return "SELECT count(*) FROM " + s.table("d", L) + " WHERE " + s.column() + " " + s.op(op) + " " +
                   s.literal(R, c);
        });
        add(name + "constant on the left", false, [&](const Side& s) {
            return "SELECT k FROM " + s.table("d", R) + " WHERE " + s.literal(L, c_left) + " " + s.op(op) + " " +
                   s.column();
        });
        add(name + "value per row (NULLs)", false, [&](const Side& s) {
            return "SELECT k, " + s.column() + " " + s.op(op) + " " + s.literal(R, c) + " FROM " + s.table("d", L);
        });
        for (const std::string quantifier : {"ANY", "ALL"}) {
            add(name + quantifier + " (array)", false, [&](const Side& s) {
                return "SELECT k FROM " + s.table("d", L) + " WHERE " + s.column() + " " + s.op(op) + " " + quantifier +
                       " (" + array(s, R, list) + ")";
            });
            add(name + quantifier + " (empty array)", false, [&](const Side& s) {
                return "SELECT count(*) FROM " + s.table("d", L) + " WHERE " + s.column() + " " + s.op(op) + " " +
                       quantifier + " (" + array(s, R, empty) + ")";
            });
            add(name + quantifier + " (array from a subquery)", false, [&](const Side& s) {
                return "SELECT a.k FROM " + s.table("d", L) + " a, (SELECT pg_catalog.array_agg(" + s.column() +
                       ") AS v FROM " + s.table("e", R) + " WHERE k % 7 = " + std::to_string(n) + ") p WHERE a." +
                       s.column() + " " + s.op(op) + " " + quantifier + " (p.v)";
            });
            add(name + quantifier + " (subquery)", false, [&](const Side& s) {
                return "SELECT k FROM " + s.table("d", L) + " a WHERE a." + s.column() + " " + s.op(op) + " " +
                       quantifier + " (SELECT b." + s.column() + " FROM " + s.table("e", R) + " b WHERE b.k % 5 <> " +
                       std::to_string(n % 5) + (quantifier == "ALL" ? " AND b." + s.column() + " IS NOT NULL" : "") +
                       ")";
            });
            add(name + quantifier + " (array of twelve, hashed)", false, [&](const Side& s) {
                return "SELECT k FROM " + s.table("d", L) + " WHERE " + s.column() + " " + s.op(op) + " " + quantifier +
                       " (" + array(s, R, long_list) + ")";
            });
        }
        // (without the set's NULLs, which make NOT ANY never true)
        add(name + "NOT ANY (subquery)", false, [&](const Side& s) {
            return "SELECT k FROM " + s.table("d", L) + " a WHERE NOT (a." + s.column() + " " + s.op(op) +
                   " ANY (SELECT b." + s.column() + " FROM " + s.table("e", R) + " b WHERE b." + s.column() +
                   " IS NOT NULL))";
        });
        // in the target list: a subplan (hashed where the operator hashes) that answers true, false or NULL per row
        for (const std::string nulls : {"", " AND b.k > 0"}) {
            add(name + "ANY (subquery) per row" + (nulls.empty() ? ", no NULLs in the set" : ""), false,
                [&](const Side& s) {
                    return "SELECT a.k, a." + s.column() + " " + s.op(op) + " ANY (SELECT b." + s.column() + " FROM " +
                           s.table("e", R) + " b WHERE " +
                           (nulls.empty() ? "b." + s.column() + " IS NOT NULL" : std::string("b.k > 0")) + ") FROM " +
                           s.table("d", L) + " a";
                });
        }
        add(name + "EXISTS (semi join)", false, [&](const Side& s) {
            return "SELECT k FROM " + s.table("d", L) + " a WHERE EXISTS (SELECT 1 FROM " + s.table("e", R) +
                   " b WHERE a." + s.column() + " " + s.op(op) + " b." + s.column() + ")";
        });
        add(name + "NOT EXISTS (anti join)", false, [&](const Side& s) {
            return "SELECT k FROM " + s.table("d", L) + " a WHERE NOT EXISTS (SELECT 1 FROM " + s.table("e", R) +
                   " b WHERE a." + s.column() + " " + s.op(op) + " b." + s.column() + ")";
        });
        add(name + "join", false, [&](const Side& s) {
            return "SELECT " + joined + " FROM " + s.table("d", L) + " a JOIN " + s.table("e", R) + " b ON a." +
                   s.column() + " " + s.op(op) + " b." + s.column();
        });
        add(name + "left join", false, [&](const Side& s) {
            return "SELECT " + joined + " FROM " + s.table("d", L) + " a LEFT JOIN " + s.table("e", R) + " b ON a." +
                   s.column() + " " + s.op(op) + " b." + s.column() + " AND b.k % 3 = " + std::to_string(n % 3);
        });
        add(name + "join of partitioned tables", false, [&](const Side& s) {
            return "SELECT " + joined + " FROM " + s.table("ph", L) + " a JOIN " + s.table("e", R) + " b ON a." +
                   s.column() + " " + s.op(op) + " b." + s.column() + " WHERE b.k % 4 = " + std::to_string(n % 4);
        });
        for (const std::string kind : {"ph", "pr"}) {
            add(name + kind + " partitions pruned", false, [&](const Side& s) {
                return "SELECT k FROM " + s.table(kind, L) + " WHERE " + s.column() + " " + s.op(op) + " " +
                       s.literal(R, c);
            });
            add(name + kind + " partitions pruned by an array", false, [&](const Side& s) {
                return "SELECT k FROM " + s.table(kind, L) + " WHERE " + s.column() + " " + s.op(op) + " ANY (" +
                       array(s, R, list) + ")";
            });
        }
        // the constructs that find the operator by its name: IN lists, NOT IN, row comparisons
        if (op.name == "=" || op.name == "<>") {
            const std::string in = op.name == "=" ? " IN (" : " NOT IN (";
            add(name + in.substr(1) + "list)", false, [&](const Side& s) {
                return "SELECT k FROM " + s.table("d", L) + " WHERE " + s.column() + in + listed(s, R, list) + ")";
            });
            add(name + in.substr(1) + "list of twelve, hashed)", false, [&](const Side& s) {
                return "SELECT k FROM " + s.table("d", L) + " WHERE " + s.column() + in + listed(s, R, long_list) + ")";
            });
            add(name + in.substr(1) + "list) on partitions", false, [&](const Side& s) {
                return "SELECT k FROM " + s.table("ph", L) + " WHERE " + s.column() + in + listed(s, R, list) + ")";
            });
            add(name + in.substr(1) + "subquery)", false, [&](const Side& s) {
                return "SELECT k FROM " + s.table("d", L) + " WHERE " + s.column() + in + "SELECT " + s.column() +
                       " FROM " + s.table("e", R) + " WHERE k % 6 <> " + std::to_string(n % 6) + " AND " + s.column() +
                       " IS NOT NULL)";
            });
        }
        if (op.name == "=") {
            add(name + "full join", false, [&](const Side& s) {
                return "SELECT count(*), count(a.k), count(b.k), sum(a.k), sum(b.k) FROM " + s.table("d", L) +
                       " a FULL JOIN " + s.table("e", R) + " b ON a." + s.column() + " " + s.op(op) + " b." +
                       s.column();
            });
        }
        if (op.name == "<" || op.name == "<=" || op.name == ">" || op.name == ">=") {
            add(name + "row comparison (keyset pagination)", true, [&](const Side& s) {
                return "SELECT k FROM " + s.table("d", L) + " WHERE (" + s.column() + ", k) " + op.name + " (" +
                       s.literal(R, c) + ", " + std::to_string(n * 30) + ") ORDER BY " + s.column() +
                       (op.name[0] == '>' ? "" : " DESC") + ", k" + (op.name[0] == '>' ? "" : " DESC") + " LIMIT 25";
            });
        }
        // prepared, as drivers send parameters: custom and generic plans
        prepared(name + "prepared = ANY ($1, $2)", L, R, [&](const Side& s) {
            return "SELECT k FROM " + s.table("d", L) + " WHERE " + s.column() + " " + s.op(op) +
                   " ANY (ARRAY[$1, $2])";
        });
        prepared(name + "prepared = ANY ($1), one array parameter", L, R, [&](const Side& s) {
            return "SELECT k FROM " + s.table("d", L) + " WHERE " + s.column() + " " + s.op(op) + " ANY ($1)";
        });
        queries.back().array_parameter = true;
        queries.back().parameters = {pick(R), pick(R), pick(R)};
        queries.back().parameter_types[0] = {R.array_oid};
        queries.back().parameter_types[1] = {R.reference_array_oid};
        prepared(name + "prepared on hash partitions", L, R, [&](const Side& s) {
            return "SELECT k FROM " + s.table("ph", L) + " WHERE " + s.column() + " " + s.op(op) + " $1";
        });
        prepared(name + "prepared on range partitions", L, R, [&](const Side& s) {
            return "SELECT k FROM " + s.table("pr", L) + " WHERE " + s.column() + " " + s.op(op) + " $2";
        });
        if (op.name == "=") {
            prepared(name + "prepared IN ($1, $2)", L, R, [&](const Side& s) {
                return "SELECT k FROM " + s.table("d", L) + " WHERE " + s.column() + " IN ($1, $2)";
            });
        }
    }

    void prepared(const std::string& label, const TypeModel&, const TypeModel& R, const Shape& shape) {
        add(label, false, shape);
        Query& query = queries.back();
        query.prepared = true;
        query.parameter_model = &R;
        query.parameters = {pick(R), pick(R)};
        query.parameter_types[0] = {R.oid, R.oid};
        query.parameter_types[1] = {R.reference_oid, R.reference_oid};
    }

    void type_shapes(const TypeModel& T) {
        const std::string name = T.sql_type + ": ";
        const int n = 1 + static_cast<int>(rng() % 40);
        const Value c = pick(T);
        const bool descending = rng() % 2;
        const bool nulls_first = rng() % 2;
        add(name + "count(DISTINCT)", false, [&](const Side& s) {
            return "SELECT count(*), count(DISTINCT " + s.column() + ") FROM " + s.table("d", T);
        });
        add(name + "GROUP BY", false, [&](const Side& s) {
            return "SELECT min(k), count(*) FROM " + s.table("d", T) + " GROUP BY " + s.column();
        });
        add(name + "GROUP BY on partitions", false, [&](const Side& s) {
            return "SELECT min(k), count(*) FROM " + s.table("ph", T) + " GROUP BY " + s.column();
        });
        add(name + "DISTINCT", false, [&](const Side& s) {
            return "SELECT count(*) FROM (SELECT DISTINCT " + s.column() + " FROM " + s.table("d", T) + ") s";
        });
        add(name + "DISTINCT ON", true, [&](const Side& s) {
            return "SELECT DISTINCT ON (" + s.column() + ") k FROM " + s.table("d", T) + " ORDER BY " + s.column() +
                   ", k";
        });
        for (const std::string set_operation : {"UNION", "INTERSECT", "EXCEPT", "UNION ALL"}) {
            add(name + set_operation, false, [&](const Side& s) {
                return "SELECT count(*), count(DISTINCT x) FROM (SELECT " + s.column() + " AS x FROM " +
                       s.table("d", T) + " " + set_operation + " SELECT " + s.column() + " FROM " + s.table("e", T) +
                       ") s";
            });
        }
        add(name + "ORDER BY LIMIT", true, [&](const Side& s) {
            return "SELECT k FROM " + s.table("d", T) + " ORDER BY " + s.column() + (descending ? " DESC" : "") +
                   (nulls_first ? " NULLS FIRST" : " NULLS LAST") + ", k LIMIT " + std::to_string(n);
        });
        add(name + "ORDER BY LIMIT on partitions", true, [&](const Side& s) {
            return "SELECT k FROM " + s.table("pr", T) + " ORDER BY " + s.column() + (descending ? " DESC" : "") +
                   ", k LIMIT " + std::to_string(n);
        });
        add(name + "range ORDER BY LIMIT", true, [&](const Side& s) {
            return "SELECT k FROM " + s.table("d", T) + " WHERE " + s.column() + " >= " + s.literal(T, c) +
                   " ORDER BY " + s.column() + ", k LIMIT 7";
        });
        add(name + "window functions", false, [&](const Side& s) {
            const std::string v = s.column();
            return "SELECT k, rank() OVER (ORDER BY " + v + "), dense_rank() OVER (ORDER BY " + v +
                   " DESC), count(*) OVER (PARTITION BY " + v + "), row_number() OVER (PARTITION BY " + v +
                   " ORDER BY k) FROM " + s.table("d", T);
        });
        add(name + "merge join ordered", true, [&](const Side& s) {
            return "SELECT a.k, b.k FROM " + s.table("d", T) + " a JOIN " + s.table("e", T) + " b ON a." + s.column() +
                   " = b." + s.column() + " ORDER BY a." + s.column() + ", a.k, b.k LIMIT 40";
        });
        // a column cast to its reference type (free: the same bytes) is compared by the reference type's operators,
        // which the planner may then match to the column's own indexes and partitions
        if (T.casts_to_reference) {
            const std::vector<Value> values = {pick(T), pick(T), pick(T)};
            for (const std::string op : {"=", "<", ">="}) {
                add(name + "cast to " + T.reference + ", " + op, false, [&](const Side& s) {
                    return "SELECT k FROM " + s.table("d", T) + " WHERE " + s.column() + "::" + T.reference +
                           " OPERATOR(pg_catalog." + op + ") " + s.as_reference().literal(T, c);
                });
                add(name + "cast to " + T.reference + " on partitions, " + op, false, [&](const Side& s) {
                    return "SELECT k FROM " + s.table("ph", T) + " WHERE " + s.column() + "::" + T.reference +
                           " OPERATOR(pg_catalog." + op + ") " + s.as_reference().literal(T, c);
                });
            }
            add(name + "cast to " + T.reference + ", IN list", false, [&](const Side& s) {
                return "SELECT k FROM " + s.table("d", T) + " WHERE " + s.column() + "::" + T.reference + " IN (" +
                       listed(s.as_reference(), T, values) + ")";
            });
        }
        if (T.has_min_max) {
            for (const std::string aggregate : {"min", "max"}) {
                for (const std::string kind : {"d", "pr", "ph"}) {
                    add(name + aggregate + " of " + kind, false, [&](const Side& s) {
                        const std::string extreme =
                            s.reference ? "(SELECT r FROM " + s.table("d", T) + " WHERE r IS NOT NULL ORDER BY r" +
                                              (aggregate == "max" ? " DESC" : "") + " LIMIT 1)"
                                        : "(SELECT " + aggregate + "(v) FROM " + s.table(kind, T) + ")";
                        return "SELECT k FROM " + s.table("d", T) + " WHERE " + s.column() + " = " + extreme;
                    });
                }
            }
        }
    }
};

std::vector<Query> generate(const Catalog& catalog, const Pools& pools, std::uint64_t seed, int rounds) {
    Generator generator{catalog, pools, std::mt19937_64(seed), {}};
    for (int round = 0; round < rounds; ++round) {
        for (const OperatorModel& op : catalog.operators) generator.operator_shapes(op);
        for (const auto& type : catalog.types)
            if (type->extension_type) generator.type_shapes(*type);
    }
    return std::move(generator.queries);
}

// ---- running

struct Outcome {
    bool failed = false;
    std::string error;
    std::vector<std::string> rows;
};

Outcome run(PGconn* connection, const Query& query, int side, const std::string& settings, int serial,
            const std::string& plan_cache_mode, std::mt19937_64* literal_rng, const std::string& schema) {
    Outcome outcome;
    // JIT off but where a setting asks for it: the costs of disabled plans (enable_* = off) would otherwise pass
    // its thresholds and compile nearly every query, at a hundred milliseconds each
    const std::string set = "RESET ALL; SET statement_timeout = '60s'; SET jit = off; SET search_path = diff, " +
                            schema + "; SET plan_cache_mode = " + plan_cache_mode + "; " + settings;
    Result result;
    if (query.prepared) {
        const Result done = exec(connection, set);
        if (!succeeded(done.get())) return {true, "setting: " + error_of(done.get()), {}};
        const std::string name = "q" + std::to_string(serial) + "_" + std::to_string(side);
        std::vector<Oid> types;
        for (const std::string& oid : query.parameter_types[side]) types.push_back(static_cast<Oid>(std::stoul(oid)));
        const Result prepared(
            PQprepare(connection, name.c_str(), query.sql[side].c_str(), static_cast<int>(types.size()), types.data()));
        if (!succeeded(prepared.get())) return {true, error_of(prepared.get()), {}};
        const Side renderer{side == 1, schema, literal_rng};
        std::vector<std::string> texts;
        std::vector<const char*> values;
        if (query.array_parameter) {
            texts.push_back(renderer.array_text(*query.parameter_model, query.parameters));
            values.push_back(texts[0].c_str());
        } else {
            for (const Value& value : query.parameters) texts.push_back(renderer.text(*query.parameter_model, value));
            for (std::size_t i = 0; i < texts.size(); ++i)
                values.push_back(query.parameters[i].null ? nullptr : texts[i].c_str());
        }
        result.reset(PQexecPrepared(connection, name.c_str(), static_cast<int>(values.size()), values.data(), nullptr,
                                    nullptr, 0));
        exec(connection, "DEALLOCATE " + name);
    } else {
        // one round trip: the settings, then the query, whose result is the last
        result.reset(PQexec(connection, (set + "; " + query.sql[side]).c_str()));
    }
    if (!succeeded(result.get())) return {true, error_of(result.get()), {}};
    outcome.rows = rows_of(result.get());
    if (!query.ordered) std::sort(outcome.rows.begin(), outcome.rows.end());
    return outcome;
}

std::string difference(const std::vector<std::string>& expected, const std::vector<std::string>& got) {
    std::string out = std::to_string(expected.size()) + " rows expected, " + std::to_string(got.size()) + " got";
    for (std::size_t i = 0; i < std::max(expected.size(), got.size()); ++i) {
        const std::string e = i < expected.size() ? expected[i] : "(none)";
        const std::string g = i < got.size() ? got[i] : "(none)";
        if (e != g)
            return out + "; first difference at row " + std::to_string(i + 1) + ": expected " + e + ", got " + g;
    }
    return out;
}

struct Report {
    std::uint64_t seed;
    int show;
    long cases = 0;
    long failures = 0;
    std::map<std::string, long> failures_by_error;

    // `kind`: a SQLSTATE, or what else went wrong (counted by kind in the summary)
    void fail(const std::string& kind, const std::string& what, const std::string& setting, const Query* query,
              const std::string& detail) {
        ++failures;
        ++failures_by_error[kind];
        if (failures > show) return;
        std::printf("FAILED (seed %llu): %s, under \"%s\": %s\n", static_cast<unsigned long long>(seed), what.c_str(),
                    setting.c_str(), detail.c_str());
        if (query) {
            std::printf("    idcodec:   %s\n    reference: %s\n", query->sql[0].c_str(), query->sql[1].c_str());
        }
    }
};

// The settings each query runs under: every one, or a share of them chosen per query by the seed, so that the
// cases come to about `cases` while every query runs and every setting is used alike.
std::vector<std::vector<std::size_t>> settings_per_query(std::size_t queries, std::size_t settings, long cases,
                                                         std::uint64_t seed) {
    std::size_t share = settings;
    if (cases > 0 && queries > 0)
        share = std::clamp<std::size_t>((static_cast<std::size_t>(cases) + queries - 1) / queries, 1, settings);
    std::mt19937_64 rng(seed + 2);
    std::vector<std::vector<std::size_t>> chosen(queries);
    for (auto& indices : chosen) {
        indices.resize(settings);
        for (std::size_t i = 0; i < settings; ++i) indices[i] = i;
        std::shuffle(indices.begin(), indices.end(), rng);
        indices.resize(share);
        std::sort(indices.begin(), indices.end());
    }
    return chosen;
}

// The plan of a reference query as EXPLAIN (COSTS OFF) shows it, a prepared one with the plan cache mode given.
std::string plan_of(PGconn* connection, const Query& query, const std::string& settings, const std::string& mode,
                    const std::string& schema, std::mt19937_64* rng) {
    const Result set = exec(connection, "RESET ALL; SET jit = off; SET search_path = plans, " + schema +
                                            "; SET plan_cache_mode = " + mode + "; " + settings);
    if (!succeeded(set.get())) return "error: " + error_of(set.get());
    std::string explain = "EXPLAIN (COSTS OFF) " + query.sql[1];
    if (query.prepared) {
        const Side reference{true, schema, rng};
        const TypeModel& model = *query.parameter_model;
        std::string types, arguments;
        if (query.array_parameter) {
            std::string text;
            for (const char c : reference.array_text(model, query.parameters))
                text += c == '\'' ? "''" : std::string(1, c);
            types = model.reference + "[]";
            arguments = "'" + text + "'::" + model.reference + "[]";
        } else {
            for (std::size_t i = 0; i < query.parameters.size(); ++i) types += (i ? ", " : "") + model.reference;
            arguments = Generator::listed(reference, model, query.parameters);
        }
        const Result prepared = exec(connection, "PREPARE reference_plan (" + types + ") AS " + query.sql[1]);
        if (!succeeded(prepared.get())) return "error: " + error_of(prepared.get());
        explain = "EXPLAIN (COSTS OFF) EXECUTE reference_plan (" + arguments + ")";
    }
    const Result result = exec(connection, explain);
    if (query.prepared) exec(connection, "DEALLOCATE reference_plan");
    if (!succeeded(result.get())) return "error: " + error_of(result.get());
    std::string plan;
    for (const std::string& line : rows_of(result.get())) plan += line + "\n";
    return plan;
}

// The plans of the reference queries in a database with idcodec and in one without it.
void compare_plans(PGconn* with, PGconn* without, const Catalog& catalog, const Pools& pools, std::uint64_t seed,
                   const std::vector<Query>& queries, const std::vector<std::vector<std::size_t>>& chosen,
                   const std::vector<Setting>& settings, Report& report) {
    create_tables(with, catalog, pools, "plans", true, seed);
    // the same tables (of built-in types only); idcodec's schema, on the search path, holds nothing there
    create_tables(without, catalog, pools, "plans", true, seed);
    std::mt19937_64 rng(seed);
    for (std::size_t q = 0; q < queries.size(); ++q) {
        const Query& query = queries[q];
        const std::vector<std::string> modes = query.prepared
                                                   ? std::vector<std::string>{"force_custom_plan", "force_generic_plan"}
                                                   : std::vector<std::string>{"auto"};
        for (const std::size_t index : chosen[q]) {
            for (const std::string& mode : modes) {
                const std::string plans[2] = {plan_of(with, query, settings[index].sql, mode, catalog.schema, &rng),
                                              plan_of(without, query, settings[index].sql, mode, catalog.schema, &rng)};
                ++report.cases;
                if (plans[0] != plans[1])
                    report.fail("plan",
                                "the plan of a reference query changed with idcodec installed (" + query.label + ")",
                                settings[index].name + (query.prepared ? ", " + mode : ""), nullptr,
                                "with idcodec:\n" + plans[0] + "without:\n" + plans[1] + "query: " + query.sql[1]);
            }
        }
    }
}

int usage() {
    std::fprintf(
        stderr,
        "usage: plan_diff CONNINFO [--seed N] [--rounds N] [--cases N] [--show N] [--plans-without CONNINFO]\n");
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) return usage();
    std::uint64_t seed = 1;
    int rounds = 1;
    int show = 10;
    long cases = 0;
    std::string plans_without;
    for (int i = 2; i < argc; i += 2) {
        if (i + 1 >= argc) return usage();
        const std::string option = argv[i];
        if (option == "--seed")
            seed = std::strtoull(argv[i + 1], nullptr, 10);
        else if (option == "--rounds")
            rounds = std::atoi(argv[i + 1]);
        else if (option == "--show")
            show = std::atoi(argv[i + 1]);
        else if (option == "--cases")
            cases = std::atol(argv[i + 1]);
        else if (option == "--plans-without")
            plans_without = argv[i + 1];
        else
            return usage();
    }
    Connection connection(PQconnectdb(argv[1]));
    if (PQstatus(connection.get()) != CONNECTION_OK) {
        std::fprintf(stderr, "plan_diff: %s", PQerrorMessage(connection.get()));
        return 2;
    }
    // amvalidate's INFO lines say what a class lacks; the failure it returns is reported instead
    PQsetNoticeProcessor(
        connection.get(), [](void*, const char*) {}, nullptr);
    Report report{seed, show, 0, 0, {}};
    try {
        const Catalog catalog = read_catalog(connection.get());
        for (const std::string& problem : catalog.problems) {
            ++report.cases;
            report.fail("catalog", problem, "catalog", nullptr, "the catalog check");
        }
        std::mt19937_64 pool_rng(seed);
        const Pools pools = make_pools(pool_rng);
        create_tables(connection.get(), catalog, pools, "diff", false, seed);
        const std::vector<Setting> settings = settings_matrix(catalog.server_version);
        const std::vector<Query> queries = generate(catalog, pools, seed, rounds);
        const auto chosen = settings_per_query(queries.size(), settings.size(), cases, seed);
        std::mt19937_64 literal_rng(seed ^ 0x9e3779b97f4a7c15ULL);
        int serial = 0;
        for (const Query& query : queries) {
            const std::vector<std::size_t>& indices = chosen[static_cast<std::size_t>(serial++)];
            const Outcome expected =
                run(connection.get(), query, 1, "", serial, "force_custom_plan", &literal_rng, catalog.schema);
            if (expected.failed) {
                ++report.cases;
                report.fail("reference", query.label + ": the reference query failed", "default", &query,
                            expected.error);
                continue;
            }
            for (const std::size_t index : indices) {
                const Setting& setting = settings[index];
                const std::vector<std::string> modes =
                    query.prepared ? std::vector<std::string>{"force_custom_plan", "force_generic_plan"}
                                   : std::vector<std::string>{"auto"};  // (only prepared statements have plans cached)
                for (const std::string& mode : modes) {
                    ++report.cases;
                    const Outcome got =
                        run(connection.get(), query, 0, setting.sql, serial, mode, &literal_rng, catalog.schema);
                    const std::string where = setting.name + (query.prepared ? ", " + mode : "");
                    if (got.failed)
                        report.fail(got.error.substr(0, 5), query.label, where, &query, got.error);
                    else if (got.rows != expected.rows)
                        report.fail("wrong", query.label, where, &query,
                                    "wrong answer: " + difference(expected.rows, got.rows));
                }
            }
        }
        long plan_cases = 0;
        if (!plans_without.empty()) {
            Connection plain(PQconnectdb(plans_without.c_str()));
            if (PQstatus(plain.get()) != CONNECTION_OK) {
                std::fprintf(stderr, "plan_diff: %s", PQerrorMessage(plain.get()));
                return 2;
            }
            const long before = report.cases;
            compare_plans(connection.get(), plain.get(), catalog, pools, seed, queries, chosen, settings, report);
            plan_cases = report.cases - before;
        }
        std::string kinds;
        for (const auto& [kind, count] : report.failures_by_error) kinds += " " + kind + ":" + std::to_string(count);
        std::printf(
            "plan_diff: seed %llu, %zu operators, %zu queries, each under %zu of %zu settings: %ld cases, %ld plans "
            "compared, %ld failed%s\n",
            static_cast<unsigned long long>(seed), catalog.operators.size(), queries.size(),
            chosen.empty() ? std::size_t{0} : chosen[0].size(), settings.size(), report.cases - plan_cases, plan_cases,
            report.failures, kinds.empty() ? "" : (" (by SQLSTATE or kind:" + kinds + ")").c_str());
    } catch (const std::exception& error) {
        std::fprintf(stderr, "plan_diff: setup failed: %s\n", error.what());
        return 2;
    }
    return report.failures == 0 ? 0 : 1;
}
