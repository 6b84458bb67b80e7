// SQL functions that generate snowflake IDs in the pgEdge layout, on a node numbered by the setting idcodec.node_id.
//
// Every process of a server takes its tickets from one shared counter in PostgreSQL's own shared memory (a small
// structure taken from the segment's spare space on first use, so nothing needs preloading). The counter never runs
// ahead of the clock. A reservation, written to a file of the data directory about once a second, bounds every
// ticket handed out; the first generation of each life of the server (a start, a restart after a crash, a promotion)
// starts above it and above the clock plus a margin, so no restart, failover or file operation can repeat an ID.
// The reservation is renewed by a background worker of its own (the reserver), asked half a reservation before it
// runs out: no call waits on the disk unless the disk takes longer than that, or no worker can be started.
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/ids/snowflake.hpp"
#include "core/ids/time_ordered.hpp"

#include "pg/entry.hpp"
#include "pg/settings.hpp"
#include "pg/snowflake.hpp"
#include "pg/uuids.hpp"

extern "C" {
#include "access/xlog.h"
#include "common/file_perm.h"
#include "miscadmin.h"
#include "postmaster/bgworker.h"
#include "postmaster/interrupt.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/lwlock.h"
#include "storage/proc.h"
#include "storage/shmem.h"
#include "utils/wait_event.h"
}

using namespace idcodec::snowflake;
using namespace idcodec::pg;

