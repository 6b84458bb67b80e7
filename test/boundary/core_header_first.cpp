// The permitted order: core headers, then PostgreSQL's. Must compile (so the failures below come from the guards,
// not from the include paths).
// The order of these includes is what is tested.
// clang-format off
#include "core/ids/hashids.hpp"
#include "pg/postgres.hpp"
