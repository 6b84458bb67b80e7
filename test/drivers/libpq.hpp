// libpq as the test drivers use it (test/drivers, test/chaos): owned results and connections, statements with
// text parameters, and a connect that waits while a server restarts.
#pragma once

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <libpq-fe.h>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace idcodec_test {

struct ResultDeleter {
    void operator()(PGresult* result) const { PQclear(result); }
};
using Result = std::unique_ptr<PGresult, ResultDeleter>;

struct ConnectionDeleter {
    void operator()(PGconn* conn) const { PQfinish(conn); }
};
using Connection = std::unique_ptr<PGconn, ConnectionDeleter>;

inline bool succeeded(const PGresult* result) {
    const ExecStatusType status = PQresultStatus(result);
    return status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK;
}

inline std::string sqlstate(const PGresult* result) {
    const char* state = PQresultErrorField(result, PG_DIAG_SQLSTATE);
    return state != nullptr ? state : "";
}

inline Result exec(PGconn* conn, const std::string& sql) { return Result(PQexec(conn, sql.c_str())); }

// One statement with text parameters; the last one is sent in binary when binary_last is set (a bytea's bytes).
inline Result exec(PGconn* conn, const char* sql, std::initializer_list<std::string_view> params,
                   bool binary_last = false) {
    std::vector<std::string> copies(params.begin(), params.end());  // NUL-terminated, as libpq's text format needs
    std::vector<const char*> values;
    std::vector<int> lengths, formats;
    for (std::size_t i = 0; i < copies.size(); ++i) {
        values.push_back(copies[i].c_str());
        lengths.push_back(static_cast<int>(copies[i].size()));
        formats.push_back(binary_last && i + 1 == copies.size() ? 1 : 0);
    }
    return Result(PQexecParams(conn, sql, static_cast<int>(values.size()), nullptr, values.data(), lengths.data(),
                               formats.data(), 0));
}

// Connects, retrying while the server restarts or recovers; exits the program when it cannot within `patience`.
// The server's notices (terminated backends, crash recovery) are expected by the drivers that use it, not news.
inline Connection connect_retrying(const std::string& conninfo, std::chrono::seconds patience) {
    const auto deadline = std::chrono::steady_clock::now() + patience;
    while (true) {
        Connection conn(PQconnectdb(conninfo.c_str()));
        if (PQstatus(conn.get()) == CONNECTION_OK) {
            PQsetNoticeProcessor(
                conn.get(), [](void*, const char*) {}, nullptr);
            return conn;
        }
        if (std::chrono::steady_clock::now() > deadline) {
            std::fprintf(stderr, "cannot connect: %s", PQerrorMessage(conn.get()));
            std::exit(2);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
}

}  // namespace idcodec_test
