#include <algorithm>

#include "pg/bytes.hpp"
#include "pg/values.hpp"

extern "C" {
#include "access/detoast.h"
}

namespace idcodec::pg {

namespace {

// PostgreSQL's VARATT_EXTERNAL_IS_COMPRESSED (the stored size is below the raw size), written with one signedness:
// the macro compares unsigned with signed, which C++ warns about.
bool is_compressed(const varatt_external& pointer) {
    return static_cast<int64>(VARATT_EXTERNAL_GET_EXTSIZE(pointer)) < static_cast<int64>(pointer.va_rawsize) - VARHDRSZ;
}

}  // namespace

SliceCursor::SliceCursor(Datum value, int64 slice_bytes)
    : external_(nullptr), slices_(nullptr), size_(0), slice_bytes_(slice_bytes) {
    auto* attr = reinterpret_cast<struct varlena*>(DatumGetPointer(value));
    if (VARATT_IS_EXTERNAL_ONDISK(attr)) {
        struct varatt_external pointer;
        VARATT_EXTERNAL_GET_POINTER(pointer, attr);
        if (!is_compressed(pointer)) {
            external_ = attr;
            size_ = VARATT_EXTERNAL_GET_EXTSIZE(pointer);
            return;
        }
    }
    slice_ = bytes_of(pg_detoast_datum_packed(attr));
    size_ = static_cast<int64>(slice_.size());
}

std::span<const std::uint8_t> SliceCursor::from(int64 offset, int64 want) {
    const int64 slice_end = start_ + static_cast<int64>(slice_.size());
    if (external_ != nullptr && (slice_.empty() || (offset + want > slice_end && slice_end < size_))) {
        if (slices_ == nullptr)
            slices_ = AllocSetContextCreate(CurrentMemoryContext, "idcodec value slices", ALLOCSET_DEFAULT_SIZES);
        MemoryContextReset(slices_);
        const MemoryContext previous = MemoryContextSwitchTo(slices_);
        const int64 length = std::min(slice_bytes_, size_ - offset);
        slice_ = bytes_of(detoast_attr_slice(external_, static_cast<int32>(offset), static_cast<int32>(length)));
        MemoryContextSwitchTo(previous);
        start_ = offset;
    }
    return slice_.subspan(static_cast<std::size_t>(std::min(offset - start_, static_cast<int64>(slice_.size()))));
}

}  // namespace idcodec::pg
