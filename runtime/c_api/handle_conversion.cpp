// Fortran handle conversion (MPI 3.1 section 17.2.4): MPI_*_c2f / MPI_*_f2c and MPI_Status_c2f/f2c.
// The conversions return no error codes and never fail: integer handles map to the same number
// (an invalid one stays invalid and is rejected where it is used); requests and messages go
// through runtime/fortran_handles.hpp. They work before MPI_Init and after MPI_Finalize too.
#include <cstdint>
#include <cstring>

#include "mpi.h"
#include "runtime/c_api/guard.hpp"
#include "runtime/fortran_handles.hpp"

namespace capi = weft::capi;

namespace {

// MPI 4.0 raises errors that concern no communicator on MPI_COMM_SELF.
constexpr MPI_Comm kNoComm = MPI_COMM_SELF;

// The status arguments must be real statuses, not MPI_STATUS_IGNORE / MPI_F_STATUS_IGNORE.
int check_status_args(const void* from, const char* from_arg, const void* to, const char* to_arg,
                      const char* fn) {
  if (from != nullptr && to != nullptr) return MPI_SUCCESS;
  if (int rc = capi::require_running(fn)) return rc;
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(from, from_arg));
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(to, to_arg));
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

MPI_Fint PMPI_Comm_c2f(MPI_Comm comm) { return static_cast<MPI_Fint>(comm); }
MPI_Comm PMPI_Comm_f2c(MPI_Fint comm) { return static_cast<MPI_Comm>(comm); }
MPI_Fint PMPI_Type_c2f(MPI_Datatype datatype) { return static_cast<MPI_Fint>(datatype); }
MPI_Datatype PMPI_Type_f2c(MPI_Fint datatype) { return static_cast<MPI_Datatype>(datatype); }
MPI_Fint PMPI_Group_c2f(MPI_Group group) { return static_cast<MPI_Fint>(group); }
MPI_Group PMPI_Group_f2c(MPI_Fint group) { return static_cast<MPI_Group>(group); }
MPI_Fint PMPI_Op_c2f(MPI_Op op) { return static_cast<MPI_Fint>(op); }
MPI_Op PMPI_Op_f2c(MPI_Fint op) { return static_cast<MPI_Op>(op); }
MPI_Fint PMPI_Info_c2f(MPI_Info info) { return static_cast<MPI_Fint>(info); }
MPI_Info PMPI_Info_f2c(MPI_Fint info) { return static_cast<MPI_Info>(info); }
MPI_Fint PMPI_Errhandler_c2f(MPI_Errhandler errhandler) {
  return static_cast<MPI_Fint>(errhandler);
}
MPI_Errhandler PMPI_Errhandler_f2c(MPI_Fint errhandler) {
  return static_cast<MPI_Errhandler>(errhandler);
}

MPI_Fint PMPI_Request_c2f(MPI_Request request) { return weft::fhandles::request_c2f(request); }
MPI_Request PMPI_Request_f2c(MPI_Fint request) { return weft::fhandles::request_f2c(request); }
MPI_Fint PMPI_Message_c2f(MPI_Message message) { return weft::fhandles::message_c2f(message); }
MPI_Message PMPI_Message_f2c(MPI_Fint message) { return weft::fhandles::message_f2c(message); }

int PMPI_Status_c2f(const MPI_Status* c_status, MPI_Fint* f_status) {
  constexpr const char* fn = "MPI_Status_c2f";
  if (int rc = check_status_args(c_status, "c_status", f_status, "f_status", fn)) return rc;
  const auto bytes = static_cast<uint64_t>(c_status->weft_bytes);
  f_status[MPI_F_SOURCE] = c_status->MPI_SOURCE;
  f_status[MPI_F_TAG] = c_status->MPI_TAG;
  f_status[MPI_F_ERROR] = c_status->MPI_ERROR;
  f_status[3] = c_status->weft_cancelled;
  f_status[4] = static_cast<MPI_Fint>(static_cast<uint32_t>(bytes));
  f_status[5] = static_cast<MPI_Fint>(static_cast<uint32_t>(bytes >> 32));
  return MPI_SUCCESS;
}

