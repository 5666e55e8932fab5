// Error handler chapter: user handlers on communicators (create, set, get, free, call), also
// under their MPI-1 names MPI_Errhandler_create/set/get (removed in MPI 3.0).
#include "runtime/comm/errhandler.hpp"

#include <string>

#include "mpi.h"
#include "runtime/c_api/guard.hpp"
#include "runtime/errors.hpp"

using weft::Status;
using weft::world;
namespace capi = weft::capi;

namespace {
// MPI 4.0 raises errors that concern no communicator on MPI_COMM_SELF.
constexpr MPI_Comm kNoComm = MPI_COMM_SELF;

// MPI_Comm_create_errhandler, and MPI_Errhandler_create (MPI-1, removed in MPI 3.0).
int create_errhandler(const char* fn, MPI_Comm_errhandler_function* comm_errhandler_fn,
                      MPI_Errhandler* errhandler) {
  WEFT_REQUIRE_RUNNING(fn);
  if (comm_errhandler_fn == nullptr)
    return capi::report(kNoComm, fn, Status::error(MPI_ERR_ARG, "invalid comm_errhandler_fn=NULL"));
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(errhandler, "errhandler"));
  *errhandler = weft::errhandlers().create(comm_errhandler_fn);
  return MPI_SUCCESS;
}

// MPI_Comm_set_errhandler, and MPI_Errhandler_set.
int set_errhandler(const char* fn, MPI_Comm comm, MPI_Errhandler errhandler) {
  WEFT_REQUIRE_RUNNING(fn);
  weft::Comm* c = nullptr;
  WEFT_CHECK(comm, fn, weft::lookup_comm(world().comms, comm, "comm", &c));
  WEFT_CHECK(comm, fn, weft::errhandlers().check(errhandler, "errhandler"));
  weft::errhandler_replace(&c->errhandler, errhandler);
  return MPI_SUCCESS;
}

// MPI_Comm_get_errhandler, and MPI_Errhandler_get. The handle returned is a new reference, which
// the caller frees with MPI_Errhandler_free.
int get_errhandler(const char* fn, MPI_Comm comm, MPI_Errhandler* errhandler) {
  WEFT_REQUIRE_RUNNING(fn);
  weft::Comm* c = nullptr;
  WEFT_CHECK(comm, fn, weft::lookup_comm(world().comms, comm, "comm", &c));
  WEFT_CHECK(comm, fn, capi::check_not_null(errhandler, "errhandler"));
  weft::errhandler_retain(c->errhandler);
  *errhandler = c->errhandler;
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int PMPI_Comm_create_errhandler(MPI_Comm_errhandler_function* comm_errhandler_fn,
                                MPI_Errhandler* errhandler) {
  return create_errhandler("MPI_Comm_create_errhandler", comm_errhandler_fn, errhandler);
}

int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler) {
  return set_errhandler("MPI_Comm_set_errhandler", comm, errhandler);
}

int PMPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler* errhandler) {
  return get_errhandler("MPI_Comm_get_errhandler", comm, errhandler);
}

// The MPI-1 names, removed in MPI 3.0 (mpi.h declares them deprecated).
int PMPI_Errhandler_create(MPI_Handler_function* function, MPI_Errhandler* errhandler) {
  return create_errhandler("MPI_Errhandler_create", function, errhandler);
}

int PMPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler) {
  return set_errhandler("MPI_Errhandler_set", comm, errhandler);
}

int PMPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler* errhandler) {
  return get_errhandler("MPI_Errhandler_get", comm, errhandler);
}

// Drops the caller's reference: a handler still set on a communicator stays in use there, and
// the predefined handlers are never freed (their handles may still be passed to free).
int PMPI_Errhandler_free(MPI_Errhandler* errhandler) {
  constexpr const char* fn = "MPI_Errhandler_free";
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(errhandler, "errhandler"));
  WEFT_CHECK(kNoComm, fn, weft::errhandlers().check(*errhandler, "errhandler"));
  weft::errhandler_release(*errhandler);
  *errhandler = MPI_ERRHANDLER_NULL;
  return MPI_SUCCESS;
}

int PMPI_Comm_call_errhandler(MPI_Comm comm, int errorcode) {
  constexpr const char* fn = "MPI_Comm_call_errhandler";
  WEFT_REQUIRE_RUNNING(fn);
  weft::Comm* c = nullptr;
  WEFT_CHECK(comm, fn, weft::lookup_comm(world().comms, comm, "comm", &c));
  return capi::report(comm, fn, weft::call_errhandler(comm, c->errhandler, fn, errorcode));
}

}  // extern "C"

// The profiling interface: each MPI_X is a weak alias of PMPI_X (runtime/c_api/guard.hpp).
WEFT_MPI_ALIAS(MPI_Comm_create_errhandler)
WEFT_MPI_ALIAS(MPI_Comm_set_errhandler)
WEFT_MPI_ALIAS(MPI_Comm_get_errhandler)
WEFT_MPI_ALIAS(MPI_Errhandler_free)
WEFT_MPI_ALIAS(MPI_Comm_call_errhandler)
WEFT_MPI_ALIAS(MPI_Errhandler_create)
WEFT_MPI_ALIAS(MPI_Errhandler_set)
WEFT_MPI_ALIAS(MPI_Errhandler_get)
