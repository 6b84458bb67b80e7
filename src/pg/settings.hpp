// Superuser settings defined when idcodec loads into a backend, which must keep the configured value against one a
// client sent before the module was loaded.
#pragma once

#include "pg/postgres.hpp"

namespace idcodec::pg {

struct ConfiguredValue {
    char* value;  // palloc'd; null when the configuration does not set it
    GucSource source;
};

// The setting's value in the server's configuration: its command line's (as the postmaster started), else the
// configuration files' as a reload reads them (postgresql.conf with what it includes, then postgresql.auto.conf,
// the last value winning).
ConfiguredValue configured_value(const char* name);

// Runs `define` (which defines the setting `name`) so that the configured value survives it. Before a backend loads
// idcodec, the server holds the setting as a placeholder, which takes a value from the client (-c in PGOPTIONS or
// options=) or a database's or role's settings over the configuration's, and keeps only that one; defining a
// superuser's setting refuses such a value from a role that may not set it (with a warning), and the backend would
// be left with the default. The configuration's value is then set again. (A database's or a role's own value is not
// restored then: the server's is used. Where idcodec is preloaded, the setting is defined before any client
// connects, and a connection asking for a value is refused.)
template <typename Define>
void define_keeping_configured(const char* name, Define define) {
    const bool configured_value_lost = setting_reset_source(name) > PGC_S_ARGV;
    define();
    if (!configured_value_lost) return;
    const ConfiguredValue configured = configured_value(name);
    if (configured.value == nullptr) return;
    // A value the client set and was allowed to set has the higher priority and stays.
    set_config_option(name, configured.value, PGC_SIGHUP, configured.source, GUC_ACTION_SET, true, WARNING, false);
    pfree(configured.value);
}

}  // namespace idcodec::pg