namespace {

int node_id = -1;  // the setting idcodec.node_id; -1 until a superuser sets it

constexpr const char* node_setting = "idcodec.node_id";
// Relative to the data directory, every backend's working directory.
constexpr const char* reservation_file = "idcodec_snowflake";
constexpr std::int64_t epoch_unix_ms = pgedge.epoch_unix_us / us_per_ms;

// The name of the generator's structure in shared memory (pg_shmem_allocations) and of its lock's tranche (the wait
// event of a process waiting for it).
constexpr const char* shared_name = "idcodec snowflake";

// The generator's state in shared memory; every field but the lock is read and written atomically. Zero, as the
// segment's spare space is, means a life that has not started. (Its size differs from 1.6.1's and 1.6.2's, whose
// processes start a life under another lock: under a library updated in a running server, ShmemInitStruct refuses
// whichever version comes second, so the two never share a counter.)
struct SharedGenerator {
    std::uint64_t last_ticket;
    std::uint64_t reserved_units;  // every ticket handed out has a time part below this; the file holds it
    std::uint64_t life_floor;      // the time part this life started from: tickets below it may have been taken
    std::uint32_t reserving;       // 1 while a process writes a new reservation
    std::uint32_t started;         // 1 once this life's first generation has set the counter above its floor
    // Times in the clock's time part: when a call last asked for a renewal the reserver has not made yet (0: none),
    // when a reserver was registered that has not started yet (0: none); and the running reserver (null: none).
    std::uint64_t renewal_asked;
    std::uint64_t reserver_registered;
    PGPROC* reserver;
    int life_tranche;
    // Held by the process that starts a life, across its reads and writes of the file: a tranche of idcodec's own,
    // so that a slow disk holds up no other extension's start and a wait on it is named.
    LWLock life_lock;
};
// 1.6.1's and 1.6.2's size (above)
static_assert(sizeof(SharedGenerator) != 32);

// A request the reserver has not taken up this long after it was made is made again (its wake-up can be lost to a
// reserver that was stopping), and a reserver not running this long after it was registered is registered again.
constexpr std::uint64_t renewal_request_retry_ms = 100;
constexpr std::uint64_t reserver_start_limit_ms = 1000;

SharedGenerator* attached = nullptr;  // this process's address of the structure

// Finds the structure, making it if this process is the first to ask, and names its lock's tranche in this process
// (the postmaster, when preloaded: its children inherit the name).
void attach_shared_generator() {
    bool found;
    LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
    auto* structure = static_cast<SharedGenerator*>(ShmemInitStruct(shared_name, sizeof(SharedGenerator), &found));
    if (!found) {
        memset(structure, 0, sizeof(SharedGenerator));
        structure->life_tranche = LWLockNewTrancheId();
        LWLockInitialize(&structure->life_lock, structure->life_tranche);
    }
    LWLockRelease(AddinShmemInitLock);
    LWLockRegisterTranche(structure->life_tranche, shared_name);
    attached = structure;
}

SharedGenerator& shared_generator() {
    if (attached == nullptr) attach_shared_generator();
    return *attached;
}

std::int64_t unix_ms_of_units(std::uint64_t units) { return epoch_unix_ms + static_cast<std::int64_t>(units); }

[[noreturn]] void refuse_reservation_file(const char* problem) {
    ereport(ERROR, (errcode(ERRCODE_DATA_CORRUPTED),
                    errmsg("the snowflake reservation file \"%s\" %s", reservation_file, problem),
                    errhint("Stop the server, remove the file and start it again: IDs then start above the clock.")));
    pg_unreachable();
}

// Why the file could not be used: errno's value, or what is there instead of a file the server can use (in the words
// of its refusal); neither when it could.
struct FileProblem {
    int error = 0;
    const char* unusable = nullptr;
};

// One SQLSTATE for every kind of unusable file, whether a life's start or a renewal finds it: the fix is the same.
[[noreturn]] void refuse_unusable_file(const char* unusable) {
    ereport(ERROR,
            (errcode(ERRCODE_DATA_CORRUPTED),
             errmsg("the snowflake reservation file \"%s\" %s", reservation_file, unusable),
             errhint("Remove what is there, or make it the server's file again (a regular file of the data directory "
                     "that the server's user can read and write). Without the file, the first generation after a start "
                     "begins above the clock; a running server writes the file again.")));
    pg_unreachable();
}

// Opens the file to read and write it, only as a regular file of the data directory itself (a symbolic link or
// anything else there is refused, as the server's own files are), and never waits: a FIFO would hold an open up until
// a process opened its other end. A descriptor, or -1 and `problem` says why.
int open_reservation_file(int create, FileProblem& problem) {
    const int fd = open(reservation_file, O_RDWR | create | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, pg_file_create_mode);
    if (fd < 0) {
        problem.error = errno;
        switch (problem.error) {
            case ELOOP:
                problem.unusable = "is a symbolic link";
                break;
            case EISDIR:
                problem.unusable = "is a directory";
                break;
            case EACCES:
            case EPERM:
                problem.unusable = "cannot be read and written by the server's user";
                break;
            case ENXIO:  // a socket, or a device file with no device
                problem.unusable = "is not a regular file";
                break;
        }
        return -1;
    }
    struct stat status;
    if (fstat(fd, &status) != 0) {
        problem.error = errno;
        close(fd);
        return -1;
    }
    if (!S_ISREG(status.st_mode)) {
        problem.unusable = S_ISFIFO(status.st_mode) ? "is a FIFO" : "is not a regular file";
        close(fd);
        return -1;
    }
    return fd;
}

// What the file says; nothing reserved when there is no file.
ReadReservation read_reservation_file() {
    FileProblem problem;
    const int fd = open_reservation_file(0, problem);
    if (fd < 0 && problem.error == ENOENT) return {ReadReservation::Outcome::none};
    if (problem.unusable != nullptr) refuse_unusable_file(problem.unusable);
    if (fd < 0) {
        errno = problem.error;
        ereport(ERROR, (errcode_for_file_access(),
                        errmsg("could not open the snowflake reservation file \"%s\": %m", reservation_file)));
    }
    char bytes[reservation_file_size + 1];
    const ssize_t length = pread(fd, bytes, sizeof bytes, 0);
    const int read_errno = errno;
    close(fd);
    if (length < 0) {
        errno = read_errno;
        ereport(ERROR, (errcode_for_file_access(),
                        errmsg("could not read the snowflake reservation file \"%s\": %m", reservation_file)));
    }
    const ReadReservation read = read_reservation_record(std::string_view(bytes, static_cast<std::size_t>(length)));
    if (read.outcome == ReadReservation::Outcome::malformed) refuse_reservation_file("holds no reservation");
    return read;
}

// 1.6.0's processes (a library updated under a running server) map the file and count on in its first 8 bytes: they
// are stopped by swapping those bytes, atomically, for the record's first (no ticket to them), and what they had
// counted to is what the swap returns.
ReadReservation take_over_ticket_word() {
    FileProblem problem;
    const int fd = open_reservation_file(0, problem);
    if (problem.unusable != nullptr) refuse_unusable_file(problem.unusable);
    if (fd < 0) refuse_reservation_file("could not be opened to take 1.6.0's counter over");
    void* address = mmap(nullptr, reservation_file_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (address == MAP_FAILED) refuse_reservation_file("could not be mapped to take 1.6.0's counter over");
    char bytes[reservation_file_size];
    std::uint64_t tag;
    memcpy(&tag, reservation_record(0).data(), sizeof tag);
    const std::uint64_t counted = std::atomic_ref(*static_cast<std::uint64_t*>(address)).exchange(tag);
    memcpy(bytes, address, sizeof bytes);
    memcpy(bytes, &counted, sizeof counted);
    munmap(address, reservation_file_size);
    const ReadReservation read = read_reservation_record(std::string_view(bytes, sizeof bytes));
    if (read.outcome != ReadReservation::Outcome::ticket_word) refuse_reservation_file("holds no reservation");
    return read;
}

// Writes a reservation up to `until` and makes it durable; what went wrong, if anything (no error is raised here: the
// caller may hold the reserving flag).
FileProblem write_reservation(std::uint64_t until) {
    FileProblem problem;
    const int fd = open_reservation_file(O_CREAT, problem);
    if (fd < 0) return problem;
    const std::array<char, reservation_file_size> record = reservation_record(unix_ms_of_units(until));
    // In place, never truncated: a process still running 1.6.0's code maps this file and reads its first bytes.
    if (pwrite(fd, record.data(), record.size(), 0) != static_cast<ssize_t>(record.size()))
        problem.error = errno ? errno : EIO;
    else if (fdatasync(fd) != 0)
        problem.error = errno;
    close(fd);
    return problem;
}

void refuse_unwritten(const FileProblem& problem) {
    if (problem.unusable != nullptr) refuse_unusable_file(problem.unusable);
    if (problem.error != 0) {
        errno = problem.error;
        ereport(ERROR, (errcode_for_file_access(),
                        errmsg("could not write the snowflake reservation file \"%s\": %m", reservation_file),
                        errdetail("No ID is made past the reservation that is on disk.")));
    }
}

// Registers the reserver with the postmaster unless one runs or is starting; false when no background worker slot is
// free.
bool start_reserver(SharedGenerator& shared, std::uint64_t now_units) {
    if (std::atomic_ref(shared.reserver).load() != nullptr) return true;
    std::atomic_ref registered(shared.reserver_registered);
    std::uint64_t at = registered.load(std::memory_order_acquire);
    if (at != 0 && now_units < at + reserver_start_limit_ms) return true;
    if (!registered.compare_exchange_strong(at, now_units)) return true;
    BackgroundWorker worker;
    memset(&worker, 0, sizeof worker);
    // connected to no database (the shared catalogs only), which shows it in pg_stat_activity
    worker.bgw_flags = BGWORKER_SHMEM_ACCESS | BGWORKER_BACKEND_DATABASE_CONNECTION;
    worker.bgw_start_time = BgWorkerStart_RecoveryFinished;
    worker.bgw_restart_time = BGW_NEVER_RESTART;
    strlcpy(worker.bgw_library_name, "idcodec", sizeof worker.bgw_library_name);
    strlcpy(worker.bgw_function_name, "idcodec_snowflake_reserver", sizeof worker.bgw_function_name);
    strlcpy(worker.bgw_name, "idcodec snowflake reserver", sizeof worker.bgw_name);
    strlcpy(worker.bgw_type, "idcodec snowflake reserver", sizeof worker.bgw_type);
    if (RegisterDynamicBackgroundWorker(&worker, nullptr)) return true;
    registered.store(0);
    return false;
}

// The first generation of this life of the server: the counter starts at the later of the reservation and the clock
// plus the start margin (waited for like a clock that stepped back). The reserver is started with the life, so that
// it runs before the first renewal is asked of it: a worker's start can take longer than the renewal's lead.
void start_life(SharedGenerator& shared, std::uint64_t now_units) {
    LWLockAcquire(&shared.life_lock, LW_EXCLUSIVE);
    const bool starting = std::atomic_ref(shared.started).load(std::memory_order_acquire) == 0;
    if (starting) {
        ReadReservation read = read_reservation_file();
        if (read.outcome == ReadReservation::Outcome::ticket_word) read = take_over_ticket_word();
        const std::int64_t reserved_ms = std::max<std::int64_t>(read.unix_ms, epoch_unix_ms);
        const auto reserved_units = static_cast<std::uint64_t>(reserved_ms - epoch_unix_ms);
        // a clock at the layout's end reserves at most this far; a larger value was not written here
        if (reserved_units > (std::uint64_t{1} << pgedge.time_bits()) + reservation_ms)
            refuse_reservation_file("holds a reservation past the end of the IDs' time");
        const std::uint64_t floor = std::max(reserved_units, now_units + start_margin_ms);
        // The life's first reservation, written while its first call waits for the clock to reach the floor (and in
        // this life's form: after a take-over, 1.6.0's tickets are below it). Past the layout's end nothing is handed
        // out, and a reservation stays within what the check above accepts.
        const std::uint64_t until = std::min(floor, std::uint64_t{1} << pgedge.time_bits()) + reservation_ms;
        refuse_unwritten(write_reservation(until));
        std::atomic_ref(shared.last_ticket).store((floor << pgedge.counter_bits) - 1, std::memory_order_relaxed);
        std::atomic_ref(shared.life_floor).store(floor, std::memory_order_relaxed);
        std::atomic_ref(shared.reserved_units).store(until, std::memory_order_relaxed);
        std::atomic_ref(shared.started).store(1, std::memory_order_release);
    }
    LWLockRelease(&shared.life_lock);
    if (starting) (void)start_reserver(shared, now_units);  // without one, the calls renew the reservation themselves
}

// Raises the reservation to the clock plus its length, unless another process is doing so; whether this one tried.
// What went wrong writing it is left in `problem` (the reserver, a background worker, has no caller to tell).
bool try_raise_reservation(SharedGenerator& shared, std::uint64_t now_units, FileProblem& problem) {
    std::uint32_t idle = 0;
    if (!std::atomic_ref(shared.reserving).compare_exchange_strong(idle, 1, std::memory_order_acquire)) return false;
    // never below what is reserved already (this process's clock reading may be older than another's)
    const std::uint64_t until =
        std::max(now_units + reservation_ms, std::atomic_ref(shared.reserved_units).load(std::memory_order_acquire));
    problem = write_reservation(until);
    if (problem.error == 0 && problem.unusable == nullptr)
        std::atomic_ref(shared.reserved_units).store(until, std::memory_order_release);
    std::atomic_ref(shared.reserving).store(0, std::memory_order_release);
    return true;
}

// try_raise_reservation for a call, which raises what went wrong.
bool raise_reservation(SharedGenerator& shared, std::uint64_t now_units) {
    FileProblem problem;
    const bool tried = try_raise_reservation(shared, now_units, problem);
    refuse_unwritten(problem);
    return tried;
}

// Asks the reserver to renew the reservation, registering one when none runs; false when none runs nor can be
// registered (the caller then renews it itself). A request is made once: later calls see it, unless it has waited
// too long.
bool ask_for_renewal(SharedGenerator& shared, std::uint64_t now_units) {
    std::atomic_ref asked(shared.renewal_asked);
    std::uint64_t seen = asked.load(std::memory_order_acquire);
    if (seen != 0 && now_units < seen + renewal_request_retry_ms) return true;
    if (!asked.compare_exchange_strong(seen, now_units)) return true;  // another call asks
    // The request is stored before the reserver is looked for, and the reserver stores itself before it looks for a
    // request (both sequentially consistent): one of the two sees the other.
    if (PGPROC* reserver = std::atomic_ref(shared.reserver).load()) {
        SetLatch(&reserver->procLatch);
        return true;
    }
    if (start_reserver(shared, now_units)) return true;  // it takes the request up when it starts
    asked.store(0);
    return false;
}

// The clock in microseconds since 1970.
std::int64_t clock_unix_us() {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return static_cast<std::int64_t>(now.tv_sec) * 1'000'000 + now.tv_nsec / 1000;
}

// Waits for the clock to reach `unix_us`: asleep in slices short enough for a cancel to be seen at once, and the last
// tenth of a millisecond awake (the caller reads the clock again), as a sleep overshoots by about that much and a
// node at full demand would otherwise lose part of every millisecond.
void wait_for_clock(std::int64_t now_us, std::int64_t unix_us) {
    CHECK_FOR_INTERRUPTS();
    constexpr std::int64_t awake_us = 100;
    if (unix_us - now_us > awake_us) pg_usleep(std::min<std::int64_t>(unix_us - now_us - awake_us, 10'000));
}

// The shared counter, outside recovery: a standby carries its primary's data directory and settings, and IDs made
// there would repeat the primary's (nor may its life start before the promotion, which sets its floor).
SharedGenerator& live_generator(const char* function) {
    if (RecoveryInProgress())
        ereport(ERROR, (errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
                        errmsg("%s: cannot generate IDs during recovery", function),
                        errdetail("A standby holds its primary's node number and would repeat its IDs."),
                        errhint("Generate IDs on the primary; a promoted standby generates again.")));
    return shared_generator();
}

// The clock's milliseconds since the layout's epoch.
std::uint64_t clock_units(std::int64_t now_us, const char* function) {
    if (now_us < pgedge.epoch_unix_us)
        ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                        errmsg("%s: the system clock is before 2023-01-01, where the IDs' time begins", function)));
    return static_cast<std::uint64_t>(now_us / us_per_ms - epoch_unix_ms);
}

[[noreturn]] void refuse_clock_behind(std::uint64_t next_units, std::uint64_t now_units) {
    char* next_time = pstrdup(timestamptz_to_str(timestamptz_of_unix_us(unix_ms_of_units(next_units) * us_per_ms)));
    ereport(ERROR,
            (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
             errmsg("snowflake_generate: the clock is %llu ms behind the IDs this node may have made",
                    static_cast<unsigned long long>(next_units - now_units)),
             errdetail("The next ID's time is %s and the clock reads %s; an ID is never made ahead of the clock, "
                       "and one of the clock's time could repeat an ID made before.",
                       next_time, timestamptz_to_str(timestamptz_of_unix_us(unix_ms_of_units(now_units) * us_per_ms))),
             errhint("IDs come again once the clock passes that time (a gap of up to %llu ms is waited for). If the "
                     "clock had run ahead and is right now: stop the server, remove the file \"%s\" from its data "
                     "directory and start it again.",
                     static_cast<unsigned long long>(clock_wait_limit_ms), reservation_file)));
    pg_unreachable();
}

}  // namespace

namespace idcodec::pg {

void define_snowflake_setting() {
    define_keeping_configured(node_setting, [] {
        DefineCustomIntVariable(node_setting, "This node's number in the snowflake IDs it generates (0 to 1023).",
                                "-1, the default, leaves it unset: snowflake_generate() then fails. No two nodes "
                                "that write the same tables may share a number.",
                                &node_id, -1, -1, 1023, PGC_SUSET, 0, nullptr, nullptr, nullptr);
    });
}

void reserve_snowflake_memory() {
    // Preloaded, the structure's space is asked for with the rest of the segment rather than taken from its spare, and
    // the postmaster makes it (again after a crash, in the new segment), so every process knows its tranche's name.
    static shmem_request_hook_type previous_request = nullptr;
    previous_request = shmem_request_hook;
    shmem_request_hook = [] {
        if (previous_request != nullptr) previous_request();
        RequestAddinShmemSpace(sizeof(SharedGenerator));
    };
    static shmem_startup_hook_type previous_startup = nullptr;
    previous_startup = shmem_startup_hook;
    shmem_startup_hook = [] {
        if (previous_startup != nullptr) previous_startup();
        attach_shared_generator();
    };
}

}  // namespace idcodec::pg

// snowflake_generate() → bigint
IDCODEC_SQL_FUNCTION(idcodec_snowflake_generate) {
    if (node_id < 0)
        ereport(ERROR,
                (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                 errmsg("snowflake_generate: idcodec.node_id is not set"),
                 errdetail("Every ID holds the number of the node that made it, 0 to 1023."),
                 errhint("A superuser gives each node its own: LOAD 'idcodec'; ALTER SYSTEM SET idcodec.node_id = 1; "
                         "SELECT pg_reload_conf();")));
    SharedGenerator& shared = live_generator("snowflake_generate");
    for (;;) {
        std::int64_t now_us = clock_unix_us();
        const std::uint64_t now_units = clock_units(now_us, "snowflake_generate");
        if (std::atomic_ref(shared.started).load(std::memory_order_acquire) == 0) start_life(shared, now_units);
        const TicketCounter::Take take = TicketCounter(shared.last_ticket, shared.reserved_units)
                                             .take(now_units, pgedge, clock_wait_limit_ms, reservation_ms);
        // A process taken off its core between reading the clock and taking a ticket finds the tickets of the time
        // it lost taken meanwhile: judged by that old reading, the clock would look behind by that time, and the
        // call would wait for it once more, or refuse past the limit. The clock is read again before either.
        if (take.outcome != TicketCounter::Take::Outcome::taken) {
            now_us = clock_unix_us();
            if (clock_units(now_us, "snowflake_generate") != now_units) {
                CHECK_FOR_INTERRUPTS();
                continue;
            }
        }
        switch (take.outcome) {
            case TicketCounter::Take::Outcome::taken:
                if (take.renew && !ask_for_renewal(shared, now_units)) raise_reservation(shared, now_units);
                PG_RETURN_INT64(compose(take.ticket, static_cast<std::uint32_t>(node_id), pgedge));
            case TicketCounter::Take::Outcome::reserve:
                // The reservation is spent: the reserver is late (a disk slower than half a reservation) or not
                // running. This call writes it, unless another process is doing so: then it is on disk within a
                // moment.
                if (!raise_reservation(shared, now_units)) wait_for_clock(now_us, now_us + 200);
                break;
            case TicketCounter::Take::Outcome::wait:
                wait_for_clock(now_us, unix_ms_of_units(take.units) * us_per_ms);
                break;
            case TicketCounter::Take::Outcome::clock_behind:
                // The life's floor is the reservation, up to its length past the last ID before a restart: a clock
                // that stepped back by as much as is waited for, then a crash, is waited for as well.
                if (take.units <= std::atomic_ref(shared.life_floor).load(std::memory_order_relaxed) &&
                    take.units - now_units <= clock_wait_limit_ms + reservation_ms) {
                    wait_for_clock(now_us, unix_ms_of_units(take.units) * us_per_ms);
                    break;
                }
                refuse_clock_behind(take.units, now_units);
            case TicketCounter::Take::Outcome::spent:
                ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                                errmsg("snowflake_generate: the IDs' 41 bits of milliseconds since 2023 are spent")));
        }
    }
}

