/* A slowed, stepped CLOCK_REALTIME for the snowflake pressure test (test/integration/snowflake_pressure.sh), loaded
 * with LD_PRELOAD into every process of a server. snowflake_generate() reads its milliseconds with
 * clock_gettime(CLOCK_REALTIME), so here thousands of calls share each millisecond and the generator must borrow from
 * the following ones. PostgreSQL times itself with gettimeofday (timestamps, timeouts) and CLOCK_MONOTONIC
 * (intervals), which keep real time; only what reads CLOCK_REALTIME is slowed (here also idcodec's ULIDs and UUIDv7,
 * and PostgreSQL 18's uuidv7()).
 *
 * From the environment, read once (the postmaster's values are inherited by every process it forks):
 *   IDCODEC_CLOCK_ORIGIN_NS       real time (ns since 1970) at which the slowed clock equals the real one
 *   IDCODEC_CLOCK_SLOWDOWN        real nanoseconds per nanosecond shown (default 1)
 *   IDCODEC_CLOCK_STEP_AT_NS      real time from which the clock shown is set back ...
 *   IDCODEC_CLOCK_STEP_BACK_MS    ... by this many milliseconds (default 0: no step)
 * shown = origin + (real - origin) / slowdown, less the step once real >= step_at. Other clocks are not changed. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

static int (*real_clock_gettime)(clockid_t, struct timespec*);
static int64_t origin_ns, slowdown = 1, step_at_ns, step_back_ns;

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
}

int clock_gettime(clockid_t clock, struct timespec* now) {
    if (real_clock_gettime == NULL) load_settings();
    const int status = real_clock_gettime(clock, now);
    if (status != 0 || clock != CLOCK_REALTIME) return status;
    const int64_t real = (int64_t)now->tv_sec * 1000000000 + now->tv_nsec;
    int64_t shown = origin_ns + (real - origin_ns) / slowdown;
    if (step_back_ns != 0 && real >= step_at_ns) shown -= step_back_ns;
    now->tv_sec = shown / 1000000000;
    now->tv_nsec = shown % 1000000000;
    return 0;
}
