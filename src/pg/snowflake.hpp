// The setting of snowflake generation: idcodec.node_id, the node's number in every ID it makes.
#pragma once

namespace idcodec::pg {

void define_snowflake_setting();

}  // namespace idcodec::pg
