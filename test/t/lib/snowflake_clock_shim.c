/* A slowed, stepped CLOCK_REALTIME for the snowflake suites (test/t/snowflake_pressure.pl and snowflake_clock.pl,
 * which build and drive it through SnowflakeClock.pm beside this file), loaded with LD_PRELOAD into every process of
 * a server. snowflake_generate() reads its milliseconds with clock_gettime(CLOCK_REALTIME); PostgreSQL times itself
 * with gettimeofday (timestamps, timeouts) and CLOCK_MONOTONIC (intervals), which keep real time; only what reads
 * CLOCK_REALTIME sees this clock (here also idcodec's ULIDs and UUIDv7, and PostgreSQL 18's uuidv7()).
 *
 * From the environment, read once (the postmaster's values are inherited by every process it forks):
 *   IDCODEC_CLOCK_ORIGIN_NS       real time (ns since 1970) at which the slowed clock equals the real one
 *   IDCODEC_CLOCK_SLOWDOWN        real nanoseconds per nanosecond shown (default 1)
 *   IDCODEC_CLOCK_STEP_AT_NS      real time from which the clock shown is set back ...
 *   IDCODEC_CLOCK_STEP_BACK_MS    ... by this many milliseconds (default 0: no step)
 * shown = origin + (real - origin) / slowdown, less the step once real >= step_at.
 *
 *   IDCODEC_CLOCK_CONTROL         a control file (64 bytes) that a test rewrites while the server runs, to step the
 *                                 clock of every process at once: once it has been set, it replaces the settings
 *                                 above. It must exist when a process starts (a missing one aborts the process: a
 *                                 test must not run on the real clock by mistake).
 *
 * The control file is mapped shared, so a change is seen by the next clock_gettime of every process, and holds
 * 64-bit words: a sequence (odd while a change is written, 0 before the first), the real time of the change, the
 * time shown then, and the slowdown from then on: shown = base_shown + (real - base_real) / slowdown; then a pause
 * asked for one process. The words are written only by this file compiled as a program (cc -DIDCODEC_CLOCK_TOOL),
 * never by a shell's write, which is not atomic, and a pause is taken back by the process that sleeps it:
 *
 *   snowflake_clock FILE set SHOWN_NS [SLOWDOWN]   from now the clock shows SHOWN_NS (creates FILE if need be)
 *   snowflake_clock FILE step DELTA_MS [SLOWDOWN]  from now it shows what it shows now + DELTA_MS (may be negative)
 *   snowflake_clock FILE show                      changes nothing
 *   snowflake_clock FILE pause PID MS              the next CLOCK_REALTIME reading of process PID (one reading,
 *                                                  once) returns only MS milliseconds after it was taken, as if the
 *                                                  process had been taken off its core just after reading the clock
 *
 * SLOWDOWN, when not given, stays as it was (1 for a new file). Each prints "BASE_REAL_NS SHOWN_NS SLOWDOWN
 * DONE_REAL_NS": the change holds from the real time BASE_REAL_NS (a process reading the clock until DONE_REAL_NS may
 * still see the old one). Other clocks are never changed. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

struct control {
    uint64_t sequence;
    int64_t base_real_ns;
    int64_t base_shown_ns;
    int64_t slowdown;
    int64_t pause_pid; /* set by the tool, taken back to 0 by the process that sleeps */
    int64_t pause_ns;
    char unused[16];
};

/* The clock of a control file that has been set, read consistently (a change is a few stores: retried while one is
 * being written); 0 when it has never been set. */
static int64_t controlled(struct control* control, int64_t real) {
    for (;;) {
        const uint64_t before = __atomic_load_n(&control->sequence, __ATOMIC_ACQUIRE);
        if (before == 0) return 0;
        if (before & 1) {
            sched_yield();
            continue;
        }
        const int64_t base_real = __atomic_load_n(&control->base_real_ns, __ATOMIC_RELAXED);
        const int64_t base_shown = __atomic_load_n(&control->base_shown_ns, __ATOMIC_RELAXED);
        const int64_t slowdown = __atomic_load_n(&control->slowdown, __ATOMIC_RELAXED);
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        if (__atomic_load_n(&control->sequence, __ATOMIC_RELAXED) != before) continue;
        return base_shown + (real - base_real) / (slowdown < 1 ? 1 : slowdown);
    }
}

