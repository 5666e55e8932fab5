// Point-to-point chapter: send modes, receive, sendrecv, probe and count queries.
#include <cstring>
#include <vector>

#include "mpi.h"
#include "pt2pt/pt2pt.hpp"
#include "runtime/c_api/guard.hpp"
#include "runtime/c_api/request_status.hpp"
#include "runtime/datatype.hpp"

using weft::Status;
using weft::world;
using weft::pt2pt::SendMode;
namespace capi = weft::capi;

namespace {

struct Message {
  weft::Comm* comm = nullptr;
  size_t bytes = 0;
};

Status check_message(const void* buf, int count, MPI_Datatype datatype, Message* m) {
  WEFT_TRY(capi::check_count(count, "count"));
  const weft::DatatypeInfo* type = nullptr;
  WEFT_TRY(weft::lookup_datatype(datatype, "datatype", &type));
  WEFT_TRY(capi::check_buffer(buf, count, "buf"));
  m->bytes = size_t(count) * type->size;
  return Status::success();
}

Status check_send(const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
                  MPI_Comm comm, Message* m) {
  WEFT_TRY(weft::lookup_comm(world().comms, comm, "comm", &m->comm));
  WEFT_TRY(check_message(buf, count, datatype, m));
  WEFT_TRY(capi::check_dest(*m->comm, dest, "dest"));
  return capi::check_send_tag(tag, "tag");
}

Status check_recv(const void* buf, int count, MPI_Datatype datatype, int source, int tag,
                  MPI_Comm comm, Message* m) {
  WEFT_TRY(weft::lookup_comm(world().comms, comm, "comm", &m->comm));
  WEFT_TRY(check_message(buf, count, datatype, m));
  WEFT_TRY(capi::check_source(*m->comm, source, "source"));
  return capi::check_recv_tag(tag, "tag");
}

int blocking_send(const char* fn, const void* buf, int count, MPI_Datatype datatype, int dest,
                  int tag, MPI_Comm comm, SendMode mode) {
  WEFT_REQUIRE_RUNNING(fn);
  Message m;
  WEFT_CHECK(comm, fn, check_send(buf, count, datatype, dest, tag, comm, &m));
  weft::Request r;
  WEFT_CHECK(comm, fn, weft::pt2pt::start_send(*m.comm, buf, m.bytes, dest, tag, mode, &r));
  weft::pt2pt::wait(&r);
  return capi::report(comm, fn, capi::request_outcome(r));
}

int nonblocking_send(const char* fn, const void* buf, int count, MPI_Datatype datatype, int dest,
                     int tag, MPI_Comm comm, SendMode mode, MPI_Request* request) {
  WEFT_REQUIRE_RUNNING(fn);
  Message m;
  WEFT_CHECK(comm, fn, check_send(buf, count, datatype, dest, tag, comm, &m));
  WEFT_CHECK(comm, fn, capi::check_not_null(request, "request"));
  weft::Request* r = world().requests.acquire();
  Status s = weft::pt2pt::start_send(*m.comm, buf, m.bytes, dest, tag, mode, r);
  if (!s.ok()) {
    world().requests.release(r);
    return capi::report(comm, fn, s);
  }
  *request = r;
  return MPI_SUCCESS;
}

int blocking_recv(const char* fn, void* buf, int count, MPI_Datatype datatype, int source, int tag,
                  MPI_Comm comm, MPI_Status* status) {
  WEFT_REQUIRE_RUNNING(fn);
  Message m;
  WEFT_CHECK(comm, fn, check_recv(buf, count, datatype, source, tag, comm, &m));
  weft::Request r;
  WEFT_CHECK(comm, fn, weft::pt2pt::start_recv(*m.comm, buf, m.bytes, source, tag, &r));
  weft::pt2pt::wait(&r);
  weft::fill_status(r, status);
  return capi::report(comm, fn, capi::request_outcome(r));
}

}  // namespace

