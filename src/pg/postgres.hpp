// The PostgreSQL headers the shim needs, with C linkage, and the one place where the shim meets a difference between
// PostgreSQL majors (15 to 18). Include it after every core and standard library header (the core's headers refuse
// to come later); the core itself is built with IDCODEC_CORE_ONLY defined and can never include it.
#pragma once

#ifdef IDCODEC_CORE_ONLY
#error "src/core is plain C++ and must not include PostgreSQL headers"
#endif

extern "C" {
#include "postgres.h"

#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/guc_tables.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"
#include "utils/tuplestore.h"
#include "utils/uuid.h"
}

// The module's magic block. PostgreSQL 18 also records a module's name and version, which pg_get_loaded_modules()
// shows; earlier majors have only the plain block. (The block can only be declared by a macro; IDCODEC_VERSION is
// set for module.cpp by the Makefile.)
#ifdef PG_MODULE_MAGIC_EXT
#define IDCODEC_MODULE_MAGIC PG_MODULE_MAGIC_EXT(.name = "idcodec", .version = IDCODEC_VERSION)
#else
#define IDCODEC_MODULE_MAGIC PG_MODULE_MAGIC
#endif

// Memory for a setting's value and a check hook's extra: malloc() before PostgreSQL 16, guc_malloc() since (the
// server frees it with free() or guc_free() accordingly). Null when out of memory.
inline void* setting_memory(std::size_t size) {
#if PG_VERSION_NUM >= 160000
    return guc_malloc(LOG, size);
#else
    return malloc(size);
#endif
}

inline void free_setting_memory(void* memory) {
#if PG_VERSION_NUM >= 160000
    guc_free(memory);
#else
    free(memory);
#endif
}

// Where the value a setting resets to came from (for a placeholder: the value the server holds for a module's setting
// before the module defines it); PGC_S_DEFAULT when the server has no such setting. PostgreSQL 15 does not export
// its lookup by name.
inline GucSource setting_reset_source(const char* name) {
#if PG_VERSION_NUM >= 160000
    const config_generic* setting = find_option(name, false, true, DEBUG5);
    if (setting != nullptr) return setting->reset_source;
#else
    config_generic** settings = get_guc_variables();
    for (int i = 0, count = GetNumConfigOptions(); i < count; ++i)
        if (pg_strcasecmp(settings[i]->name, name) == 0) return settings[i]->reset_source;
#endif
    return PGC_S_DEFAULT;
}

// Refuses the text input of a type, quoting (the start of) the text: a soft error where the caller asked for one
// (PostgreSQL 16 and later: pg_input_is_valid, COPY ... ON_ERROR), else an error.
inline Datum invalid_input(FunctionCallInfo fcinfo, const char* type, const char* input, int quoted_bytes) {
#if PG_VERSION_NUM >= 160000
    ereturn(fcinfo->context, (Datum)0, errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
            errmsg("invalid input syntax for type %s: \"%.*s\"", type, quoted_bytes, input));
#else
    ereport(ERROR, (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
                    errmsg("invalid input syntax for type %s: \"%.*s\"", type, quoted_bytes, input)));
    pg_unreachable();
#endif
}
