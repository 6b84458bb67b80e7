#include "bytes.hpp"

#include <algorithm>

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

ByteSource byte_source(Datum value) {
    auto* attr = reinterpret_cast<struct varlena*>(DatumGetPointer(value));
    if (VARATT_IS_EXTERNAL_ONDISK(attr)) {
        struct varatt_external pointer;
        VARATT_EXTERNAL_GET_POINTER(pointer, attr);
        if (!is_compressed(pointer)) return {attr, nullptr, VARATT_EXTERNAL_GET_EXTSIZE(pointer)};
    }
    struct varlena* detoasted = pg_detoast_datum_packed(attr);
    return {nullptr, reinterpret_cast<const std::uint8_t*>(VARDATA_ANY(detoasted)),
            static_cast<int64>(VARSIZE_ANY_EXHDR(detoasted))};
}

ByteSlice read_slice(const ByteSource& source, int64 offset, int64 length) {
    offset = std::min(offset, source.size);
    length = std::min(length, source.size - offset);
    if (source.external == nullptr)
        return {{source.whole + offset, static_cast<std::size_t>(length)}, nullptr};
    struct varlena* slice = detoast_attr_slice(source.external, static_cast<int32>(offset), static_cast<int32>(length));
    return {{reinterpret_cast<const std::uint8_t*>(VARDATA_ANY(slice)), VARSIZE_ANY_EXHDR(slice)}, slice};
}

void release(ByteSlice& slice) {
    if (slice.owned != nullptr) pfree(slice.owned);
    slice = {};
}

}  // namespace idcodec::pg
