#include "pg/result_set.hpp"

namespace idcodec::pg {

ResultSet::ResultSet(FunctionCallInfo fcinfo) {
    auto* result = reinterpret_cast<ReturnSetInfo*>(fcinfo->resultinfo);
    if (result == nullptr || !IsA(result, ReturnSetInfo) || (result->allowedModes & SFRM_Materialize) == 0)
        ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                        errmsg("set-valued function called in context that cannot accept a set")));
    Oid type;
    TupleDesc row;
    const TypeFuncClass kind = get_call_result_type(fcinfo, &type, &row);
    if (kind != TYPEFUNC_COMPOSITE && kind != TYPEFUNC_SCALAR)
        ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                        errmsg("function returning a set of this type called in an unsupported way")));
    // The tuplestore and its description live as long as the query does.
    const MemoryContext previous = MemoryContextSwitchTo(result->econtext->ecxt_per_query_memory);
    if (kind == TYPEFUNC_COMPOSITE) {
        description_ = CreateTupleDescCopy(row);
    } else {
        description_ = CreateTemplateTupleDesc(1);
        TupleDescInitEntry(description_, 1, "value", type, -1, 0);
    }
    store_ = tuplestore_begin_heap((result->allowedModes & SFRM_Materialize_Random) != 0, false, work_mem);
    MemoryContextSwitchTo(previous);
    result->returnMode = SFRM_Materialize;
    result->setResult = store_;
    result->setDesc = description_;
}

}  // namespace idcodec::pg
