#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/common/secret.hpp"
#include "core/crypt/keyring.hpp"

#include "pg/bridge.hpp"
#include "pg/keyring.hpp"
#include "pg/postgres.hpp"
#include "pg/settings.hpp"

extern "C" {
#include "access/parallel.h"
}

namespace idcodec::pg {

namespace {

// A keyring is a few lines a key; anything larger is no keyring.
constexpr off_t max_keyring_bytes = 1 << 20;
constexpr const char* keyring_setting = "idcodec.keyring_file";

char* keyring_file = nullptr;   // the setting: the file's path
const char* keyring = nullptr;  // the file's text (the setting's "extra"); null when no file is set
std::uint64_t generation = 0;
// Why the file last named could not be used (empty when it could): told to whoever then asks for a named key. It
// never holds the path, which only superusers may see.
char keyring_problem[256] = "";
// True while this process defines the setting (loads idcodec), when a refused file is logged with its path.
bool defining = false;

// Refuses the file for the reason given (kept in keyring_problem), with a message of the hook's own: the server
// would otherwise write one quoting the setting.
bool refuse(const char* path, const char* reason, ...) pg_attribute_printf(2, 3);
bool refuse(const char* path, const char* reason, ...) {
    va_list arguments;
    va_start(arguments, reason);
    vsnprintf(keyring_problem, sizeof keyring_problem, reason, arguments);
    va_end(arguments);
    // The path goes to the server's log only, so the error of a named key can send an administrator there. It is
    // written where PostgreSQL reports a setting's refusal: by the postmaster (at start, on a reload) and by a
    // backend loading idcodec; backends re-reading the file on a reload would only repeat the postmaster's line.
    if (defining || !IsUnderPostmaster)
        ereport(LOG_SERVER_ONLY,
                (errmsg("idcodec cannot use the keyring file \"%s\"", path), errdetail("%s", keyring_problem)));
    GUC_check_errcode(ERRCODE_CONFIG_FILE_ERROR);
    // Not the path: a backend loading idcodec tells this to its client, who may not see the setting.
    GUC_check_errmsg("the file named in idcodec.keyring_file cannot be used");
    GUC_check_errdetail("%s", keyring_problem);
    return false;
}

// The check hook reads the file, so SHOW and the logs only ever see its path. Like PostgreSQL's ssl_key_file, it
// must be a regular file owned by the server's user with no access for group or others, or owned by root and at
// most readable by its group. A parallel worker, which gets the setting from its leader, reads nothing: it never
// answers from the keyring, and a file broken since the leader read it must not fail the worker's other work.
bool read_keyring_file(char** newval, void** extra, GucSource) {
    const char* path = *newval;
    *extra = nullptr;
    if (path == nullptr || *path == '\0' || InitializingParallelWorker || IsParallelWorker()) return true;
    // O_NONBLOCK: opening a FIFO must not wait for a writer (the file is checked to be a regular one below).
    const int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) return refuse(path, "The file could not be opened: %s.", strerror(errno));
    struct stat status;
    if (fstat(fd, &status) != 0) {
        const int saved_errno = errno;
        close(fd);
        return refuse(path, "The file could not be examined: %s.", strerror(saved_errno));
    }
    const bool own = status.st_uid == geteuid(), root = status.st_uid == 0;
    const char* problem = nullptr;
    if (!S_ISREG(status.st_mode))
        problem = "It is not a regular file.";
    else if (!own && !root)
        problem = "It must be owned by the database user or root.";
    else if ((own && (status.st_mode & (S_IRWXG | S_IRWXO)) != 0) ||
             (root && (status.st_mode & (S_IWGRP | S_IXGRP | S_IRWXO)) != 0))
        problem =
            "It has group or world access: its permissions must be u=rw (0600) or less if it is owned by the "
            "database user, or u=rw,g=r (0640) or less if owned by root.";
    else if (status.st_size > max_keyring_bytes)
        problem = "It is larger than 1 MB.";
    if (problem != nullptr) {
        close(fd);
        return refuse(path, "%s", problem);
    }
    const auto size = static_cast<std::size_t>(status.st_size);
    auto* text = static_cast<char*>(setting_memory(size + 1));
    if (text == nullptr) {
        close(fd);
        GUC_check_errcode(ERRCODE_OUT_OF_MEMORY);
        GUC_check_errmsg("out of memory");
        return false;
    }
    std::size_t got = 0;
    int saved_errno = 0;
    while (got < size) {
        const ssize_t n = read(fd, text + got, size - got);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) saved_errno = errno;
        if (n <= 0) break;
        got += static_cast<std::size_t>(n);
    }
    close(fd);
    text[got] = '\0';
    CapturedError error;
    const bool read_whole = got == size;
    // A NUL byte would end the text early: no keyring holds one.
    const bool holds_nul = read_whole && std::memchr(text, '\0', size) != nullptr;
    if (!read_whole || holds_nul ||
        !capturing([&] { idcodec::crypt::check_keyring(std::string_view(text, size)); }, error)) {
        idcodec::wipe(text, size + 1);
        free_setting_memory(text);
        if (!read_whole)
            return saved_errno != 0 ? refuse(path, "The file could not be read: %s.", strerror(saved_errno))
                                    : refuse(path, "The file changed while it was read.");
        if (holds_nul) return refuse(path, "The file holds a NUL byte.");
        return refuse(path, "The file is malformed: %s.", error.message);
    }
    *extra = text;
    return true;
}

