// Argument checks the datatype entry points share (runtime/c_api/datatype_*.cpp).
#pragma once
#include "runtime/c_api/guard.hpp"
#include "runtime/datatype/build.hpp"
#include "runtime/datatype/table.hpp"

namespace weft::capi {

// MPI 4.0 §9.3: errors of calls that involve no communicator are raised on MPI_COMM_SELF.
inline constexpr MPI_Comm kTypeErrors = MPI_COMM_SELF;

// An array argument: non-NULL unless it has no entries.
Status check_array(const void* array, MPI_Count entries, const char* arg);
// Every array[i] >= 0 (block lengths, counts; int or MPI_Count): MPI_ERR_COUNT naming arg[i].
Status check_counts(CountArray array, MPI_Count entries, const char* arg);
// An existing datatype (committed or not), held for a new type built on it.
Status find_old_type(MPI_Datatype handle, const char* arg, TypeRef* out);
// Registers a newly built type and stores its handle in *newtype.
void register_type(std::shared_ptr<Datatype> type, MPI_Datatype* newtype);

}  // namespace weft::capi
