// Attribute caching chapter: keyvals and attributes on communicators and datatypes, the
// predefined attributes (MPI_TAG_UB ... MPI_LASTUSEDCODE) and the predefined callbacks.
#include "runtime/comm/attributes.hpp"

#include <string>

#include "mpi.h"
#include "pt2pt/match_bits.hpp"
#include "runtime/c_api/guard.hpp"
#include "runtime/datatype/datatype.hpp"
#include "runtime/errors.hpp"

using weft::AttrKind;
using weft::Status;
using weft::world;
namespace capi = weft::capi;

namespace {

// MPI 4.0 raises errors that concern no communicator (keyvals, datatypes) on MPI_COMM_SELF.
constexpr MPI_Comm kNoComm = MPI_COMM_SELF;

const char* predefined_keyval_name(int keyval) {
  switch (keyval) {
    case MPI_TAG_UB:
      return "MPI_TAG_UB";
    case MPI_HOST:
      return "MPI_HOST";
    case MPI_IO:
      return "MPI_IO";
    case MPI_WTIME_IS_GLOBAL:
      return "MPI_WTIME_IS_GLOBAL";
    case MPI_UNIVERSE_SIZE:
      return "MPI_UNIVERSE_SIZE";
    case MPI_APPNUM:
      return "MPI_APPNUM";
    case MPI_LASTUSEDCODE:
      return "MPI_LASTUSEDCODE";
    default:
      return nullptr;
  }
}

// The value of a predefined attribute, in storage that MPI hands out pointers to (every
// communicator reads the same values); nullptr if `keyval` is not predefined.
int* predefined_value(int keyval) {
  static int tag_ub, host, io, wtime_is_global, universe_size, appnum, lastusedcode;
  const weft::JobInfo& job = world().kvs->job();
  switch (keyval) {
    case MPI_TAG_UB:
      return &(tag_ub = weft::match_bits::kMaxTag);
    case MPI_HOST:
      return &(host = MPI_PROC_NULL);
    case MPI_IO:
      return &(io = MPI_ANY_SOURCE);
    case MPI_WTIME_IS_GLOBAL:
      return &(wtime_is_global = 0);
    case MPI_UNIVERSE_SIZE:
      return &(universe_size = job.universe_size);
    case MPI_APPNUM:
      return &(appnum = job.appnum);
    case MPI_LASTUSEDCODE:
      return &(lastusedcode = weft::last_used_code());
    default:
      return nullptr;
  }
}

// Predefined keyvals can be read only.
Status check_writable(int keyval, const char* arg) {
  const char* name = predefined_keyval_name(keyval);
  if (name == nullptr) return Status::success();
  return Status::error(MPI_ERR_KEYVAL, std::string("invalid ") + arg + "=" + name +
                                           " (a predefined attribute, which is read-only)");
}

// The communicator attribute calls, shared by their MPI-2 names and the deprecated MPI-1 ones
// (MPI_Keyval_create, MPI_Attr_put ...); `fn` is the name errors report.
int comm_create_keyval(const char* fn, MPI_Comm_copy_attr_function* comm_copy_attr_fn,
                       MPI_Comm_delete_attr_function* comm_delete_attr_fn, int* comm_keyval,
                       void* extra_state) {
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(comm_keyval, "comm_keyval"));
  *comm_keyval = weft::attributes().create_keyval(AttrKind::kComm, comm_copy_attr_fn,
                                                  comm_delete_attr_fn, extra_state);
  return MPI_SUCCESS;
}

int comm_free_keyval(const char* fn, int* comm_keyval) {
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(comm_keyval, "comm_keyval"));
  WEFT_CHECK(kNoComm, fn, check_writable(*comm_keyval, "comm_keyval"));
  WEFT_CHECK(kNoComm, fn, weft::attributes().free_keyval(AttrKind::kComm, *comm_keyval));
  *comm_keyval = MPI_KEYVAL_INVALID;
  return MPI_SUCCESS;
}

int comm_set_attr(const char* fn, MPI_Comm comm, int comm_keyval, void* attribute_val) {
  WEFT_REQUIRE_RUNNING(fn);
  weft::Comm* c = nullptr;
  WEFT_CHECK(comm, fn, weft::lookup_comm(world().comms, comm, "comm", &c));
  WEFT_CHECK(comm, fn, check_writable(comm_keyval, "comm_keyval"));
  return capi::report(comm, fn,
                      weft::attributes().set(AttrKind::kComm, comm, comm_keyval, attribute_val));
}

