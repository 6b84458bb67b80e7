// The ulid and typeid types through libpq in binary mode, as drivers use them: parameters sent as binary values of
// the types (looked up by OID), results asked for in binary and in text. Known values only: the ULID specification's
// example 01ARZ3NDEKTSV4RRFFQ69G5FAV is the bytes 01563e3a-b5d3-d676-4c61-efb99302bd5b, and the TypeID
// specification's user_01h455vb4pex5vsknk084sn02q is the prefix user and the UUID 01890a5d-ac96-774b-bcce-b302099a8057.
// Malformed binary parameters (short, long, a bad prefix) must fail with 08P01 or 22P03 and leave the session usable.
//
//   binary_types CONNINFO        prints "ok: ..." or "FAILED: ..." per check; exit status 0 when all pass
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <libpq-fe.h>
#include <memory>
#include <string>
#include <vector>

#include "drivers/libpq.hpp"

namespace {

using idcodec_test::exec;
using idcodec_test::Result;

int failures = 0;

void check(const std::string& what, bool passed, const std::string& detail = "") {
    std::printf("%s: %s%s\n", passed ? "ok" : "FAILED", what.c_str(),
                passed || detail.empty() ? "" : (": " + detail).c_str());
    failures += !passed;
}

std::string bytes(std::initializer_list<int> values) {
    std::string out;
    for (const int v : values) out += static_cast<char>(v);
    return out;
}

const std::string ulid_bytes =
    bytes({0x01, 0x56, 0x3e, 0x3a, 0xb5, 0xd3, 0xd6, 0x76, 0x4c, 0x61, 0xef, 0xb9, 0x93, 0x02, 0xbd, 0x5b});
const std::string uuid_bytes =
    bytes({0x01, 0x89, 0x0a, 0x5d, 0xac, 0x96, 0x77, 0x4b, 0xbc, 0xce, 0xb3, 0x02, 0x09, 0x9a, 0x80, 0x57});

// One statement with binary parameters of the given types; results in `format` (0 text, 1 binary).
Result exec_binary(PGconn* connection, const char* sql, const std::vector<Oid>& types,
                   const std::vector<std::string>& values, int format) {
    std::vector<const char*> pointers;
    std::vector<int> lengths, formats;
    for (const std::string& value : values) {
        pointers.push_back(value.data());
        lengths.push_back(static_cast<int>(value.size()));
        formats.push_back(1);
    }
    return Result(PQexecParams(connection, sql, static_cast<int>(values.size()), types.data(), pointers.data(),
                               lengths.data(), formats.data(), format));
}

std::string value(const PGresult* result, int row, int column) {
    return std::string(PQgetvalue(result, row, column), static_cast<std::size_t>(PQgetlength(result, row, column)));
}

std::string sqlstate(const PGresult* result) {
    const char* state = PQresultErrorField(result, PG_DIAG_SQLSTATE);
    return state ? state : "";
}

Oid oid_of(PGconn* connection, const char* type) {
    const Result result = exec(connection, (std::string("SELECT '") + type + "'::regtype::oid").c_str());
    return PQresultStatus(result.get()) == PGRES_TUPLES_OK
               ? static_cast<Oid>(std::strtoul(PQgetvalue(result.get(), 0, 0), nullptr, 10))
               : 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: binary_types CONNINFO\n");
        return 2;
    }
    idcodec_test::Connection holder(PQconnectdb(argv[1]));
    PGconn* connection = holder.get();
    if (PQstatus(connection) != CONNECTION_OK) {
        std::fprintf(stderr, "FAILED: connect: %s", PQerrorMessage(connection));
        return 1;
    }
    const Oid ulid = oid_of(connection, "ulid"), typeid_oid = oid_of(connection, "typeid");
    check("the types' OIDs are found", ulid != 0 && typeid_oid != 0);
    exec(connection, "CREATE TEMP TABLE binary_keys (id ulid PRIMARY KEY, owner typeid NOT NULL)");

