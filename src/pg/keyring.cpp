#include <cstring>

#include "core/common/secret.hpp"

#include "pg/keyring.hpp"
#include "pg/postgres.hpp"

namespace idcodec::pg {

namespace {

// What the setting itself holds, whatever the keyring: SHOW and pg_settings show only this, and the server, which
// logs a setting's new value when a reload changes it, never sees it change. The keyring proper is kept as the
// setting's "extra".
constexpr char shown_value[] = "(hidden)";

char* shown = nullptr;
const char* keyring = "";
std::uint64_t generation = 0;
bool loaded_at_server_start = false;

// Never refuses a value: refusing makes the server log it. A malformed keyring is reported when a name is looked up.
bool keep_keyring(char** newval, void** extra, GucSource) {
    const std::size_t size = std::strlen(*newval) + 1;
    auto* kept = static_cast<char*>(setting_memory(size));
    auto* constant = static_cast<char*>(setting_memory(sizeof shown_value));
    if (kept == nullptr || constant == nullptr) {
        free_setting_memory(kept);
        free_setting_memory(constant);
        // With a message of the hook's own, the server reports it instead of quoting the value.
        GUC_check_errcode(ERRCODE_OUT_OF_MEMORY);
        GUC_check_errmsg("out of memory");
        return false;
    }
    std::memcpy(kept, *newval, size);
    std::memcpy(constant, shown_value, sizeof shown_value);
    idcodec::wipe(*newval, size);
    free_setting_memory(*newval);
    *newval = constant;
    *extra = kept;
    return true;
}

void use_keyring(const char*, void* extra) {
    keyring = extra != nullptr ? static_cast<const char*>(extra) : "";
    ++generation;
}

}  // namespace

void define_keyring_setting(bool at_server_start) {
    loaded_at_server_start = at_server_start;
    // SIGHUP: set only in the configuration files (so only by a superuser), and read again on a reload.
    // GUC_SUPERUSER_ONLY: only superusers and members of pg_read_all_settings see even the constant it shows.
    DefineCustomStringVariable(
        "idcodec.keyring", "Named FF1 keys for idcrypt_encode and idcrypt_decode (key_name => ...).",
        "Entries name=hex separated by commas or spaces; keys of 32, 48 or 64 hex digits. Set in the server's "
        "configuration; never shown. Usable only with idcodec in shared_preload_libraries.",
        &shown, "", PGC_SIGHUP, GUC_SUPERUSER_ONLY | GUC_NO_SHOW_ALL | GUC_NOT_IN_SAMPLE, keep_keyring, use_keyring,
        nullptr);
}

std::string_view keyring_text() {
    if (!loaded_at_server_start)
        ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                        errmsg("named keys need idcodec in shared_preload_libraries"),
                        errdetail("Loaded later, the server would have kept idcodec.keyring from the configuration "
                                  "file where every role can read it."),
                        errhint("Add idcodec to shared_preload_libraries and restart the server.")));
    return keyring;
}

std::uint64_t keyring_generation() noexcept { return generation; }

}  // namespace idcodec::pg
