// A load and chaos driver on libpq. N connections run a mixed workload against the schema of schema.sql (shorten
// URLs and resolve them with hit counting, insert rows with generated public IDs in pipeline mode, store files in
// the dedup store) while a chaos thread cancels queries, terminates backends and once kills a backend with
// SIGKILL, so the server goes through crash recovery; the workers reconnect and go on. Afterwards it checks, from
// its own log of what the server acknowledged as committed, that nothing acknowledged is missing or wrong and
// that nothing unacknowledged is half-applied, and prints one summary line.
//
//   chaos_driver CONNINFO [--connections N] [--seconds S] [--seed N] [--no-kill]
//
// Exit status 0 when lost = 0, wrong = 0 and every kind of chaos happened at least once.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <signal.h>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "chaos/ledger.hpp"
#include "drivers/libpq.hpp"

namespace {

using Clock = std::chrono::steady_clock;

using Options = idcodec_test::LoadOptions;

// ---- deterministic file contents, so any stored file can be checked by its name alone

std::uint64_t next_random(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

std::uint64_t name_seed(std::string_view name) {
    std::uint64_t hash = 0xcbf29ce484222325ull;  // FNV-1a
    for (const char c : name) hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
    return hash;
}

// 16 to 64 blocks of 4 KiB drawn from a pool of 48 (so files share chunks), then a tail of the file's own.
std::string file_content(std::string_view name) {
    std::uint64_t state = name_seed(name);
    const std::size_t blocks = 16 + next_random(state) % 49;
    std::string content;
    for (std::size_t b = 0; b < blocks; ++b) {
        std::uint64_t block_state = next_random(state) % 48;
        for (int i = 0; i < 512; ++i) {
            const std::uint64_t word = next_random(block_state);
            content.append(reinterpret_cast<const char*>(&word), sizeof word);
        }
    }
    for (int i = 0; i < 8; ++i) {
        const std::uint64_t word = next_random(state);
        content.append(reinterpret_cast<const char*>(&word), sizeof word);
    }
    return content;
}

using idcodec_test::Connection;
using idcodec_test::exec;
using idcodec_test::Result;

Connection connect(const std::string& conninfo) {
    return idcodec_test::connect_retrying(conninfo, std::chrono::seconds(60));
}

bool ok(const Result& result) { return idcodec_test::succeeded(result.get()); }

// ---- what the server acknowledged, per worker

enum Kind { shorten_op, resolve_op, insert_op, store_op, kinds };
constexpr const char* kind_name[kinds] = {"shorten", "resolve", "insert", "store"};

struct Account {
    long long id;
    std::string public_id;
    std::string name;
};

struct WorkerLog {
    std::uint64_t attempted[kinds] = {};
    std::uint64_t acknowledged[kinds] = {};
    std::vector<double> latency_ms[kinds];
    std::vector<idcodec_test::Link> shortened;
    idcodec_test::ResolvesByCode resolves;
    std::vector<std::vector<Account>> batches;  // the rows of each acknowledged insert batch
    std::vector<std::string> files;
};

// A worker's connection as the chaos thread sees it.
struct Slot {
    std::mutex mutex;
    PGcancel* cancel = nullptr;
    int backend_pid = 0;
};

struct Chaos {
    std::atomic<std::uint64_t> cancels{0}, terminations{0}, kills{0};
};

void publish(Slot& slot, PGconn* conn) {
    std::lock_guard lock(slot.mutex);
    if (slot.cancel != nullptr) PQfreeCancel(slot.cancel);
    slot.cancel = conn != nullptr ? PQgetCancel(conn) : nullptr;
    slot.backend_pid = conn != nullptr ? PQbackendPID(conn) : 0;
}

void run_worker(const Options& options, const idcodec_test::Link& hot, int index, Slot& slot, WorkerLog& log,
                const std::atomic<bool>& stop) {
    std::mt19937_64 random(options.seed * 1000003 + static_cast<std::uint64_t>(index));
    Connection conn;
    std::uint64_t serial = 0;
    while (!stop) {
        if (!conn || PQstatus(conn.get()) != CONNECTION_OK) {
            publish(slot, nullptr);
            conn = connect(options.conninfo);
            publish(slot, conn.get());
        }
        const std::uint64_t roll = random() % 100;
        const Kind kind = roll < 35 ? shorten_op : roll < 60 ? resolve_op : roll < 85 ? insert_op : store_op;
        const std::string tag = std::to_string(index) + "-" + std::to_string(serial++);
        const auto start = Clock::now();
        bool acknowledged = false;
        if (kind == shorten_op) {
            const std::string url = "https://example.com/chaos/" + tag;
            const Result result = exec(conn.get(), "SELECT chaos.shorten($1)", {url});
            if ((acknowledged = ok(result) && PQntuples(result.get()) == 1))
                log.shortened.emplace_back(url, PQgetvalue(result.get(), 0, 0));
        } else if (kind == resolve_op) {
            const std::string& code = idcodec_test::link_to_follow(random, hot, log.shortened).second;
            idcodec_test::Resolves& resolves = log.resolves[code];
            ++resolves.attempted;
            const Result result = exec(conn.get(), "SELECT chaos.resolve($1)", {code});
            if ((acknowledged = ok(result))) ++resolves.acknowledged;
        } else if (kind == insert_op) {
            // Eight inserts in one pipeline, one implicit transaction: acknowledged by the sync at the end.
            constexpr int batch = 8;
            std::vector<Account> rows;
            bool failed = PQenterPipelineMode(conn.get()) != 1;
            for (int i = 0; i < batch && !failed; ++i) {
                const std::string name = "account " + tag + "/" + std::to_string(i);
                const char* values[] = {name.c_str()};
                failed = PQsendQueryParams(conn.get(),
                                           "INSERT INTO chaos.account (name) VALUES ($1) RETURNING id, public_id", 1,
                                           nullptr, values, nullptr, nullptr, 0) != 1;
                rows.push_back({0, "", name});
            }
            failed = failed || PQpipelineSync(conn.get()) != 1;
            for (int i = 0; i < batch && !failed; ++i) {
                const Result result(PQgetResult(conn.get()));
                if (!result || PQresultStatus(result.get()) != PGRES_TUPLES_OK) {
                    failed = true;
                    break;
                }
                rows[i].id = std::stoll(PQgetvalue(result.get(), 0, 0));
                rows[i].public_id = PQgetvalue(result.get(), 0, 1);
                const Result end(PQgetResult(conn.get()));  // each query's results end with NULL
                failed = end != nullptr;
            }
            if (!failed) {
                const Result sync(PQgetResult(conn.get()));
                acknowledged = sync && PQresultStatus(sync.get()) == PGRES_PIPELINE_SYNC;
            }
            if (PQstatus(conn.get()) == CONNECTION_OK) {
                // drain whatever an error left, so the connection can leave pipeline mode
                for (int guard = 0; guard < 4 * batch && PQpipelineStatus(conn.get()) != PQ_PIPELINE_OFF; ++guard) {
                    while (Result rest{PQgetResult(conn.get())}) {
                        if (PQresultStatus(rest.get()) == PGRES_PIPELINE_SYNC) break;
                    }
                    PQexitPipelineMode(conn.get());
                }
                if (PQpipelineStatus(conn.get()) != PQ_PIPELINE_OFF) conn.reset();
            }
            if (acknowledged) log.batches.push_back(std::move(rows));
        } else {
            const std::string name = "file " + tag;
            const std::string content = file_content(name);
            const Result result = exec(conn.get(), "SELECT chaos.store($1, $2::bytea)", {name, content}, true);
            if ((acknowledged = ok(result))) log.files.push_back(name);
        }
        ++log.attempted[kind];
        if (acknowledged) {
            ++log.acknowledged[kind];
            log.latency_ms[kind].push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
        }
    }
    publish(slot, nullptr);
}

// Cancels a random query about every 50 ms, terminates a random backend about every 400 ms, and once, a third of
// the way in, kills one with SIGKILL (the postmaster then restarts every backend and recovers).
void run_chaos(const Options& options, std::vector<Slot>& slots, Chaos& chaos, const std::atomic<bool>& stop) {
    std::mt19937_64 random(options.seed);
    Connection admin = connect(options.conninfo);
    const auto started = Clock::now();
    bool killed = !options.kill;
    for (std::uint64_t tick = 0; !stop; ++tick) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        Slot& slot = slots[random() % slots.size()];
        if (!killed && Clock::now() - started > std::chrono::seconds(options.seconds) / 3) {
            std::lock_guard lock(slot.mutex);
            if (slot.backend_pid != 0 && ::kill(slot.backend_pid, SIGKILL) == 0) {
                killed = true;
                ++chaos.kills;
            }
            continue;
        }
        if (tick % 8 == 7) {
            int pid;
            {
                std::lock_guard lock(slot.mutex);
                pid = slot.backend_pid;
            }
            if (pid == 0) continue;
            if (PQstatus(admin.get()) != CONNECTION_OK) admin = connect(options.conninfo);
            const Result result = exec(admin.get(), "SELECT pg_terminate_backend($1)", {std::to_string(pid)});
            if (ok(result) && std::string_view(PQgetvalue(result.get(), 0, 0)) == "t") ++chaos.terminations;
        } else {
            std::lock_guard lock(slot.mutex);
            char error[256];
            if (slot.cancel != nullptr && PQcancel(slot.cancel, error, sizeof error) == 1) ++chaos.cancels;
        }
    }
}

using idcodec_test::Verdict;

// The hits of every stored code (a code not stored is counted with its shorten) against the resolves of all workers.
Verdict verify(PGconn* conn, const std::vector<WorkerLog>& logs) {
    Verdict verdict;
    const idcodec_test::ResolvesByCode resolves = idcodec_test::all_resolves(logs);
    const Result hits = exec(conn, "SELECT code, chaos.hits_of('url_code', code) FROM chaos.url_code");
    if (!ok(hits)) ++verdict.wrong;
    for (int i = 0; i < PQntuples(hits.get()); ++i) {
        const auto found = resolves.find(PQgetvalue(hits.get(), i, 0));
        idcodec_test::count_hits(verdict, std::stoull(PQgetvalue(hits.get(), i, 1)),
                                 found != resolves.end() ? found->second : idcodec_test::Resolves{});
    }
    for (const WorkerLog& log : logs) {
        for (const auto& [url, code] : log.shortened) {
            const Result result = exec(conn, "SELECT url FROM chaos.url_code WHERE code = $1", {code});
            verdict.count(PQntuples(result.get()) == 0
                              ? std::nullopt
                              : std::optional(std::string_view(PQgetvalue(result.get(), 0, 0)) == url));
        }
        for (const std::vector<Account>& batch : log.batches) {
            std::optional<bool> correct = true;
            for (const Account& account : batch) {
                const Result result =
                    exec(conn, "SELECT public_id, name FROM chaos.account WHERE id = $1", {std::to_string(account.id)});
                const Result by_public_id =
                    exec(conn, "SELECT id FROM chaos.account WHERE public_id = $1", {account.public_id});
                if (PQntuples(result.get()) == 0) {
                    correct = std::nullopt;
                    break;
                }
                correct = *correct && PQgetvalue(result.get(), 0, 0) == account.public_id &&
                          PQgetvalue(result.get(), 0, 1) == account.name && PQntuples(by_public_id.get()) == 1 &&
                          std::stoll(PQgetvalue(by_public_id.get(), 0, 0)) == account.id;
            }
            verdict.count(correct);
        }
        for (const std::string& name : log.files) {
            const Result result = exec(conn, "SELECT chaos.restore($1) = $2::bytea FROM chaos.file WHERE name = $1",
                                       {name, file_content(name)}, 1);
            verdict.count(PQntuples(result.get()) == 0
                              ? std::nullopt
                              : std::optional(std::string_view(PQgetvalue(result.get(), 0, 0)) == "t"));
        }
    }
    // Nothing half-applied: every stored file, acknowledged or not, restores whole; every public ID is its row's.
    const Result files = exec(conn, "SELECT name FROM chaos.file");
    for (int i = 0; i < PQntuples(files.get()); ++i) {
        const std::string name = PQgetvalue(files.get(), i, 0);
        const Result result = exec(conn, "SELECT chaos.restore($1) = $2::bytea", {name, file_content(name)}, true);
        if (!ok(result) || std::string_view(PQgetvalue(result.get(), 0, 0)) != "t") ++verdict.wrong;
    }
    const Result accounts =
        exec(conn, "SELECT count(*) FROM chaos.account WHERE public_id <> hashids_encode(id, 'chaos accounts', 8)");
    if (!ok(accounts) || std::string_view(PQgetvalue(accounts.get(), 0, 0)) != "0") ++verdict.wrong;
    return verdict;
}

using idcodec_test::percentile;

}  // namespace