int comm_get_attr(const char* fn, MPI_Comm comm, int comm_keyval, void* attribute_val, int* flag) {
  WEFT_REQUIRE_RUNNING(fn);
  weft::Comm* c = nullptr;
  WEFT_CHECK(comm, fn, weft::lookup_comm(world().comms, comm, "comm", &c));
  WEFT_CHECK(comm, fn, capi::check_not_null(attribute_val, "attribute_val"));
  WEFT_CHECK(comm, fn, capi::check_not_null(flag, "flag"));
  if (int* value = predefined_value(comm_keyval)) {
    *static_cast<int**>(attribute_val) = value;
    *flag = 1;
    return MPI_SUCCESS;
  }
  bool found = false;
  WEFT_CHECK(comm, fn,
             weft::attributes().get(AttrKind::kComm, comm, comm_keyval,
                                    static_cast<void**>(attribute_val), &found));
  *flag = found;
  return MPI_SUCCESS;
}

int comm_delete_attr(const char* fn, MPI_Comm comm, int comm_keyval) {
  WEFT_REQUIRE_RUNNING(fn);
  weft::Comm* c = nullptr;
  WEFT_CHECK(comm, fn, weft::lookup_comm(world().comms, comm, "comm", &c));
  WEFT_CHECK(comm, fn, check_writable(comm_keyval, "comm_keyval"));
  return capi::report(comm, fn, weft::attributes().remove(AttrKind::kComm, comm, comm_keyval));
}

}  // namespace

extern "C" {

int MPI_COMM_NULL_COPY_FN(MPI_Comm, int, void*, void*, void*, int* flag) {
  *flag = 0;
  return MPI_SUCCESS;
}

int MPI_COMM_DUP_FN(MPI_Comm, int, void*, void* attribute_val_in, void* attribute_val_out,
                    int* flag) {
  *static_cast<void**>(attribute_val_out) = attribute_val_in;
  *flag = 1;
  return MPI_SUCCESS;
}

int MPI_COMM_NULL_DELETE_FN(MPI_Comm, int, void*, void*) { return MPI_SUCCESS; }

int MPI_TYPE_NULL_COPY_FN(MPI_Datatype, int, void*, void*, void*, int* flag) {
  *flag = 0;
  return MPI_SUCCESS;
}

int MPI_TYPE_DUP_FN(MPI_Datatype, int, void*, void* attribute_val_in, void* attribute_val_out,
                    int* flag) {
  *static_cast<void**>(attribute_val_out) = attribute_val_in;
  *flag = 1;
  return MPI_SUCCESS;
}

int MPI_TYPE_NULL_DELETE_FN(MPI_Datatype, int, void*, void*) { return MPI_SUCCESS; }

int PMPI_Comm_create_keyval(MPI_Comm_copy_attr_function* comm_copy_attr_fn,
                            MPI_Comm_delete_attr_function* comm_delete_attr_fn, int* comm_keyval,
                            void* extra_state) {
  return comm_create_keyval("MPI_Comm_create_keyval", comm_copy_attr_fn, comm_delete_attr_fn,
                            comm_keyval, extra_state);
}

int PMPI_Comm_free_keyval(int* comm_keyval) {
  return comm_free_keyval("MPI_Comm_free_keyval", comm_keyval);
}

int PMPI_Comm_set_attr(MPI_Comm comm, int comm_keyval, void* attribute_val) {
  return comm_set_attr("MPI_Comm_set_attr", comm, comm_keyval, attribute_val);
}

int PMPI_Comm_get_attr(MPI_Comm comm, int comm_keyval, void* attribute_val, int* flag) {
  return comm_get_attr("MPI_Comm_get_attr", comm, comm_keyval, attribute_val, flag);
}

int PMPI_Comm_delete_attr(MPI_Comm comm, int comm_keyval) {
  return comm_delete_attr("MPI_Comm_delete_attr", comm, comm_keyval);
}

int PMPI_Type_create_keyval(MPI_Type_copy_attr_function* type_copy_attr_fn,
                            MPI_Type_delete_attr_function* type_delete_attr_fn, int* type_keyval,
                            void* extra_state) {
  constexpr const char* fn = "MPI_Type_create_keyval";
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(type_keyval, "type_keyval"));
  *type_keyval = weft::attributes().create_keyval(AttrKind::kDatatype, type_copy_attr_fn,
                                                  type_delete_attr_fn, extra_state);
  return MPI_SUCCESS;
}

