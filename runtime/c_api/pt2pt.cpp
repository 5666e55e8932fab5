// Point-to-point chapter, sends and receives: the four send modes (standard, synchronous, ready,
// buffered), blocking and nonblocking, and receives, each in its int and large-count (_c) form,
// with any committed datatype (pt2pt/typed.hpp moves non-contiguous layouts through staging).
#include "pt2pt/pt2pt.hpp"

#include "mpi.h"
#include "pt2pt/short_paths.hpp"
#include "pt2pt/typed.hpp"
#include "runtime/c_api/pt2pt_args.hpp"
#include "runtime/c_api/request_status.hpp"

using weft::Status;
using weft::world;
using weft::pt2pt::SendMode;
namespace capi = weft::capi;

namespace {

int blocking_send(const char* fn, const void* buf, MPI_Count count, MPI_Datatype datatype, int dest,
                  int tag, MPI_Comm comm, SendMode mode) {
  WEFT_REQUIRE_RUNNING(fn);
  // A ready send may be sent as a standard one (pt2pt::start_send).
  if ((mode == SendMode::kStandard || mode == SendMode::kReady) &&
      weft::pt2pt::short_send(buf, count, datatype, dest, tag, comm))
    return MPI_SUCCESS;
  capi::MessageArgs m;
  WEFT_CHECK(comm, fn,
             capi::check_send(buf, count, datatype, dest, tag, comm, capi::kArgs, "tag", &m));
  weft::Request r;
  WEFT_CHECK(comm, fn,
             weft::pt2pt::start_typed_send(*m.comm, buf, m.count, *m.type, dest, tag, mode, &r));
  weft::pt2pt::wait(&r);
  return capi::report(comm, fn, capi::request_outcome(r));
}

int nonblocking_send(const char* fn, const void* buf, MPI_Count count, MPI_Datatype datatype,
                     int dest, int tag, MPI_Comm comm, SendMode mode, MPI_Request* request) {
  WEFT_REQUIRE_RUNNING(fn);
  // Sent at once on the short path: the request is born complete.
  if ((mode == SendMode::kStandard || mode == SendMode::kReady) && request != nullptr &&
      weft::pt2pt::short_send(buf, count, datatype, dest, tag, comm)) {
    weft::Request* r = world().requests.acquire();
    r->comm = comm;
    r->kind = WeftRequestKind::kSend;
    r->completion.done = true;
    *request = r;
    return MPI_SUCCESS;
  }
  capi::MessageArgs m;
  WEFT_CHECK(comm, fn,
             capi::check_send(buf, count, datatype, dest, tag, comm, capi::kArgs, "tag", &m));
  WEFT_CHECK(comm, fn, capi::check_not_null(request, "request"));
  return capi::start_pooled(comm, fn, request, [&](weft::Request* r) {
    return weft::pt2pt::start_typed_send(*m.comm, buf, m.count, *m.type, dest, tag, mode, r);
  });
}

int blocking_recv(const char* fn, void* buf, MPI_Count count, MPI_Datatype datatype, int source,
                  int tag, MPI_Comm comm, MPI_Status* status) {
  WEFT_REQUIRE_RUNNING(fn);
  if (weft::Completion c; weft::pt2pt::short_recv(buf, count, datatype, source, tag, comm, &c)) {
    weft::fill_received_status(c, status);
    if (c.error_class == MPI_SUCCESS) return MPI_SUCCESS;
    return capi::report(comm, fn, capi::completion_outcome(c));
  }
  capi::MessageArgs m;
  WEFT_CHECK(comm, fn,
             capi::check_recv(buf, count, datatype, source, tag, comm, capi::kArgs, "tag", &m));
  weft::Request r;
  WEFT_CHECK(comm, fn,
             weft::pt2pt::start_typed_recv(*m.comm, buf, m.count, *m.type, source, tag, &r));
  weft::pt2pt::wait(&r);
  weft::fill_status(r, status);
  return capi::report(comm, fn, capi::request_outcome(r));
}

int nonblocking_recv(const char* fn, void* buf, MPI_Count count, MPI_Datatype datatype, int source,
                     int tag, MPI_Comm comm, MPI_Request* request) {
  WEFT_REQUIRE_RUNNING(fn);
  capi::MessageArgs m;
  WEFT_CHECK(comm, fn,
             capi::check_recv(buf, count, datatype, source, tag, comm, capi::kArgs, "tag", &m));
  WEFT_CHECK(comm, fn, capi::check_not_null(request, "request"));
  return capi::start_pooled(comm, fn, request, [&](weft::Request* r) {
    return weft::pt2pt::start_typed_recv(*m.comm, buf, m.count, *m.type, source, tag, r);
  });
}

}  // namespace

