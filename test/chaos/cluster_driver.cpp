// A distributed workload on libpq for a Citus cluster under faults. N connections to the coordinator run, against
// the tables of cluster_schema.sql: inserts with keys the cluster generates (ulid, typeid, a bigserial shown as a
// hashid), lookups by each public form (ulid text, typeid text, hashid), key-range scans over ulid (time order),
// and the short-URL service's shorten and resolve (which counts hits). Whoever runs it injects the faults and
// tells it the phases with SIGUSR1 (warm-up -> before -> during -> after the faults); SIGTERM ends the run. Clients
// reconnect when their connection fails, and keep a log of what the server acknowledged.
//
// Afterwards, from those logs: every acknowledged row is present once, with its key, public ID and values; no key was
// issued twice; every acknowledged hit is counted (and no more hits than calls); every read during the run
// answered right (a lookup found its row, a range counted at least the rows it must hold). One summary line, with
// the throughput of each phase.
//
//   cluster_driver CONNINFO [--connections N] [--seconds MAX] [--seed N]
//
// Exit status 0 when nothing acknowledged is lost, duplicated or wrong, and every phase was seen.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "chaos/ledger.hpp"
#include "drivers/libpq.hpp"

namespace {

using Clock = std::chrono::steady_clock;
using idcodec_test::Connection;
using idcodec_test::exec;
using idcodec_test::Result;
using idcodec_test::Verdict;

using Options = idcodec_test::LoadOptions;

// Set from signal handlers: lock-free atomics only.
std::atomic<int> phase{0};  // 0 connecting and warming up, 1 before the faults, 2 during, 3 after
std::atomic<bool> stop{false};
std::atomic<int> connected{0};  // workers that have connected once
static_assert(std::atomic<int>::is_always_lock_free && std::atomic<bool>::is_always_lock_free);
constexpr int phases = 4;
constexpr const char* phase_name[phases] = {"warm-up", "before", "during", "after"};

extern "C" void next_phase(int) {
    int current = phase.load();
    while (current + 1 < phases && !phase.compare_exchange_weak(current, current + 1)) {
    }
}
extern "C" void end_run(int) { stop.store(true); }

enum Kind { event_op, member_op, account_op, lookup_op, range_op, shorten_op, resolve_op, kinds };
constexpr const char* kind_name[kinds] = {"insert ulid", "insert typeid", "insert hashid", "lookup",
                                          "range",       "shorten",       "resolve"};

// An acknowledged row: its key (or public ID) as the server printed it, and the values the client sent.
struct Row {
    std::string key;
    std::string public_id;  // account: the hashid
    int client;
    std::uint64_t seq;
};

struct WorkerLog {
    std::uint64_t attempted[kinds] = {};
    std::uint64_t acknowledged[kinds] = {};
    std::uint64_t attempted_in[phases] = {}, acknowledged_in[phases] = {};
    std::uint64_t acknowledged_after[kinds] = {};   // in the last phase
    std::map<std::string, std::uint64_t> failures;  // the first line of each error, and how often
    std::uint64_t wrong_reads = 0;
    std::vector<Row> events, members, accounts;
    std::vector<idcodec_test::Link> shortened;
    idcodec_test::ResolvesByCode resolves;
    std::vector<Kind> kind_of;  // what each sequence number (seq) of this client was sent as
};

Connection connect(const std::string& conninfo) {
    return idcodec_test::connect_retrying(conninfo, std::chrono::seconds(120));
}

bool one_row(const Result& result) { return idcodec_test::succeeded(result.get()) && PQntuples(result.get()) == 1; }

std::string field(const Result& result, int column) { return PQgetvalue(result.get(), 0, column); }

// A lookup by a public form of one of this client's acknowledged rows: nullopt when the statement failed (no
// answer), else whether the answer was that row.
std::optional<bool> lookup(PGconn* conn, const WorkerLog& log, std::mt19937_64& random) {
    std::uint64_t which = random() % 3;
    const auto rows_of = [&log](std::uint64_t table) -> const std::vector<Row>& {
        return table == 0 ? log.events : table == 1 ? log.members : log.accounts;
    };
    while (rows_of(which).empty()) which = (which + 1) % 3;  // the caller saw one that is not
    const std::vector<Row>& rows = rows_of(which);
    const Row& row = rows[random() % rows.size()];
    const Result result =
        which == 0   ? exec(conn, "SELECT client, seq, id::text FROM fleet.event WHERE id = $1::ulid", {row.key})
        : which == 1 ? exec(conn, "SELECT client, seq, id::text FROM fleet.member WHERE id = $1::typeid", {row.key})
                     : exec(conn,
                            "SELECT client, seq, public_id FROM fleet.account "
                            "WHERE id = hashids_decode_one($1, 'fleet accounts', 8)",
                            {row.public_id});
    if (!idcodec_test::succeeded(result.get())) return std::nullopt;
    return PQntuples(result.get()) == 1 && field(result, 0) == std::to_string(row.client) &&
           field(result, 1) == std::to_string(row.seq) && field(result, 2) == (which == 2 ? row.public_id : row.key);
}

// A range of the ulid key (creation time) between two of this client's events: it holds at least the client's own
// acknowledged events between them. nullopt when the statement failed.
std::optional<bool> range(PGconn* conn, const WorkerLog& log, std::mt19937_64& random) {
    std::string low = log.events[random() % log.events.size()].key;
    std::string high = log.events[random() % log.events.size()].key;
    if (high < low) std::swap(low, high);  // canonical ULID text sorts as the bytes do
    std::uint64_t own = 0;
    for (const Row& row : log.events) own += row.key >= low && row.key <= high;
    const Result result =
        exec(conn, "SELECT count(*) FROM fleet.event WHERE id >= $1::ulid AND id <= $2::ulid", {low, high});
    if (!one_row(result)) return std::nullopt;
    return std::stoull(field(result, 0)) >= own;
}

void run_worker(const Options& options, const idcodec_test::Link& hot, int index, WorkerLog& log) {
    std::mt19937_64 random(options.seed * 1000003 + static_cast<std::uint64_t>(index));
    Connection conn;
    std::uint64_t serial = 0;
    const std::string client = std::to_string(index);
    while (!stop) {
        if (!conn || PQstatus(conn.get()) != CONNECTION_OK) {
            const bool first = !conn;
            conn = connect(options.conninfo);
            if (first) ++connected;
        }
        const std::uint64_t roll = random() % 100;
        const Kind kind = roll < 25   ? event_op
                          : roll < 35 ? member_op
                          : roll < 45 ? account_op
                          : roll < 65 ? lookup_op
                          : roll < 75 ? range_op
                          : roll < 85 ? shorten_op
                                      : resolve_op;
        // reads need rows of this client first: such a draw is no operation
        if ((kind == lookup_op && log.events.empty() && log.members.empty() && log.accounts.empty()) ||
            (kind == range_op && log.events.size() < 2))
            continue;
        const std::uint64_t seq = serial++;
        log.kind_of.push_back(kind);
        const int at_phase = phase.load();
        bool acknowledged = false;
        if (kind == event_op || kind == member_op || kind == account_op) {
            const char* sql =
                kind == event_op    ? "INSERT INTO fleet.event (client, seq) VALUES ($1, $2) RETURNING id::text, ''"
                : kind == member_op ? "INSERT INTO fleet.member (client, seq) VALUES ($1, $2) RETURNING id::text, ''"
                                    : "INSERT INTO fleet.account (client, seq) VALUES ($1, $2) RETURNING id, public_id";
            const Result result = exec(conn.get(), sql, {client, std::to_string(seq)});
            if ((acknowledged = one_row(result))) {
                std::vector<Row>& rows = kind == event_op ? log.events : kind == member_op ? log.members : log.accounts;
                rows.push_back({field(result, 0), field(result, 1), index, seq});
            }
        } else if (kind == lookup_op || kind == range_op) {
            const std::optional<bool> right =
                kind == lookup_op ? lookup(conn.get(), log, random) : range(conn.get(), log, random);
            if ((acknowledged = right.has_value()) && !*right) ++log.wrong_reads;
        } else if (kind == shorten_op) {
            const std::string url = "https://example.com/fleet/" + client + "/" + std::to_string(seq);
            const Result result = exec(conn.get(), "SELECT fleet.shorten($1)", {url});
            if ((acknowledged = one_row(result))) log.shortened.emplace_back(url, field(result, 0));
        } else {
            const auto& [url, code] = idcodec_test::link_to_follow(random, hot, log.shortened);
            idcodec_test::Resolves& resolves = log.resolves[code];
            ++resolves.attempted;
            const Result result = exec(conn.get(), "SELECT fleet.resolve($1)", {code});
            if ((acknowledged = one_row(result))) {
                ++resolves.acknowledged;
                // a resolve counts its hit whatever it returns; it must return the code's URL
                if (PQgetisnull(result.get(), 0, 0) || field(result, 0) != url) ++log.wrong_reads;
            }
        }
        ++log.attempted[kind];
        ++log.attempted_in[at_phase];
        if (acknowledged) {
            ++log.acknowledged[kind];
            ++log.acknowledged_in[at_phase];
            if (at_phase == phases - 1) ++log.acknowledged_after[kind];
        } else {
            const std::string_view message = PQerrorMessage(conn.get());
            ++log.failures[std::string(message.substr(0, std::min(message.find('\n'), std::size_t{100})))];
        }
    }
}

// What the tables hold after the run: key -> (client, seq, public ID), counting keys seen more than once.
struct Stored {
    std::map<std::string, Row> rows;
    std::uint64_t duplicated = 0;                  // keys stored twice
    std::set<std::pair<int, std::uint64_t>> sent;  // (client, seq) of every row
    std::uint64_t sent_twice = 0;                  // rows of one operation stored twice
};

Stored stored(PGconn* conn, const char* sql) {
    Stored result;
    const Result rows = exec(conn, sql);
    if (!idcodec_test::succeeded(rows.get())) {
        std::fprintf(stderr, "cluster: cannot read back: %s", PQresultErrorMessage(rows.get()));
        std::exit(2);
    }
    for (int i = 0; i < PQntuples(rows.get()); ++i) {
        Row row{PQgetvalue(rows.get(), i, 0), PQgetvalue(rows.get(), i, 3), std::stoi(PQgetvalue(rows.get(), i, 1)),
                std::stoull(PQgetvalue(rows.get(), i, 2))};
        result.duplicated += !result.rows.emplace(row.key, row).second;
        result.sent_twice += !result.sent.emplace(row.client, row.seq).second;
    }
    return result;
}

struct Outcome {
    Verdict verdict;
    std::uint64_t duplicated = 0;  // keys acknowledged twice or stored twice, operations stored twice
    std::uint64_t rows_acknowledged = 0, rows_found = 0, hits_acknowledged = 0, hits_found = 0;
};

Outcome verify(PGconn* conn, const std::vector<WorkerLog>& logs) {
    Outcome outcome;
    struct Table {
        const char* sql;
        std::vector<Row> WorkerLog::*rows;
    };
    // the account's key is its number, and its public ID must be the hashid of that number
    const Table tables[] = {
        {"SELECT id::text, client, seq, '' FROM fleet.event", &WorkerLog::events},
        {"SELECT id::text, client, seq, '' FROM fleet.member", &WorkerLog::members},
        {"SELECT id::text, client, seq, CASE WHEN public_id = hashids_encode(id, 'fleet accounts', 8) "
         "THEN public_id ELSE 'not its hashid: ' || public_id END FROM fleet.account",
         &WorkerLog::accounts},
    };
    for (const Table& table : tables) {
        const Stored found = stored(conn, table.sql);
        outcome.duplicated += found.duplicated + found.sent_twice;
        // every stored row is one of an insert into that table that a client sent (acknowledged or not)
        const Kind kind = table.rows == &WorkerLog::events    ? event_op
                          : table.rows == &WorkerLog::members ? member_op
                                                              : account_op;
        for (const auto& [client, seq] : found.sent) {
            const bool sent = client >= 0 && static_cast<std::size_t>(client) < logs.size() &&
                              seq < logs[static_cast<std::size_t>(client)].kind_of.size() &&
                              logs[static_cast<std::size_t>(client)].kind_of[seq] == kind;
            outcome.verdict.wrong += !sent;
        }
        std::set<std::string> keys;
        for (const WorkerLog& log : logs) {
            for (const Row& row : log.*table.rows) {
                ++outcome.rows_acknowledged;
                outcome.duplicated += !keys.insert(row.key).second;
                const auto it = found.rows.find(row.key);
                if (it == found.rows.end()) {
                    outcome.verdict.count(std::nullopt);
                    continue;
                }
                ++outcome.rows_found;
                outcome.verdict.count(it->second.client == row.client && it->second.seq == row.seq &&
                                      it->second.public_id == row.public_id);
            }
        }
    }
    // (the counts as hits_of() sums them, in one query: a function that queries the cluster cannot run on a shard)
    const Stored codes = stored(conn,
                                "SELECT u.code, 0, COALESCE(sum(h.hits), 0), u.url FROM fleet.url_code u "
                                "LEFT JOIN fleet.hit_count h ON h.code = u.code AND h.counted = 'url_code' "
                                "GROUP BY u.code, u.url");
    outcome.duplicated += codes.duplicated;
    for (const WorkerLog& log : logs) {
        for (const auto& [url, code] : log.shortened) {
            const auto it = codes.rows.find(code);
            outcome.verdict.count(it == codes.rows.end() ? std::nullopt : std::optional(it->second.public_id == url));
        }
        outcome.verdict.wrong += log.wrong_reads;
    }
    // every stored code's hits (a code not stored is counted with its shorten) against the resolves of all workers
    const idcodec_test::ResolvesByCode resolves = idcodec_test::all_resolves(logs);
    for (const auto& [code, row] : codes.rows) {
        const auto found = resolves.find(code);
        const idcodec_test::Resolves sent = found != resolves.end() ? found->second : idcodec_test::Resolves{};
        outcome.hits_acknowledged += sent.acknowledged;
        outcome.hits_found += row.seq;
        idcodec_test::count_hits(outcome.verdict, row.seq, sent);
    }
    return outcome;
}

}  // namespace

