#include "core/common/stop_token.hpp"

namespace idcodec {

void StopToken::stop() { throw Error(ErrorKind::interrupted, "interrupted"); }

}  // namespace idcodec
