// The PostgreSQL headers the shim needs, with C linkage. Include it after every core and standard library header
// (the core's headers refuse to come later); the core itself is built with IDCODEC_CORE_ONLY defined and can never
// include it.
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
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/tuplestore.h"
}