int main(int argc, char** argv) {
    const Options options = idcodec_test::parse_load_options(
        argc, argv, Options{"", 16, 600}, "cluster_driver CONNINFO [--connections N] [--seconds MAX] [--seed N]");
    std::signal(SIGUSR1, next_phase);
    std::signal(SIGTERM, end_run);
    std::vector<WorkerLog> logs(static_cast<std::size_t>(options.connections));
    std::vector<std::thread> workers;
    // the viral link, which most resolves follow (its hit rows all on one shard), shortened before the workers start
    idcodec_test::Link hot{"https://example.com/fleet/hot", ""};
    {
        Connection conn = connect(options.conninfo);
        const Result result = exec(conn.get(), "SELECT fleet.shorten($1)", {hot.first});
        if (!one_row(result)) {
            std::fprintf(stderr, "cluster: cannot shorten the hot link: %s", PQerrorMessage(conn.get()));
            return 2;
        }
        hot.second = field(result, 0);
    }
    double phase_seconds[phases] = {};
    auto phase_started = Clock::now();
    const auto deadline = phase_started + std::chrono::seconds(options.seconds);
    for (std::size_t i = 0; i < logs.size(); ++i)
        workers.emplace_back(run_worker, std::cref(options), std::cref(hot), static_cast<int>(i), std::ref(logs[i]));
    // the signal handlers are in place and every connection is up: whoever runs this may signal the phases now
    while (connected.load() < options.connections && Clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    std::printf("ready\n");
    std::fflush(stdout);
    int seen = 0;  // the phases whose end this thread has recorded
    while (!stop) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        if (Clock::now() > deadline) stop = true;
        for (; seen < phase.load(); ++seen) {
            phase_seconds[seen] = std::chrono::duration<double>(Clock::now() - phase_started).count();
            phase_started = Clock::now();
        }
    }
    phase_seconds[seen] = std::chrono::duration<double>(Clock::now() - phase_started).count();
    for (std::thread& worker : workers) worker.join();

    Connection conn = connect(options.conninfo);
    const Outcome outcome = verify(conn.get(), logs);
    const idcodec_test::Resolves hot_resolves = idcodec_test::all_resolves(logs)[hot.second];
    const Result hot_hits = exec(conn.get(), "SELECT fleet.hits_of('url_code', $1)", {hot.second});

    std::uint64_t operations = 0, acknowledged = 0, in_phase[phases] = {};
    std::string per_kind;
    for (int kind = 0; kind < kinds; ++kind) {
        std::uint64_t attempted = 0, acked = 0;
        for (const WorkerLog& log : logs) {
            attempted += log.attempted[kind];
            acked += log.acknowledged[kind];
        }
        operations += attempted;
        acknowledged += acked;
        per_kind += "; " + std::string(kind_name[kind]) + " " + std::to_string(acked) + "/" + std::to_string(attempted);
    }
    std::uint64_t attempted_in[phases] = {};
    std::map<std::string, std::uint64_t> failures;
    for (const WorkerLog& log : logs) {
        for (int p = 0; p < phases; ++p) {
            in_phase[p] += log.acknowledged_in[p];
            attempted_in[p] += log.attempted_in[p];
        }
        for (const auto& [message, count] : log.failures) failures[message] += count;
    }
    std::string throughput;
    for (int p = 0; p < phases; ++p) {
        char part[128];
        std::snprintf(part, sizeof part, "%s%s %.0f/s (%.0f s, %llu of %llu acknowledged)", p > 0 ? ", " : "",
                      phase_name[p], phase_seconds[p] > 0 ? static_cast<double>(in_phase[p]) / phase_seconds[p] : 0.0,
                      phase_seconds[p], static_cast<unsigned long long>(in_phase[p]),
                      static_cast<unsigned long long>(attempted_in[p]));
        throughput += part;
    }
    // what the failed statements said, the most frequent first (worker down, shard moving, ...)
    std::vector<std::pair<std::uint64_t, std::string>> by_count;
    for (const auto& [message, count] : failures) by_count.emplace_back(count, message);
    std::sort(by_count.rbegin(), by_count.rend());
    for (std::size_t i = 0; i < by_count.size() && i < 6; ++i)
        std::printf("failed %llu times: %s\n", static_cast<unsigned long long>(by_count[i].first),
                    by_count[i].second.c_str());
    const Verdict& verdict = outcome.verdict;
    std::printf(
        "cluster: %d connections, seed %llu; operations %llu, acknowledged %llu, verified %llu, lost %llu, duplicated "
        "%llu, "
        "wrong %llu; rows acknowledged %llu, found %llu; hits acknowledged %llu, counted %llu; hot code: resolves %llu "
        "acknowledged of %llu, hits %s; throughput: %s%s\n",
        options.connections, static_cast<unsigned long long>(options.seed), static_cast<unsigned long long>(operations),
        static_cast<unsigned long long>(acknowledged), static_cast<unsigned long long>(verdict.verified),
        static_cast<unsigned long long>(verdict.lost), static_cast<unsigned long long>(outcome.duplicated),
        static_cast<unsigned long long>(verdict.wrong), static_cast<unsigned long long>(outcome.rows_acknowledged),
        static_cast<unsigned long long>(outcome.rows_found), static_cast<unsigned long long>(outcome.hits_acknowledged),
        static_cast<unsigned long long>(outcome.hits_found), static_cast<unsigned long long>(hot_resolves.acknowledged),
        static_cast<unsigned long long>(hot_resolves.attempted),
        one_row(hot_hits) ? field(hot_hits, 0).c_str() : "unread", throughput.c_str(), per_kind.c_str());
    // the cluster served during the faults and after them, every kind of insert again once they were over
    bool every_insert_after = true;
    for (const Kind kind : {event_op, member_op, account_op}) {
        std::uint64_t after = 0;
        for (const WorkerLog& log : logs) after += log.acknowledged_after[kind];
        every_insert_after = every_insert_after && after > 0;
    }
    const bool every_phase = phase.load() == phases - 1 && in_phase[2] > 0 && every_insert_after;
    return verdict.lost == 0 && outcome.duplicated == 0 && verdict.wrong == 0 && verdict.verified > 0 && every_phase
               ? 0
               : 1;
}
