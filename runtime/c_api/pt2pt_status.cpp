// Point-to-point chapter, what a status says: MPI_Get_count and MPI_Get_elements in their int,
// _x and large-count (_c) forms, all computed at MPI_Count width and narrowed for int; and its
// source, tag and error fields through calls (MPI_Status_get/set_source/_tag/_error, MPI 4.1
// §3.2.5), which need no initialised library.
#include <climits>

#include "mpi.h"
#include "runtime/c_api/guard.hpp"
#include "runtime/datatype/datatype.hpp"

using weft::Status;
namespace capi = weft::capi;

namespace {

// The common checks; *bytes = the bytes the status reports.
Status check_status_query(const MPI_Status* status, MPI_Datatype datatype, const void* count,
                          const weft::Datatype** type, size_t* bytes) {
  WEFT_TRY(capi::check_not_null(status, "status"));
  WEFT_TRY(capi::check_not_null(count, "count"));
  WEFT_TRY(weft::find_datatype(datatype, "datatype", type));
  *bytes = size_t(status->weft_bytes);
  return Status::success();
}

// Whole elements of `type` in `bytes`, or MPI_UNDEFINED when they end inside one (MPI 4.0 §3.2.5).
MPI_Count whole_elements(const weft::Datatype& type, size_t bytes) {
  const size_t size = type.size();
  if (size == 0) return 0;
  return bytes % size != 0 ? MPI_UNDEFINED : MPI_Count(bytes / size);
}

// Basic elements in `bytes`, or MPI_UNDEFINED when they end inside one.
MPI_Count basic_elements(const weft::Datatype& type, size_t bytes) {
  const long long n = type.elements(bytes);
  return n < 0 ? MPI_UNDEFINED : n;
}

// An int result: MPI_UNDEFINED when the count does not fit.
int narrow(MPI_Count n) { return n > INT_MAX ? MPI_UNDEFINED : int(n); }

// Computes *out from the status with `compute`, after the checks of `fn`.
template <typename Out, typename Compute>
int query(const char* fn, const MPI_Status* status, MPI_Datatype datatype, Out* out,
          Compute compute) {
  WEFT_LOCKED_CALL();  // the datatype table may change in another thread's call
  const weft::Datatype* type = nullptr;
  size_t bytes = 0;
  WEFT_CHECK(MPI_COMM_WORLD, fn, check_status_query(status, datatype, out, &type, &bytes));
  *out = compute(*type, bytes);
  return MPI_SUCCESS;
}

// The status calls concern no communicator: their errors go to MPI_COMM_SELF's handler.
constexpr MPI_Comm kNoComm = MPI_COMM_SELF;

// MPI_Status_get_*: *value = the field of *status.
int get_field(const char* fn, const MPI_Status* status, int MPI_Status::*field, int* value,
              const char* value_arg) {
  WEFT_LOCKED_CALL();  // an error reaches the communicator table
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(status, "status"));
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(value, value_arg));
  *value = status->*field;
  return MPI_SUCCESS;
}

// MPI_Status_set_*: any value is stored, as a receive would have stored it.
int set_field(const char* fn, MPI_Status* status, int MPI_Status::*field, int value) {
  WEFT_LOCKED_CALL();
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(status, "status"));
  status->*field = value;
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int PMPI_Get_count(const MPI_Status* status, MPI_Datatype datatype, int* count) {
  return query("MPI_Get_count", status, datatype, count, [](const weft::Datatype& t, size_t bytes) {
    return narrow(whole_elements(t, bytes));
  });
}
int PMPI_Get_count_c(const MPI_Status* status, MPI_Datatype datatype, MPI_Count* count) {
  return query("MPI_Get_count_c", status, datatype, count, whole_elements);
}

int PMPI_Get_elements(const MPI_Status* status, MPI_Datatype datatype, int* count) {
  return query(
      "MPI_Get_elements", status, datatype, count,
      [](const weft::Datatype& t, size_t bytes) { return narrow(basic_elements(t, bytes)); });
}
int PMPI_Get_elements_x(const MPI_Status* status, MPI_Datatype datatype, MPI_Count* count) {
  return query("MPI_Get_elements_x", status, datatype, count, basic_elements);
}
int PMPI_Get_elements_c(const MPI_Status* status, MPI_Datatype datatype, MPI_Count* count) {
  return query("MPI_Get_elements_c", status, datatype, count, basic_elements);
}

int PMPI_Status_get_source(const MPI_Status* status, int* source) {
  return get_field("MPI_Status_get_source", status, &MPI_Status::MPI_SOURCE, source, "source");
}
int PMPI_Status_set_source(MPI_Status* status, int source) {
  return set_field("MPI_Status_set_source", status, &MPI_Status::MPI_SOURCE, source);
}
int PMPI_Status_get_tag(const MPI_Status* status, int* tag) {
  return get_field("MPI_Status_get_tag", status, &MPI_Status::MPI_TAG, tag, "tag");
}
int PMPI_Status_set_tag(MPI_Status* status, int tag) {
  return set_field("MPI_Status_set_tag", status, &MPI_Status::MPI_TAG, tag);
}
int PMPI_Status_get_error(const MPI_Status* status, int* error) {
  return get_field("MPI_Status_get_error", status, &MPI_Status::MPI_ERROR, error, "error");
}
int PMPI_Status_set_error(MPI_Status* status, int error) {
  return set_field("MPI_Status_set_error", status, &MPI_Status::MPI_ERROR, error);
}

}  // extern "C"

// The profiling interface: each MPI_X is a weak alias of PMPI_X (runtime/c_api/guard.hpp).
WEFT_MPI_ALIAS(MPI_Get_count)
WEFT_MPI_ALIAS(MPI_Get_count_c)
WEFT_MPI_ALIAS(MPI_Get_elements)
WEFT_MPI_ALIAS(MPI_Get_elements_x)
WEFT_MPI_ALIAS(MPI_Get_elements_c)
WEFT_MPI_ALIAS(MPI_Status_get_source)
WEFT_MPI_ALIAS(MPI_Status_set_source)
WEFT_MPI_ALIAS(MPI_Status_get_tag)
WEFT_MPI_ALIAS(MPI_Status_set_tag)
WEFT_MPI_ALIAS(MPI_Status_get_error)
WEFT_MPI_ALIAS(MPI_Status_set_error)
