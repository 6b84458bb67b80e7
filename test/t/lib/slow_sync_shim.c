/* A slow disk under the snowflake reservation file, for test/t/snowflake_disk.pl, loaded with LD_PRELOAD into every
 * process of a server: fdatasync() of the file named idcodec_snowflake takes IDCODEC_SLOW_SYNC_MS milliseconds, no
 * more and no less (it only waits: a real sync on a busy machine would add a time the test cannot know, and these
 * throwaway servers need no durable file), and each such sync appends "PID START_US END_US" (real time) to the file IDCODEC_SLOW_SYNC_LOG, so that a test can
 * tell which process waited on it and when. Every other file syncs as it always does. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static int is_reservation_file(int fd) {
    char link[64];
    char path[4096];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    const ssize_t length = readlink(link, path, sizeof path - 1);
    if (length < 0) return 0;
    path[length] = '\0';
    const char* name = strrchr(path, '/');
    return name != NULL && strcmp(name + 1, "idcodec_snowflake") == 0;
}

static long long real_us(void) {
    struct timeval now;
    gettimeofday(&now, NULL);
    return (long long)now.tv_sec * 1000000 + now.tv_usec;
}

int fdatasync(int fd) {
    static int (*real_fdatasync)(int);
    if (real_fdatasync == NULL) real_fdatasync = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    const char* delay = getenv("IDCODEC_SLOW_SYNC_MS");
    if (delay == NULL || !is_reservation_file(fd)) return real_fdatasync(fd);
    const long long start = real_us();
    const long ms = atol(delay);
    const struct timespec pause = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&pause, NULL);
    const char* log = getenv("IDCODEC_SLOW_SYNC_LOG");
    if (log != NULL) {
        char line[96];
        const int length = snprintf(line, sizeof line, "%d %lld %lld\n", (int)getpid(), start, real_us());
        const int out = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
        if (out >= 0) {
            /* one write with O_APPEND: lines of processes syncing at once do not mix (a failed one leaves a line
             * missing, which the test sees) */
            (void)!write(out, line, (size_t)length);
            close(out);
        }
    }
    return 0;
}
