#include "pg/keyring.hpp"
#include "pg/postgres.hpp"

namespace idcodec::pg {

namespace {

char* keyring = nullptr;
std::uint64_t generation = 0;
bool loaded_at_server_start = false;

void count_assignment(const char*, void*) { ++generation; }

}  // namespace

void define_keyring_setting(bool at_server_start) {
    loaded_at_server_start = at_server_start;
    // SIGHUP: set only in the configuration files (so only by a superuser), and read again on a reload.
    // GUC_SUPERUSER_ONLY: SHOW, current_setting() and pg_settings show it only to superusers and members of
    // pg_read_all_settings. Neither the value nor a part of it appears in any message of idcodec's.
    DefineCustomStringVariable(
        "idcodec.keyring", "Named FF1 keys for idcrypt_encode and idcrypt_decode (key_name => ...).",
        "Entries name=hex separated by commas or spaces; keys of 32, 48 or 64 hex digits. Only superusers can "
        "read or set it; usable only with idcodec in shared_preload_libraries.",
        &keyring, "", PGC_SIGHUP, GUC_SUPERUSER_ONLY | GUC_NO_SHOW_ALL | GUC_NOT_IN_SAMPLE, nullptr,
        count_assignment, nullptr);
}

std::string_view keyring_text() {
    if (!loaded_at_server_start)
        ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                        errmsg("named keys need idcodec in shared_preload_libraries"),
                        errdetail("Loaded later, the server would have kept idcodec.keyring from the configuration "
                                  "file where every role can read it."),
                        errhint("Add idcodec to shared_preload_libraries and restart the server.")));
    return keyring != nullptr ? std::string_view(keyring) : std::string_view();
}

std::uint64_t keyring_generation() noexcept { return generation; }

}  // namespace idcodec::pg