// The mpi_f08 status holds the same integers as the mpif.h/mpi one, in the same order.
static_assert(sizeof(MPI_F08_status) == MPI_F_STATUS_SIZE * sizeof(MPI_Fint));

int PMPI_Status_c2f08(const MPI_Status* c_status, MPI_F08_status* f08_status) {
  if (int rc = check_status_args(c_status, "c_status", f08_status, "f08_status",
                                 "MPI_Status_c2f08"))
    return rc;
  return PMPI_Status_c2f(c_status, &f08_status->MPI_SOURCE);
}

int PMPI_Status_f082c(const MPI_F08_status* f08_status, MPI_Status* c_status) {
  if (int rc = check_status_args(f08_status, "f08_status", c_status, "c_status",
                                 "MPI_Status_f082c"))
    return rc;
  return PMPI_Status_f2c(&f08_status->MPI_SOURCE, c_status);
}

int PMPI_Status_f2f08(const MPI_Fint* f_status, MPI_F08_status* f08_status) {
  if (int rc = check_status_args(f_status, "f_status", f08_status, "f08_status",
                                 "MPI_Status_f2f08"))
    return rc;
  std::memcpy(&f08_status->MPI_SOURCE, f_status, sizeof(MPI_F08_status));
  return MPI_SUCCESS;
}

int PMPI_Status_f082f(const MPI_F08_status* f08_status, MPI_Fint* f_status) {
  if (int rc = check_status_args(f08_status, "f08_status", f_status, "f_status",
                                 "MPI_Status_f082f"))
    return rc;
  std::memcpy(f_status, &f08_status->MPI_SOURCE, sizeof(MPI_F08_status));
  return MPI_SUCCESS;
}

int PMPI_Status_f2c(const MPI_Fint* f_status, MPI_Status* c_status) {
  constexpr const char* fn = "MPI_Status_f2c";
  if (int rc = check_status_args(f_status, "f_status", c_status, "c_status", fn)) return rc;
  const uint64_t low = static_cast<uint32_t>(f_status[4]);
  const uint64_t high = static_cast<uint32_t>(f_status[5]);
  c_status->MPI_SOURCE = f_status[MPI_F_SOURCE];
  c_status->MPI_TAG = f_status[MPI_F_TAG];
  c_status->MPI_ERROR = f_status[MPI_F_ERROR];
  c_status->weft_cancelled = f_status[3];
  c_status->weft_bytes = static_cast<long long>(low | (high << 32));
  return MPI_SUCCESS;
}

}  // extern "C"

// The profiling interface: each MPI_X is a weak alias of PMPI_X (runtime/c_api/guard.hpp).
WEFT_MPI_ALIAS(MPI_Comm_c2f)
WEFT_MPI_ALIAS(MPI_Comm_f2c)
WEFT_MPI_ALIAS(MPI_Type_c2f)
WEFT_MPI_ALIAS(MPI_Type_f2c)
WEFT_MPI_ALIAS(MPI_Group_c2f)
WEFT_MPI_ALIAS(MPI_Group_f2c)
WEFT_MPI_ALIAS(MPI_Op_c2f)
WEFT_MPI_ALIAS(MPI_Op_f2c)
WEFT_MPI_ALIAS(MPI_Info_c2f)
WEFT_MPI_ALIAS(MPI_Info_f2c)
WEFT_MPI_ALIAS(MPI_Errhandler_c2f)
WEFT_MPI_ALIAS(MPI_Errhandler_f2c)
WEFT_MPI_ALIAS(MPI_Request_c2f)
WEFT_MPI_ALIAS(MPI_Request_f2c)
WEFT_MPI_ALIAS(MPI_Message_c2f)
WEFT_MPI_ALIAS(MPI_Message_f2c)
WEFT_MPI_ALIAS(MPI_Status_c2f)
WEFT_MPI_ALIAS(MPI_Status_f2c)
WEFT_MPI_ALIAS(MPI_Status_c2f08)
WEFT_MPI_ALIAS(MPI_Status_f082c)
WEFT_MPI_ALIAS(MPI_Status_f2f08)
WEFT_MPI_ALIAS(MPI_Status_f082f)
