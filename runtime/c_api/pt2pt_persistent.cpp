// Point-to-point chapter, persistent requests: MPI_Send_init, MPI_Ssend_init, MPI_Rsend_init,
// MPI_Bsend_init and MPI_Recv_init in their int and large-count (_c) forms. MPI_Start/Startall
// (runtime/c_api/requests.cpp) start them; Wait/Test complete them and leave them inactive.
#include "mpi.h"
#include "pt2pt/persistent.hpp"
#include "runtime/c_api/pt2pt_args.hpp"

using weft::world;
using weft::pt2pt::SendMode;
namespace capi = weft::capi;

namespace {

int send_init(const char* fn, const void* buf, MPI_Count count, MPI_Datatype datatype, int dest,
              int tag, MPI_Comm comm, SendMode mode, MPI_Request* request) {
  WEFT_REQUIRE_RUNNING(fn);
  capi::MessageArgs m;
  WEFT_CHECK(comm, fn,
             capi::check_send(buf, count, datatype, dest, tag, comm, capi::kArgs, "tag", &m));
  WEFT_CHECK(comm, fn, capi::check_not_null(request, "request"));
  weft::Request* r = world().requests.acquire();
  weft::pt2pt::init_persistent_send(*m.comm, buf, m.count, *m.type, dest, tag, mode, r);
  *request = r;
  return MPI_SUCCESS;
}

int recv_init(const char* fn, void* buf, MPI_Count count, MPI_Datatype datatype, int source,
              int tag, MPI_Comm comm, MPI_Request* request) {
  WEFT_REQUIRE_RUNNING(fn);
  capi::MessageArgs m;
  WEFT_CHECK(comm, fn,
             capi::check_recv(buf, count, datatype, source, tag, comm, capi::kArgs, "tag", &m));
  WEFT_CHECK(comm, fn, capi::check_not_null(request, "request"));
  weft::Request* r = world().requests.acquire();
  weft::pt2pt::init_persistent_recv(*m.comm, buf, m.count, *m.type, source, tag, r);
  *request = r;
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int PMPI_Send_init(const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
                   MPI_Comm comm, MPI_Request* request) {
  return send_init("MPI_Send_init", buf, count, datatype, dest, tag, comm, SendMode::kStandard,
                   request);
}
int PMPI_Send_init_c(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                     MPI_Comm comm, MPI_Request* request) {
  return send_init("MPI_Send_init_c", buf, count, datatype, dest, tag, comm, SendMode::kStandard,
                   request);
}

int PMPI_Ssend_init(const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
                    MPI_Comm comm, MPI_Request* request) {
  return send_init("MPI_Ssend_init", buf, count, datatype, dest, tag, comm, SendMode::kSynchronous,
                   request);
}
int PMPI_Ssend_init_c(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                      MPI_Comm comm, MPI_Request* request) {
  return send_init("MPI_Ssend_init_c", buf, count, datatype, dest, tag, comm,
                   SendMode::kSynchronous, request);
}

int PMPI_Rsend_init(const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
                    MPI_Comm comm, MPI_Request* request) {
  return send_init("MPI_Rsend_init", buf, count, datatype, dest, tag, comm, SendMode::kReady,
                   request);
}
int PMPI_Rsend_init_c(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                      MPI_Comm comm, MPI_Request* request) {
  return send_init("MPI_Rsend_init_c", buf, count, datatype, dest, tag, comm, SendMode::kReady,
                   request);
}

int PMPI_Bsend_init(const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
                    MPI_Comm comm, MPI_Request* request) {
  return send_init("MPI_Bsend_init", buf, count, datatype, dest, tag, comm, SendMode::kBuffered,
                   request);
}
int PMPI_Bsend_init_c(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                      MPI_Comm comm, MPI_Request* request) {
  return send_init("MPI_Bsend_init_c", buf, count, datatype, dest, tag, comm, SendMode::kBuffered,
                   request);
}

int PMPI_Recv_init(void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                   MPI_Request* request) {
  return recv_init("MPI_Recv_init", buf, count, datatype, source, tag, comm, request);
}
int PMPI_Recv_init_c(void* buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                     MPI_Comm comm, MPI_Request* request) {
  return recv_init("MPI_Recv_init_c", buf, count, datatype, source, tag, comm, request);
}

}  // extern "C"

// The profiling interface: each MPI_X is a weak alias of PMPI_X (runtime/c_api/guard.hpp).
WEFT_MPI_ALIAS(MPI_Send_init)
WEFT_MPI_ALIAS(MPI_Send_init_c)
WEFT_MPI_ALIAS(MPI_Ssend_init)
WEFT_MPI_ALIAS(MPI_Ssend_init_c)
WEFT_MPI_ALIAS(MPI_Rsend_init)
WEFT_MPI_ALIAS(MPI_Rsend_init_c)
WEFT_MPI_ALIAS(MPI_Bsend_init)
WEFT_MPI_ALIAS(MPI_Bsend_init_c)
WEFT_MPI_ALIAS(MPI_Recv_init)
WEFT_MPI_ALIAS(MPI_Recv_init_c)