void use_keyring(const char*, void* extra) {
    keyring = static_cast<const char*>(extra);
    keyring_problem[0] = '\0';
    ++generation;
}

}  // namespace

void define_keyring_setting() {
    defining = true;
    // SIGHUP: set only in the configuration files (so only by a superuser), and read again on a reload.
    // GUC_SUPERUSER_ONLY: only superusers and members of pg_read_all_settings see even the path.
    define_keeping_configured(keyring_setting, [] {
        DefineCustomStringVariable(keyring_setting,
                                   "File of named FF1 keys for idcrypt_encode and idcrypt_decode (key_name => ...).",
                                   "Lines of name = hex (32, 48 or 64 hex digits), # for comments. The file must be "
                                   "readable by the server's user only (0600). Read at start and on every reload.",
                                   &keyring_file, "", PGC_SIGHUP, GUC_SUPERUSER_ONLY | GUC_NOT_IN_SAMPLE,
                                   read_keyring_file, use_keyring, nullptr);
    });
    defining = false;
}

std::string_view keyring_text() {
    if (IsParallelWorker())
        ereport(ERROR, (errcode(ERRCODE_INVALID_TRANSACTION_STATE),
                        errmsg("idcodec named keys cannot be used in a parallel worker"),
                        errdetail("The forms of idcrypt_encode and idcrypt_decode taking key_name are PARALLEL "
                                  "RESTRICTED: they run only in the leader of a parallel plan."),
                        errhint("Declare the function that calls them PARALLEL RESTRICTED.")));
    if (keyring == nullptr) {
        if (keyring_problem[0] != '\0')
            ereport(ERROR,
                    (errcode(ERRCODE_CONFIG_FILE_ERROR),
                     errmsg("the idcodec keyring file named in idcodec.keyring_file could not be used"),
                     errdetail("%s", keyring_problem),
                     errhint("The server's log names the file and says why; fix it and reload the configuration.")));
        ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE), errmsg("no idcodec keyring file is set"),
                        errhint("Name a file of keys readable only by the server's user in idcodec.keyring_file "
                                "and reload the configuration. Since idcodec 1.4.0, keys are no longer read from "
                                "idcodec.keyring.")));
    }
    return keyring;
}

std::uint64_t keyring_generation() noexcept { return generation; }

}  // namespace idcodec::pg
