// Error chapter, codes and classes: MPI_Error_string/_class, and user-defined classes, codes and
// strings (MPI_Add_error_class/_code/_string, and MPI 4.1's MPI_Remove_error_class/_code/_string,
// §9.5). All may be called before MPI_Init and after MPI_Finalize (MPI 4.0 §11.2.1).
#include "runtime/errors.hpp"

#include <cstring>
#include <string>

#include "mpi.h"
#include "runtime/c_api/guard.hpp"

namespace capi = weft::capi;

namespace {
// MPI 4.0 raises errors that concern no communicator on MPI_COMM_SELF.
constexpr MPI_Comm kNoComm = MPI_COMM_SELF;

weft::Status check_code(int code, const char* arg) {
  if (weft::error_class_of(code) >= 0) return weft::Status::success();
  return weft::Status::error(MPI_ERR_ARG, std::string("invalid ") + arg + "=" +
                                              std::to_string(code) + " (not an error code)");
}
}  // namespace

extern "C" {

int PMPI_Error_string(int errorcode, char* string, int* resultlen) {
  constexpr const char* fn = "MPI_Error_string";
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(string, "string"));
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(resultlen, "resultlen"));
  const std::string text = weft::error_string(errorcode);
  const size_t n = text.size() < MPI_MAX_ERROR_STRING - 1 ? text.size() : MPI_MAX_ERROR_STRING - 1;
  std::memcpy(string, text.data(), n);
  string[n] = '\0';
  *resultlen = int(n);
  return capi::report(kNoComm, fn, check_code(errorcode, "errorcode"));
}

int PMPI_Error_class(int errorcode, int* errorclass) {
  constexpr const char* fn = "MPI_Error_class";
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(errorclass, "errorclass"));
  WEFT_CHECK(kNoComm, fn, check_code(errorcode, "errorcode"));
  *errorclass = weft::error_class_of(errorcode);
  return MPI_SUCCESS;
}

int PMPI_Add_error_class(int* errorclass) {
  constexpr const char* fn = "MPI_Add_error_class";
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(errorclass, "errorclass"));
  *errorclass = weft::user_errors().add_class();
  return MPI_SUCCESS;
}

int PMPI_Add_error_code(int errorclass, int* errorcode) {
  constexpr const char* fn = "MPI_Add_error_code";
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(errorcode, "errorcode"));
  return capi::report(kNoComm, fn, weft::user_errors().add_code(errorclass, errorcode));
}

int PMPI_Add_error_string(int errorcode, const char* string) {
  constexpr const char* fn = "MPI_Add_error_string";
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(string, "string"));
  return capi::report(kNoComm, fn, weft::user_errors().set_string(errorcode, string));
}

int PMPI_Remove_error_class(int errorclass) {
  WEFT_LOCKED_CALL();
  return capi::report(kNoComm, "MPI_Remove_error_class",
                      weft::user_errors().remove_class(errorclass));
}

int PMPI_Remove_error_code(int errorcode) {
  WEFT_LOCKED_CALL();
  return capi::report(kNoComm, "MPI_Remove_error_code", weft::user_errors().remove_code(errorcode));
}

int PMPI_Remove_error_string(int errorcode) {
  WEFT_LOCKED_CALL();
  return capi::report(kNoComm, "MPI_Remove_error_string",
                      weft::user_errors().remove_string(errorcode));
}

}  // extern "C"

// The profiling interface: each MPI_X is a weak alias of PMPI_X (runtime/c_api/guard.hpp).
WEFT_MPI_ALIAS(MPI_Error_string)
WEFT_MPI_ALIAS(MPI_Error_class)
WEFT_MPI_ALIAS(MPI_Add_error_class)
WEFT_MPI_ALIAS(MPI_Add_error_code)
WEFT_MPI_ALIAS(MPI_Add_error_string)
WEFT_MPI_ALIAS(MPI_Remove_error_class)
WEFT_MPI_ALIAS(MPI_Remove_error_code)
WEFT_MPI_ALIAS(MPI_Remove_error_string)
