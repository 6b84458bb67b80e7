// Reading bytea and text values in slices, so that a large value stored externally without compression is never
// held whole in memory.
#pragma once

#include <cstdint>
#include <span>

#include "postgres.hpp"

namespace idcodec::pg {

struct ByteSource {
    struct varlena* external;    // the on-disk TOAST pointer, when the value is read in slices; else null
    const std::uint8_t* whole;   // the detoasted value, when it is not
    int64 size;
};

// The value's bytes, sliced where it is stored externally and uncompressed.
ByteSource byte_source(Datum value);

// A piece of a value: a view into the whole value, or a slice read for it (then `owned` is to be pfree'd).
struct ByteSlice {
    std::span<const std::uint8_t> bytes;
    void* owned;
};

// Bytes [offset, offset + length) of the value, clamped to its end.
ByteSlice read_slice(const ByteSource& source, int64 offset, int64 length);
void release(ByteSlice& slice);

}  // namespace idcodec::pg