// The reserver: a background worker that keeps the reservation half of its length or more ahead of the clock, renewing
// it as soon as less is left, whether calls come or not: a reservation left to run out would make the next call, after
// a pause of a second, write and sync the file itself. A call that finds it within that half asks at once (the
// reserver may be late: a slow disk, no core). It reports nothing: a reservation it fails to write runs out, and the
// call that finds it spent writes it and raises what went wrong; the reserver tries again half a reservation later.
extern "C" PGDLLEXPORT void idcodec_snowflake_reserver(Datum);

void idcodec_snowflake_reserver(Datum) {
    pqsignal(SIGTERM, SignalHandlerForShutdownRequest);
    BackgroundWorkerUnblockSignals();
    BackgroundWorkerInitializeConnection(nullptr, nullptr, 0);
    SharedGenerator& shared = shared_generator();
    std::atomic_ref(shared.reserver).store(MyProc);
    std::atomic_ref(shared.reserver_registered).store(0);
    before_shmem_exit([](int, Datum) { std::atomic_ref(shared_generator().reserver).store(nullptr); }, 0);
    std::atomic_ref asked(shared.renewal_asked);
    constexpr std::uint64_t half = reservation_ms / 2;
    while (!ShutdownRequestPending) {
        ResetLatch(MyLatch);
        // A signal's requests: above all a barrier, which some commands (DROP DATABASE among them) wait for every
        // process to absorb, and which a process asleep on its latch absorbs only here.
        CHECK_FOR_INTERRUPTS();
        std::uint64_t request = asked.load();
        const std::uint64_t now_units = clock_units(clock_unix_us(), "the snowflake reserver");
        const std::uint64_t reserved = std::atomic_ref(shared.reserved_units).load(std::memory_order_acquire);
        // until the reservation is half spent (a clock stepped back finds it further ahead: look again meanwhile);
        // past the end of the IDs' time nothing is handed out, and nothing is reserved beyond the reservation there
        long wait_ms = static_cast<long>(reserved > now_units + half ? std::min(reserved - now_units - half, half) : 0);
        if (wait_ms == 0 && now_units >= (std::uint64_t{1} << pgedge.time_bits())) wait_ms = static_cast<long>(half);
        if (wait_ms == 0) {
            FileProblem problem;
            if (!try_raise_reservation(shared, now_units, problem))
                wait_ms = 1;  // another process is writing it: look again in a moment
            else if (problem.error != 0 || problem.unusable != nullptr)
                wait_ms = static_cast<long>(half);  // not again at once: the call that finds it spent says why
        }
        // a request made before this look is answered by it (a later one has set the latch)
        if (wait_ms != 1 && request != 0) asked.compare_exchange_strong(request, 0);
        if (wait_ms == 0) continue;
        (void)WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, wait_ms, PG_WAIT_EXTENSION);
    }
}