extern "C" {

int PMPI_Send(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  return blocking_send("MPI_Send", buf, count, datatype, dest, tag, comm, SendMode::kStandard);
}
int PMPI_Send_c(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm) {
  return blocking_send("MPI_Send_c", buf, count, datatype, dest, tag, comm, SendMode::kStandard);
}

int PMPI_Ssend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm) {
  return blocking_send("MPI_Ssend", buf, count, datatype, dest, tag, comm, SendMode::kSynchronous);
}
int PMPI_Ssend_c(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                 MPI_Comm comm) {
  return blocking_send("MPI_Ssend_c", buf, count, datatype, dest, tag, comm,
                       SendMode::kSynchronous);
}

int PMPI_Rsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm) {
  return blocking_send("MPI_Rsend", buf, count, datatype, dest, tag, comm, SendMode::kReady);
}
int PMPI_Rsend_c(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                 MPI_Comm comm) {
  return blocking_send("MPI_Rsend_c", buf, count, datatype, dest, tag, comm, SendMode::kReady);
}

int PMPI_Bsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm) {
  return blocking_send("MPI_Bsend", buf, count, datatype, dest, tag, comm, SendMode::kBuffered);
}
int PMPI_Bsend_c(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                 MPI_Comm comm) {
  return blocking_send("MPI_Bsend_c", buf, count, datatype, dest, tag, comm, SendMode::kBuffered);
}

int PMPI_Isend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               MPI_Request* request) {
  return nonblocking_send("MPI_Isend", buf, count, datatype, dest, tag, comm, SendMode::kStandard,
                          request);
}
int PMPI_Isend_c(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                 MPI_Comm comm, MPI_Request* request) {
  return nonblocking_send("MPI_Isend_c", buf, count, datatype, dest, tag, comm, SendMode::kStandard,
                          request);
}

int PMPI_Issend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                MPI_Request* request) {
  return nonblocking_send("MPI_Issend", buf, count, datatype, dest, tag, comm,
                          SendMode::kSynchronous, request);
}
int PMPI_Issend_c(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                  MPI_Comm comm, MPI_Request* request) {
  return nonblocking_send("MPI_Issend_c", buf, count, datatype, dest, tag, comm,
                          SendMode::kSynchronous, request);
}

int PMPI_Irsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                MPI_Request* request) {
  return nonblocking_send("MPI_Irsend", buf, count, datatype, dest, tag, comm, SendMode::kReady,
                          request);
}
int PMPI_Irsend_c(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                  MPI_Comm comm, MPI_Request* request) {
  return nonblocking_send("MPI_Irsend_c", buf, count, datatype, dest, tag, comm, SendMode::kReady,
                          request);
}

int PMPI_Ibsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                MPI_Request* request) {
  return nonblocking_send("MPI_Ibsend", buf, count, datatype, dest, tag, comm, SendMode::kBuffered,
                          request);
}
int PMPI_Ibsend_c(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                  MPI_Comm comm, MPI_Request* request) {
  return nonblocking_send("MPI_Ibsend_c", buf, count, datatype, dest, tag, comm,
                          SendMode::kBuffered, request);
}

int PMPI_Recv(void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
              MPI_Status* status) {
  return blocking_recv("MPI_Recv", buf, count, datatype, source, tag, comm, status);
}
int PMPI_Recv_c(void* buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                MPI_Comm comm, MPI_Status* status) {
  return blocking_recv("MPI_Recv_c", buf, count, datatype, source, tag, comm, status);
}

int PMPI_Irecv(void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
               MPI_Request* request) {
  return nonblocking_recv("MPI_Irecv", buf, count, datatype, source, tag, comm, request);
}
int PMPI_Irecv_c(void* buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                 MPI_Comm comm, MPI_Request* request) {
  return nonblocking_recv("MPI_Irecv_c", buf, count, datatype, source, tag, comm, request);
}

}  // extern "C"

// The profiling interface: each MPI_X is a weak alias of PMPI_X (runtime/c_api/guard.hpp).
WEFT_MPI_ALIAS(MPI_Send)
WEFT_MPI_ALIAS(MPI_Send_c)
WEFT_MPI_ALIAS(MPI_Ssend)
WEFT_MPI_ALIAS(MPI_Ssend_c)
WEFT_MPI_ALIAS(MPI_Rsend)
WEFT_MPI_ALIAS(MPI_Rsend_c)
WEFT_MPI_ALIAS(MPI_Bsend)
WEFT_MPI_ALIAS(MPI_Bsend_c)
WEFT_MPI_ALIAS(MPI_Isend)
WEFT_MPI_ALIAS(MPI_Isend_c)
WEFT_MPI_ALIAS(MPI_Issend)
WEFT_MPI_ALIAS(MPI_Issend_c)
WEFT_MPI_ALIAS(MPI_Irsend)
WEFT_MPI_ALIAS(MPI_Irsend_c)
WEFT_MPI_ALIAS(MPI_Ibsend)
WEFT_MPI_ALIAS(MPI_Ibsend_c)
WEFT_MPI_ALIAS(MPI_Recv)
WEFT_MPI_ALIAS(MPI_Recv_c)
WEFT_MPI_ALIAS(MPI_Irecv)
WEFT_MPI_ALIAS(MPI_Irecv_c)
