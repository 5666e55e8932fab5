// Error chapter: error strings and classes, error handlers on communicators.
#include <cstring>

#include "mpi.h"
#include "runtime/c_api/guard.hpp"
#include "runtime/errors.hpp"

using weft::world;

extern "C" {

int PMPI_Error_string(int errorcode, char* string, int* resultlen) {
  if (string == nullptr || resultlen == nullptr) return MPI_ERR_ARG;
  const std::string text = weft::error_string(errorcode);
  const size_t n = text.size() < MPI_MAX_ERROR_STRING - 1 ? text.size() : MPI_MAX_ERROR_STRING - 1;
  std::memcpy(string, text.data(), n);
  string[n] = '\0';
  *resultlen = int(n);
  return weft::error_class_of(errorcode) < 0 ? MPI_ERR_ARG : MPI_SUCCESS;
}

int PMPI_Error_class(int errorcode, int* errorclass) {
  if (errorclass == nullptr) return MPI_ERR_ARG;
  const int cls = weft::error_class_of(errorcode);
  if (cls < 0) return MPI_ERR_ARG;
  *errorclass = cls;
  return MPI_SUCCESS;
}

int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler) {
  constexpr const char* fn = "MPI_Comm_set_errhandler";
  WEFT_REQUIRE_RUNNING(fn);
  weft::Comm* c = nullptr;
  WEFT_CHECK(comm, fn, weft::lookup_comm(world().comms, comm, "comm", &c));
  if (errhandler != MPI_ERRORS_ARE_FATAL && errhandler != MPI_ERRORS_RETURN &&
      errhandler != MPI_ERRORS_ABORT) {
    return weft::capi::report(comm, fn,
                              weft::Status::error(MPI_ERR_ARG, "invalid errhandler=" +
                                                                   std::to_string(errhandler)));
  }
  c->errhandler = errhandler;
  return MPI_SUCCESS;
}

int PMPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler* errhandler) {
  constexpr const char* fn = "MPI_Comm_get_errhandler";
  WEFT_REQUIRE_RUNNING(fn);
  weft::Comm* c = nullptr;
  WEFT_CHECK(comm, fn, weft::lookup_comm(world().comms, comm, "comm", &c));
  WEFT_CHECK(comm, fn, weft::capi::check_not_null(errhandler, "errhandler"));
  *errhandler = c->errhandler;
  return MPI_SUCCESS;
}

}  // extern "C"

// The profiling interface: each MPI_X is a weak alias of PMPI_X (runtime/c_api/guard.hpp).
WEFT_MPI_ALIAS(MPI_Error_string)
WEFT_MPI_ALIAS(MPI_Error_class)
WEFT_MPI_ALIAS(MPI_Comm_set_errhandler)
WEFT_MPI_ALIAS(MPI_Comm_get_errhandler)