/* Writable in the processes too, which take a pause back as they begin it. */
static struct control* map_control(const char* path, int create) {
    const int fd = open(path, create ? O_RDWR | O_CREAT : O_RDWR, 0644);
    if (fd < 0) return NULL;
    void* address = MAP_FAILED;
    if (!create || ftruncate(fd, sizeof(struct control)) == 0)
        address = mmap(NULL, sizeof(struct control), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    return address == MAP_FAILED ? NULL : (struct control*)address;
}

#ifndef IDCODEC_CLOCK_TOOL

static int (*real_clock_gettime)(clockid_t, struct timespec*);
static int64_t origin_ns, slowdown = 1, step_at_ns, step_back_ns;
static struct control* control;

static int64_t setting(const char* name, int64_t fallback) {
    const char* value = getenv(name);
    return value != NULL && *value != '\0' ? strtoll(value, NULL, 10) : fallback;
}

/* Also called from clock_gettime itself, should another library's constructor read a clock before this one runs;
 * every call stores the same values. */
__attribute__((constructor)) static void load_settings(void) {
    real_clock_gettime = (int (*)(clockid_t, struct timespec*))dlsym(RTLD_NEXT, "clock_gettime");
    origin_ns = setting("IDCODEC_CLOCK_ORIGIN_NS", 0);
    slowdown = setting("IDCODEC_CLOCK_SLOWDOWN", 1);
    if (slowdown < 1) slowdown = 1;
    step_at_ns = setting("IDCODEC_CLOCK_STEP_AT_NS", 0);
    step_back_ns = setting("IDCODEC_CLOCK_STEP_BACK_MS", 0) * 1000000;
    const char* path = getenv("IDCODEC_CLOCK_CONTROL");
    if (path != NULL && *path != '\0' && control == NULL && (control = map_control(path, 0)) == NULL) {
        fprintf(stderr, "snowflake_clock_shim: cannot map the control file %s\n", path);
        abort();
    }
}

/* The pause asked for this process, if any: taken back (so it is slept once) and slept in full, signals or not. */
static void pause_if_asked(void) {
    if (__atomic_load_n(&control->pause_pid, __ATOMIC_ACQUIRE) == 0) return; /* no getpid() on the common path */
    int64_t pid = getpid();
    const int64_t ns = __atomic_load_n(&control->pause_ns, __ATOMIC_ACQUIRE);
    if (!__atomic_compare_exchange_n(&control->pause_pid, &pid, 0, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) return;
    struct timespec left = {ns / 1000000000, ns % 1000000000};
    while (nanosleep(&left, &left) != 0 && errno == EINTR) {
    }
}

int clock_gettime(clockid_t clock, struct timespec* now) {
    if (real_clock_gettime == NULL) load_settings();
    const int status = real_clock_gettime(clock, now);
    if (status != 0 || clock != CLOCK_REALTIME) return status;
    if (control != NULL) pause_if_asked();
    const int64_t real = (int64_t)now->tv_sec * 1000000000 + now->tv_nsec;
    int64_t shown = control != NULL ? controlled(control, real) : 0;
    if (shown == 0) {
        shown = origin_ns + (real - origin_ns) / slowdown;
        if (step_back_ns != 0 && real >= step_at_ns) shown -= step_back_ns;
    }
    now->tv_sec = shown / 1000000000;
    now->tv_nsec = shown % 1000000000;
    return 0;
}

#else

static int64_t real_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

int main(int argc, char** argv) {
    const int set = argc >= 4 && strcmp(argv[2], "set") == 0, step = argc >= 4 && strcmp(argv[2], "step") == 0;
    const int pause = argc == 5 && strcmp(argv[2], "pause") == 0;
    if (!(((set || step) && argc <= 5) || pause || (argc == 3 && strcmp(argv[2], "show") == 0))) {
        fprintf(stderr, "usage: %s FILE set SHOWN_NS [SLOWDOWN] | step DELTA_MS [SLOWDOWN] | pause PID MS | show\n",
                argv[0]);
        return 2;
    }
    struct control* control = map_control(argv[1], 1);
    if (control == NULL) {
        perror(argv[1]);
        return 1;
    }
    const int64_t now = real_ns();
    int64_t shown = controlled(control, now);
    int64_t slowdown = control->sequence != 0 ? control->slowdown : 1;
    if (shown == 0) shown = now;
    if (pause) {
        __atomic_store_n(&control->pause_ns, strtoll(argv[4], NULL, 10) * 1000000, __ATOMIC_RELAXED);
        __atomic_store_n(&control->pause_pid, strtoll(argv[3], NULL, 10), __ATOMIC_RELEASE);
    }
    if (set || step) {
        shown = set ? strtoll(argv[3], NULL, 10) : shown + strtoll(argv[3], NULL, 10) * 1000000;
        if (argc == 5) slowdown = strtoll(argv[4], NULL, 10);
        if (slowdown < 1) slowdown = 1;
        const uint64_t sequence = control->sequence;
        __atomic_store_n(&control->sequence, sequence + 1, __ATOMIC_RELAXED);
        __atomic_thread_fence(__ATOMIC_RELEASE);
        __atomic_store_n(&control->base_real_ns, now, __ATOMIC_RELAXED);
        __atomic_store_n(&control->base_shown_ns, shown, __ATOMIC_RELAXED);
        __atomic_store_n(&control->slowdown, slowdown, __ATOMIC_RELAXED);
        __atomic_store_n(&control->sequence, sequence + 2, __ATOMIC_RELEASE);
    }
    printf("%lld %lld %lld %lld\n", (long long)now, (long long)shown, (long long)slowdown, (long long)real_ns());
    return 0;
}

#endif
