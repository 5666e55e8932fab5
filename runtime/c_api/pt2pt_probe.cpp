// Point-to-point chapter, probing: MPI_Probe/MPI_Iprobe, and the matched probe MPI_Mprobe/
// MPI_Improbe with the receives of the message it takes, MPI_Mrecv/MPI_Imrecv (and their _c
// forms): a matched message is received by that receive and no other.
#include "mpi.h"
#include "pt2pt/typed.hpp"
#include "runtime/c_api/pt2pt_args.hpp"
#include "runtime/c_api/request_status.hpp"

using weft::Status;
using weft::world;
namespace capi = weft::capi;

namespace {

int probe(const char* fn, int source, int tag, MPI_Comm comm, bool blocking, int* flag,
          MPI_Status* status) {
  WEFT_REQUIRE_RUNNING(fn);
  weft::Comm* c = nullptr;
  WEFT_CHECK(comm, fn, capi::check_probe(source, tag, comm, &c));
  int found = 0;
  if (!blocking) WEFT_CHECK(comm, fn, capi::check_not_null(flag, "flag"));
  WEFT_CHECK(comm, fn, weft::pt2pt::probe(*c, source, tag, blocking, &found, status));
  if (!blocking) *flag = found;
  return MPI_SUCCESS;
}

int mprobe(const char* fn, int source, int tag, MPI_Comm comm, bool blocking, int* flag,
           MPI_Message* message, MPI_Status* status) {
  WEFT_REQUIRE_RUNNING(fn);
  weft::Comm* c = nullptr;
  WEFT_CHECK(comm, fn, capi::check_probe(source, tag, comm, &c));
  if (!blocking) WEFT_CHECK(comm, fn, capi::check_not_null(flag, "flag"));
  WEFT_CHECK(comm, fn, capi::check_not_null(message, "message"));
  int found = 0;
  WEFT_CHECK(comm, fn, weft::pt2pt::mprobe(*c, source, tag, blocking, &found, message, status));
  if (!blocking) *flag = found;
  return MPI_SUCCESS;
}

// A message handle to receive: one from a matched probe, or MPI_MESSAGE_NO_PROC.
Status check_message_handle(const MPI_Message* message) {
  WEFT_TRY(capi::check_not_null(message, "message"));
  if (*message != MPI_MESSAGE_NULL) return Status::success();
  return Status::error(MPI_ERR_REQUEST,
                       "invalid message=MPI_MESSAGE_NULL (not from a matched probe, or received "
                       "already)");
}

// Where errors of a receive of `message` are raised: the communicator it was probed on
// (MPI_COMM_SELF, as for errors tied to no communicator, when there is none).
MPI_Comm comm_of(const MPI_Message* message) {
  const bool probed =
      message != nullptr && *message != MPI_MESSAGE_NULL && *message != MPI_MESSAGE_NO_PROC;
  return probed ? (*message)->comm : MPI_COMM_SELF;
}

// MPI_Mrecv's and MPI_Imrecv's common part: starts receiving *message into `r` and consumes it.
Status start_mrecv(void* buf, MPI_Count count, MPI_Datatype datatype, MPI_Message* message,
                   weft::Request* r) {
  WEFT_TRY(check_message_handle(message));
  capi::MessageArgs m;
  WEFT_TRY(capi::check_message(buf, count, datatype, capi::kArgs, &m));
  const MPI_Message taken = *message;
  *message = MPI_MESSAGE_NULL;
  return weft::pt2pt::start_typed_mrecv(taken, buf, m.count, *m.type, r);
}

int mrecv(const char* fn, void* buf, MPI_Count count, MPI_Datatype datatype, MPI_Message* message,
          MPI_Status* status) {
  WEFT_REQUIRE_RUNNING(fn);
  const MPI_Comm comm = comm_of(message);
  weft::Request r;
  WEFT_CHECK(comm, fn, start_mrecv(buf, count, datatype, message, &r));
  weft::pt2pt::wait(&r);
  weft::fill_status(r, status);
  return capi::report(comm, fn, capi::request_outcome(r));
}

int imrecv(const char* fn, void* buf, MPI_Count count, MPI_Datatype datatype, MPI_Message* message,
           MPI_Request* request) {
  WEFT_REQUIRE_RUNNING(fn);
  const MPI_Comm comm = comm_of(message);
  WEFT_CHECK(comm, fn, capi::check_not_null(request, "request"));
  return capi::start_pooled(comm, fn, request, [&](weft::Request* r) {
    return start_mrecv(buf, count, datatype, message, r);
  });
}

}  // namespace

extern "C" {

int PMPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status* status) {
  return probe("MPI_Probe", source, tag, comm, true, nullptr, status);
}

int PMPI_Iprobe(int source, int tag, MPI_Comm comm, int* flag, MPI_Status* status) {
  return probe("MPI_Iprobe", source, tag, comm, false, flag, status);
}

int PMPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message* message, MPI_Status* status) {
  return mprobe("MPI_Mprobe", source, tag, comm, true, nullptr, message, status);
}

int PMPI_Improbe(int source, int tag, MPI_Comm comm, int* flag, MPI_Message* message,
                 MPI_Status* status) {
  return mprobe("MPI_Improbe", source, tag, comm, false, flag, message, status);
}

int PMPI_Mrecv(void* buf, int count, MPI_Datatype datatype, MPI_Message* message,
               MPI_Status* status) {
  return mrecv("MPI_Mrecv", buf, count, datatype, message, status);
}
int PMPI_Mrecv_c(void* buf, MPI_Count count, MPI_Datatype datatype, MPI_Message* message,
                 MPI_Status* status) {
  return mrecv("MPI_Mrecv_c", buf, count, datatype, message, status);
}

int PMPI_Imrecv(void* buf, int count, MPI_Datatype datatype, MPI_Message* message,
                MPI_Request* request) {
  return imrecv("MPI_Imrecv", buf, count, datatype, message, request);
}
int PMPI_Imrecv_c(void* buf, MPI_Count count, MPI_Datatype datatype, MPI_Message* message,
                  MPI_Request* request) {
  return imrecv("MPI_Imrecv_c", buf, count, datatype, message, request);
}

}  // extern "C"

// The profiling interface: each MPI_X is a weak alias of PMPI_X (runtime/c_api/guard.hpp).
WEFT_MPI_ALIAS(MPI_Probe)
WEFT_MPI_ALIAS(MPI_Iprobe)
WEFT_MPI_ALIAS(MPI_Mprobe)
WEFT_MPI_ALIAS(MPI_Improbe)
WEFT_MPI_ALIAS(MPI_Mrecv)
WEFT_MPI_ALIAS(MPI_Mrecv_c)
WEFT_MPI_ALIAS(MPI_Imrecv)
WEFT_MPI_ALIAS(MPI_Imrecv_c)
