// A PostgreSQL header before a core header: the core header must refuse to compile.
// The order of these includes is what is tested.
// clang-format off
#include "pg/postgres.hpp"
#include "core/ids/hashids.hpp"
