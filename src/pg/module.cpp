// Module entry: the magic block, the settings and the backend's configuration cache.
#include "pg/call_site.hpp"
#include "pg/keyring.hpp"
#include "pg/snowflake.hpp"

extern "C" {
IDCODEC_MODULE_MAGIC;
void _PG_init(void);
}

namespace idcodec::pg {

namespace {

int cache_size = 64;
// Whatever the count, the cached configurations hold at most this much memory.
constexpr std::size_t cache_byte_budget = std::size_t{64} << 20;

void assign_cache_size(int new_value, void*) { backend_cache().set_capacity(static_cast<std::size_t>(new_value)); }

}  // namespace

ConfigCache& backend_cache() noexcept {
    static ConfigCache cache(static_cast<std::size_t>(cache_size), cache_byte_budget);
    return cache;
}

}  // namespace idcodec::pg

void _PG_init(void) {
    DefineCustomIntVariable(
        "idcodec.cache_size", "Number of prepared idcodec configurations (salts, alphabets, ...) kept per backend.",
        "Each distinct combination of settings is prepared once and reused while it stays among "
        "the most recently used; results never depend on this setting.",
        &idcodec::pg::cache_size, 64, 0, 100000, PGC_USERSET, 0, nullptr, idcodec::pg::assign_cache_size, nullptr);
    idcodec::pg::define_keyring_setting();
    idcodec::pg::define_snowflake_setting();
    if (process_shared_preload_libraries_in_progress) idcodec::pg::reserve_snowflake_memory();
    // 1.2.0's inline keyring: a value left in the configuration is a placeholder any role can SHOW where idcodec is
    // not loaded. Reserving the prefix drops it from this process; the warning says what to do.
    if (GetConfigOption("idcodec.keyring", true, false) != nullptr)
        ereport(WARNING, (errmsg("idcodec.keyring is no longer read: keys there can be seen by any role"),
                          errhint("Move the keys into a file named by idcodec.keyring_file and remove idcodec.keyring "
                                  "from postgresql.conf and postgresql.auto.conf.")));
    MarkGUCPrefixReserved("idcodec");
}
