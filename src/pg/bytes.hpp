// Reading bytea and text values in slices, so that a large value stored externally without compression is never
// held whole in memory.
#pragma once

#include <cstdint>
#include <span>

#include "pg/postgres.hpp"

namespace idcodec::pg {

// A cursor over a value's bytes. A value stored externally and uncompressed is read a slice at a time, each in a
// memory context of the cursor's own that is reset for the next, so one slice is held at a time; any other value
// is detoasted once and seen whole. Trivially destructible: an error may end the call at any point.
class SliceCursor {
public:
    // `slice_bytes`: how much to read at a time; at least the most any caller of from() wants.
    SliceCursor(Datum value, int64 slice_bytes);

    int64 size() const noexcept { return size_; }

    // The bytes from `offset` to the end of the slice holding them: at least `want` bytes unless the value ends
    // sooner. Offsets must not decrease from one call to the next.
    std::span<const std::uint8_t> from(int64 offset, int64 want);

    // Whether `bytes` (from from(offset, ...)) run to the end of the value.
    bool reaches_end(int64 offset, std::span<const std::uint8_t> bytes) const noexcept {
        return offset + static_cast<int64>(bytes.size()) == size_;
    }

private:
    struct varlena* external_;  // the on-disk TOAST pointer, when the value is read in slices; else null
    MemoryContext slices_;      // where slices are read; null until the first one
    int64 size_;
    int64 slice_bytes_;
    int64 start_ = 0;  // the offset of slice_'s first byte
    std::span<const std::uint8_t> slice_;
};

}  // namespace idcodec::pg
