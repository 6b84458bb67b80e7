// Snowflake generation: the setting idcodec.node_id, the node's number in every ID it makes, and the shared memory of
// its counter.
#pragma once

namespace idcodec::pg {

void define_snowflake_setting();
// Called by _PG_init while the server preloads its libraries.
void reserve_snowflake_memory();

}  // namespace idcodec::pg