// snowflake_generate_above(id bigint) → void
IDCODEC_SQL_FUNCTION(idcodec_snowflake_generate_above) {
    const std::int64_t id = PG_GETARG_INT64(0);
    if (id < 0)
        ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                        errmsg("snowflake_generate_above: a snowflake ID is not negative (got %lld)",
                               static_cast<long long>(id))));
    SharedGenerator& shared = live_generator("snowflake_generate_above");
    const std::uint64_t now_units = clock_units(clock_unix_us(), "snowflake_generate_above");
    // Only an ID of a millisecond the clock has passed: the counter never goes ahead of the clock, and no role can
    // make the node wait or refuse by naming a future one.
    const std::uint64_t units = time_units(id, pgedge);
    if (units >= now_units)
        ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                        errmsg("snowflake_generate_above: the ID is not of a millisecond the clock has passed"),
                        errdetail("ID %lld is of %s.", static_cast<long long>(id),
                                  timestamptz_to_str(timestamptz_of_unix_us(unix_ms_of_units(units) * us_per_ms)))));
    if (std::atomic_ref(shared.started).load(std::memory_order_acquire) == 0) start_life(shared, now_units);
    // every ticket of that millisecond counts as taken: after a step back of the clock, the node waits past it
    const std::uint64_t spent = units << pgedge.counter_bits | ((std::uint64_t{1} << pgedge.counter_bits) - 1);
    std::atomic_ref last(shared.last_ticket);
    std::uint64_t seen = last.load(std::memory_order_relaxed);
    while (seen < spent && !last.compare_exchange_weak(seen, spent, std::memory_order_acq_rel)) {
    }
    // and the reservation on disk covers it, for a restart with the clock behind
    if (std::atomic_ref(shared.reserved_units).load(std::memory_order_acquire) <= units)
        raise_reservation(shared, now_units);
    PG_RETURN_VOID();
}
