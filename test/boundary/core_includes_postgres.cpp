// Compiled as core code (IDCODEC_CORE_ONLY): including the shim's PostgreSQL headers must refuse to compile.
// The order of these includes is what is tested.
// clang-format off
#include "core/ids/hashids.hpp"
#include "pg/postgres.hpp"