extern "C" {

int PMPI_Send(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  return blocking_send("MPI_Send", buf, count, datatype, dest, tag, comm, SendMode::kStandard);
}

int PMPI_Ssend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  return blocking_send("MPI_Ssend", buf, count, datatype, dest, tag, comm, SendMode::kSynchronous);
}

int PMPI_Rsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  return blocking_send("MPI_Rsend", buf, count, datatype, dest, tag, comm, SendMode::kReady);
}

int PMPI_Isend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
              MPI_Request* request) {
  return nonblocking_send("MPI_Isend", buf, count, datatype, dest, tag, comm, SendMode::kStandard,
                          request);
}

int PMPI_Issend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               MPI_Request* request) {
  return nonblocking_send("MPI_Issend", buf, count, datatype, dest, tag, comm,
                          SendMode::kSynchronous, request);
}

int PMPI_Irsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               MPI_Request* request) {
  return nonblocking_send("MPI_Irsend", buf, count, datatype, dest, tag, comm, SendMode::kReady,
                          request);
}

int PMPI_Recv(void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
             MPI_Status* status) {
  return blocking_recv("MPI_Recv", buf, count, datatype, source, tag, comm, status);
}

int PMPI_Irecv(void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
              MPI_Request* request) {
  constexpr const char* fn = "MPI_Irecv";
  WEFT_REQUIRE_RUNNING(fn);
  Message m;
  WEFT_CHECK(comm, fn, check_recv(buf, count, datatype, source, tag, comm, &m));
  WEFT_CHECK(comm, fn, capi::check_not_null(request, "request"));
  weft::Request* r = world().requests.acquire();
  Status s = weft::pt2pt::start_recv(*m.comm, buf, m.bytes, source, tag, r);
  if (!s.ok()) {
    world().requests.release(r);
    return capi::report(comm, fn, s);
  }
  *request = r;
  return MPI_SUCCESS;
}

int PMPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                 void* recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                 MPI_Comm comm, MPI_Status* status) {
  constexpr const char* fn = "MPI_Sendrecv";
  WEFT_REQUIRE_RUNNING(fn);
  Message out, in;
  WEFT_CHECK(comm, fn, check_send(sendbuf, sendcount, sendtype, dest, sendtag, comm, &out));
  WEFT_CHECK(comm, fn, check_recv(recvbuf, recvcount, recvtype, source, recvtag, comm, &in));
  weft::Request send, recv;
  WEFT_CHECK(comm, fn, weft::pt2pt::start_recv(*in.comm, recvbuf, in.bytes, source, recvtag, &recv));
  WEFT_CHECK(comm, fn, weft::pt2pt::start_send(*out.comm, sendbuf, out.bytes, dest, sendtag,
                                               SendMode::kStandard, &send));
  weft::pt2pt::wait(&recv);
  weft::pt2pt::wait(&send);
  weft::fill_status(recv, status);
  WEFT_CHECK(comm, fn, capi::request_outcome(send));
  return capi::report(comm, fn, capi::request_outcome(recv));
}

int PMPI_Sendrecv_replace(void* buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                         int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
  constexpr const char* fn = "MPI_Sendrecv_replace";
  WEFT_REQUIRE_RUNNING(fn);
  Message m;
  WEFT_CHECK(comm, fn, check_send(buf, count, datatype, dest, sendtag, comm, &m));
  WEFT_CHECK(comm, fn, capi::check_source(*m.comm, source, "source"));
  WEFT_CHECK(comm, fn, capi::check_recv_tag(recvtag, "recvtag"));
  const auto* bytes = static_cast<const unsigned char*>(buf);
  std::vector<unsigned char> outgoing(bytes, bytes + m.bytes);
  weft::Request send, recv;
  WEFT_CHECK(comm, fn, weft::pt2pt::start_send(*m.comm, outgoing.data(), m.bytes, dest, sendtag,
                                               SendMode::kStandard, &send));
  WEFT_CHECK(comm, fn, weft::pt2pt::start_recv(*m.comm, buf, m.bytes, source, recvtag, &recv));
  weft::pt2pt::wait(&recv);
  weft::pt2pt::wait(&send);
  weft::fill_status(recv, status);
  WEFT_CHECK(comm, fn, capi::request_outcome(send));
  return capi::report(comm, fn, capi::request_outcome(recv));
}

int PMPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status* status) {
  constexpr const char* fn = "MPI_Probe";
  WEFT_REQUIRE_RUNNING(fn);
  weft::Comm* c = nullptr;
  WEFT_CHECK(comm, fn, weft::lookup_comm(world().comms, comm, "comm", &c));
  WEFT_CHECK(comm, fn, capi::check_source(*c, source, "source"));
  WEFT_CHECK(comm, fn, capi::check_recv_tag(tag, "tag"));
  int flag = 0;
  return capi::report(comm, fn, weft::pt2pt::probe(*c, source, tag, true, &flag, status));
}

int PMPI_Iprobe(int source, int tag, MPI_Comm comm, int* flag, MPI_Status* status) {
  constexpr const char* fn = "MPI_Iprobe";
  WEFT_REQUIRE_RUNNING(fn);
  weft::Comm* c = nullptr;
  WEFT_CHECK(comm, fn, weft::lookup_comm(world().comms, comm, "comm", &c));
  WEFT_CHECK(comm, fn, capi::check_source(*c, source, "source"));
  WEFT_CHECK(comm, fn, capi::check_recv_tag(tag, "tag"));
  WEFT_CHECK(comm, fn, capi::check_not_null(flag, "flag"));
  return capi::report(comm, fn, weft::pt2pt::probe(*c, source, tag, false, flag, status));
}

int PMPI_Get_count(const MPI_Status* status, MPI_Datatype datatype, int* count) {
  constexpr const char* fn = "MPI_Get_count";
  WEFT_CHECK(MPI_COMM_WORLD, fn, capi::check_not_null(status, "status"));
  WEFT_CHECK(MPI_COMM_WORLD, fn, capi::check_not_null(count, "count"));
  const weft::DatatypeInfo* type = nullptr;
  WEFT_CHECK(MPI_COMM_WORLD, fn, weft::lookup_datatype(datatype, "datatype", &type));
  const long long bytes = status->weft_bytes;
  if (type->size == 0) {
    *count = 0;
  } else if (bytes % (long long)type->size != 0) {
    *count = MPI_UNDEFINED;
  } else {
    *count = int(bytes / (long long)type->size);
  }
  return MPI_SUCCESS;
}

int PMPI_Get_elements(const MPI_Status* status, MPI_Datatype datatype, int* count) {
  return PMPI_Get_count(status, datatype, count);
}

}  // extern "C"

// The profiling interface: each MPI_X is a weak alias of PMPI_X (runtime/c_api/guard.hpp).
WEFT_MPI_ALIAS(MPI_Send)
WEFT_MPI_ALIAS(MPI_Ssend)
WEFT_MPI_ALIAS(MPI_Rsend)
WEFT_MPI_ALIAS(MPI_Isend)
WEFT_MPI_ALIAS(MPI_Issend)
WEFT_MPI_ALIAS(MPI_Irsend)
WEFT_MPI_ALIAS(MPI_Recv)
WEFT_MPI_ALIAS(MPI_Irecv)
WEFT_MPI_ALIAS(MPI_Sendrecv)
WEFT_MPI_ALIAS(MPI_Sendrecv_replace)
WEFT_MPI_ALIAS(MPI_Probe)
WEFT_MPI_ALIAS(MPI_Iprobe)
WEFT_MPI_ALIAS(MPI_Get_count)
WEFT_MPI_ALIAS(MPI_Get_elements)