int PMPI_Type_free_keyval(int* type_keyval) {
  constexpr const char* fn = "MPI_Type_free_keyval";
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(type_keyval, "type_keyval"));
  WEFT_CHECK(kNoComm, fn, weft::attributes().free_keyval(AttrKind::kDatatype, *type_keyval));
  *type_keyval = MPI_KEYVAL_INVALID;
  return MPI_SUCCESS;
}

int PMPI_Type_set_attr(MPI_Datatype datatype, int type_keyval, void* attribute_val) {
  constexpr const char* fn = "MPI_Type_set_attr";
  WEFT_REQUIRE_RUNNING(fn);
  const weft::Datatype* type = nullptr;
  WEFT_CHECK(kNoComm, fn, weft::find_datatype(datatype, "datatype", &type));
  return capi::report(
      kNoComm, fn,
      weft::attributes().set(AttrKind::kDatatype, datatype, type_keyval, attribute_val));
}

int PMPI_Type_get_attr(MPI_Datatype datatype, int type_keyval, void* attribute_val, int* flag) {
  constexpr const char* fn = "MPI_Type_get_attr";
  WEFT_REQUIRE_RUNNING(fn);
  const weft::Datatype* type = nullptr;
  WEFT_CHECK(kNoComm, fn, weft::find_datatype(datatype, "datatype", &type));
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(attribute_val, "attribute_val"));
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(flag, "flag"));
  bool found = false;
  WEFT_CHECK(kNoComm, fn,
             weft::attributes().get(AttrKind::kDatatype, datatype, type_keyval,
                                    static_cast<void**>(attribute_val), &found));
  *flag = found;
  return MPI_SUCCESS;
}

int PMPI_Type_delete_attr(MPI_Datatype datatype, int type_keyval) {
  constexpr const char* fn = "MPI_Type_delete_attr";
  WEFT_REQUIRE_RUNNING(fn);
  const weft::Datatype* type = nullptr;
  WEFT_CHECK(kNoComm, fn, weft::find_datatype(datatype, "datatype", &type));
  return capi::report(kNoComm, fn,
                      weft::attributes().remove(AttrKind::kDatatype, datatype, type_keyval));
}

// The MPI-1 names (deprecated, still in MPI 4.1): the communicator calls above, errors naming
// the function called. MPI_Copy_function / MPI_Delete_function are the MPI-2 callback types.
int PMPI_Keyval_create(MPI_Copy_function* copy_fn, MPI_Delete_function* delete_fn, int* keyval,
                       void* extra_state) {
  return comm_create_keyval("MPI_Keyval_create", copy_fn, delete_fn, keyval, extra_state);
}

int PMPI_Keyval_free(int* keyval) { return comm_free_keyval("MPI_Keyval_free", keyval); }

int PMPI_Attr_put(MPI_Comm comm, int keyval, void* attribute_val) {
  return comm_set_attr("MPI_Attr_put", comm, keyval, attribute_val);
}

int PMPI_Attr_get(MPI_Comm comm, int keyval, void* attribute_val, int* flag) {
  return comm_get_attr("MPI_Attr_get", comm, keyval, attribute_val, flag);
}

int PMPI_Attr_delete(MPI_Comm comm, int keyval) {
  return comm_delete_attr("MPI_Attr_delete", comm, keyval);
}

}  // extern "C"

// The profiling interface: each MPI_X is a weak alias of PMPI_X (runtime/c_api/guard.hpp).
WEFT_MPI_ALIAS(MPI_Comm_create_keyval)
WEFT_MPI_ALIAS(MPI_Comm_free_keyval)
WEFT_MPI_ALIAS(MPI_Comm_set_attr)
WEFT_MPI_ALIAS(MPI_Comm_get_attr)
WEFT_MPI_ALIAS(MPI_Comm_delete_attr)
WEFT_MPI_ALIAS(MPI_Type_create_keyval)
WEFT_MPI_ALIAS(MPI_Type_free_keyval)
WEFT_MPI_ALIAS(MPI_Type_set_attr)
WEFT_MPI_ALIAS(MPI_Type_get_attr)
WEFT_MPI_ALIAS(MPI_Type_delete_attr)
WEFT_MPI_ALIAS(MPI_Keyval_create)
WEFT_MPI_ALIAS(MPI_Keyval_free)
WEFT_MPI_ALIAS(MPI_Attr_put)
WEFT_MPI_ALIAS(MPI_Attr_get)
WEFT_MPI_ALIAS(MPI_Attr_delete)