    const std::string user = "user" + uuid_bytes;
    Result inserted = exec_binary(connection, "INSERT INTO binary_keys VALUES ($1, $2) RETURNING id::text, owner::text",
                                  {ulid, typeid_oid}, {ulid_bytes, user}, 0);
    check("binary parameters of ulid and typeid are stored",
          PQresultStatus(inserted.get()) == PGRES_TUPLES_OK &&
              value(inserted.get(), 0, 0) == "01ARZ3NDEKTSV4RRFFQ69G5FAV" &&
              value(inserted.get(), 0, 1) == "user_01h455vb4pex5vsknk084sn02q",
          PQresultErrorMessage(inserted.get()));

    Result binary = exec_binary(connection, "SELECT id, owner, id::uuid FROM binary_keys", {}, {}, 1);
    check("binary results: a ulid is its uuid's 16 bytes, a typeid its prefix then the UUID's 16",
          PQresultStatus(binary.get()) == PGRES_TUPLES_OK && PQntuples(binary.get()) == 1 &&
              value(binary.get(), 0, 0) == ulid_bytes && value(binary.get(), 0, 1) == user &&
              value(binary.get(), 0, 2) == ulid_bytes && PQftype(binary.get(), 0) == ulid &&
              PQftype(binary.get(), 1) == typeid_oid);

    Result found = exec_binary(connection, "SELECT owner FROM binary_keys WHERE id = $1 AND owner = $2",
                               {ulid, typeid_oid}, {ulid_bytes, user}, 0);
    check("binary parameters compared with stored keys",
          PQresultStatus(found.get()) == PGRES_TUPLES_OK && PQntuples(found.get()) == 1);

    // a uuid parameter where a ulid is compared, and the text forms as text parameters
    Result by_uuid =
        exec_binary(connection, "SELECT count(*) FROM binary_keys WHERE id = $1", {2950 /* uuid */}, {ulid_bytes}, 0);
    check("a binary uuid parameter finds the ulid",
          PQresultStatus(by_uuid.get()) == PGRES_TUPLES_OK && value(by_uuid.get(), 0, 0) == "1");
    const char* text_values[] = {"01arz3ndektsv4rrffq69g5fav", "user_01h455vb4pex5vsknk084sn02q"};
    Result by_text(PQexecParams(connection, "SELECT count(*) FROM binary_keys WHERE id = $1 AND owner = $2", 2, nullptr,
                                text_values, nullptr, nullptr, 0));
    check("untyped text parameters read as the types",
          PQresultStatus(by_text.get()) == PGRES_TUPLES_OK && value(by_text.get(), 0, 0) == "1");

    struct Bad {
        const char* what;
        Oid type;
        std::string value;
    };
    const std::vector<Bad> bad = {
        {"a ulid of 15 bytes", ulid, ulid_bytes.substr(0, 15)},
        {"a ulid of 17 bytes", ulid, ulid_bytes + "x"},
        {"an empty ulid", ulid, ""},
        {"a typeid of 15 bytes", typeid_oid, uuid_bytes.substr(0, 15)},
        {"a typeid with an uppercase prefix", typeid_oid, "User" + uuid_bytes},
        {"a typeid with a prefix of 64 letters", typeid_oid, std::string(64, 'a') + uuid_bytes},
        {"a typeid with a NUL in its prefix", typeid_oid, std::string("a\0b", 3) + uuid_bytes},
        {"a typeid of 100000 bytes 0xff", typeid_oid, std::string(100000, '\xff')},
    };
    for (const Bad& b : bad) {
        Result refused = exec_binary(connection, "SELECT $1::text", {b.type}, {b.value}, 0);
        const std::string state = sqlstate(refused.get());
        check(std::string(b.what) + " is refused (08P01 or 22P03)",
              PQresultStatus(refused.get()) == PGRES_FATAL_ERROR && (state == "08P01" || state == "22P03"), state);
    }
    Result still = exec(connection, "SELECT count(*) FROM binary_keys");
    check("the session is usable afterwards",
          PQresultStatus(still.get()) == PGRES_TUPLES_OK && value(still.get(), 0, 0) == "1");
    return failures == 0 ? 0 : 1;
}