int main(int argc, char** argv) {
    const Options options = idcodec_test::parse_load_options(
        argc, argv, Options{"", 32, 20},
        "chaos_driver CONNINFO [--connections N] [--seconds S] [--seed N] [--no-kill]");
    std::vector<Slot> slots(static_cast<std::size_t>(options.connections));
    std::vector<WorkerLog> logs(slots.size());
    Chaos chaos;
    // the viral link, which most resolves follow, shortened before the chaos starts
    idcodec_test::Link hot{"https://example.com/chaos/hot", ""};
    {
        Connection conn = connect(options.conninfo);
        const Result result = exec(conn.get(), "SELECT chaos.shorten($1)", {hot.first});
        if (!ok(result) || PQntuples(result.get()) != 1) {
            std::fprintf(stderr, "chaos: cannot shorten the hot link: %s", PQerrorMessage(conn.get()));
            return 2;
        }
        hot.second = PQgetvalue(result.get(), 0, 0);
    }
    std::atomic<bool> stop{false};
    std::vector<std::thread> workers;
    const auto started = Clock::now();
    for (std::size_t i = 0; i < slots.size(); ++i)
        workers.emplace_back(run_worker, std::cref(options), std::cref(hot), static_cast<int>(i), std::ref(slots[i]),
                             std::ref(logs[i]), std::cref(stop));
    std::thread chaos_thread(run_chaos, std::cref(options), std::ref(slots), std::ref(chaos), std::cref(stop));
    std::this_thread::sleep_for(std::chrono::seconds(options.seconds));
    stop = true;
    for (std::thread& worker : workers) worker.join();
    chaos_thread.join();
    const double seconds = std::chrono::duration<double>(Clock::now() - started).count();
    for (Slot& slot : slots) publish(slot, nullptr);

    Connection conn = connect(options.conninfo);
    const Verdict verdict = verify(conn.get(), logs);
    const idcodec_test::Resolves hot_resolves = idcodec_test::all_resolves(logs)[hot.second];
    const Result hot_hits = exec(conn.get(), "SELECT chaos.hits_of('url_code', $1)", {hot.second});

    std::uint64_t operations = 0, acknowledged = 0;
    std::string per_kind;
    for (int kind = 0; kind < kinds; ++kind) {
        std::vector<double> latencies;
        std::uint64_t attempted = 0, acked = 0;
        for (WorkerLog& log : logs) {
            attempted += log.attempted[kind];
            acked += log.acknowledged[kind];
            latencies.insert(latencies.end(), log.latency_ms[kind].begin(), log.latency_ms[kind].end());
        }
        operations += attempted;
        acknowledged += acked;
        char part[160];
        std::snprintf(part, sizeof part, "; %s %.0f/s p50 %.1f ms p99 %.1f ms", kind_name[kind],
                      static_cast<double>(acked) / seconds, percentile(latencies, 0.5), percentile(latencies, 0.99));
        per_kind += part;
    }
    std::printf(
        "chaos: %d connections, %.0f s; operations %llu, acknowledged %llu, verified %llu, lost %llu, "
        "wrong %llu; cancels %llu, terminations %llu, crashes %llu; hot code: resolves %llu acknowledged of %llu, "
        "hits %s%s\n",
        options.connections, seconds, static_cast<unsigned long long>(operations),
        static_cast<unsigned long long>(acknowledged), static_cast<unsigned long long>(verdict.verified),
        static_cast<unsigned long long>(verdict.lost), static_cast<unsigned long long>(verdict.wrong),
        static_cast<unsigned long long>(chaos.cancels.load()),
        static_cast<unsigned long long>(chaos.terminations.load()), static_cast<unsigned long long>(chaos.kills.load()),
        static_cast<unsigned long long>(hot_resolves.acknowledged),
        static_cast<unsigned long long>(hot_resolves.attempted),
        ok(hot_hits) && PQntuples(hot_hits.get()) == 1 ? PQgetvalue(hot_hits.get(), 0, 0) : "unread", per_kind.c_str());
    const bool every_chaos = chaos.cancels > 0 && chaos.terminations > 0 && (chaos.kills > 0 || !options.kill);
    return verdict.lost == 0 && verdict.wrong == 0 && verdict.verified > 0 && every_chaos ? 0 : 1;
}
