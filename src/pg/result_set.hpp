// The rows of a set-returning function, put into a tuplestore (materialize mode), which spills to disk past
// work_mem, for functions returning SETOF a scalar or a row type alike.
#pragma once

#include <span>

#include "pg/postgres.hpp"

namespace idcodec::pg {

class ResultSet {
public:
    // Sets the call up to return a tuplestore: an error if the caller cannot accept a set in materialize mode.
    explicit ResultSet(FunctionCallInfo fcinfo);

    // One row: a value and a null flag per column.
    void put(std::span<const Datum> values, std::span<const bool> nulls) {
        tuplestore_putvalues(store_, description_, const_cast<Datum*>(values.data()), const_cast<bool*>(nulls.data()));
    }

private:
    Tuplestorestate* store_;
    TupleDesc description_;
};

}  // namespace idcodec::pg
