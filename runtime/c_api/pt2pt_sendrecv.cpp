// Point-to-point chapter, combined send-receive: MPI_Sendrecv and MPI_Sendrecv_replace in their
// int and large-count (_c) forms.
#include <vector>

#include "mpi.h"
#include "pt2pt/typed.hpp"
#include "runtime/c_api/pt2pt_args.hpp"
#include "runtime/c_api/request_status.hpp"

using weft::Status;
using weft::world;
using weft::pt2pt::SendMode;
namespace capi = weft::capi;

namespace {

int sendrecv(const char* fn, const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
             int dest, int sendtag, void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
             int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
  WEFT_REQUIRE_RUNNING(fn);
  capi::MessageArgs out, in;
  WEFT_CHECK(comm, fn,
             capi::check_send(sendbuf, sendcount, sendtype, dest, sendtag, comm, capi::kSendArgs,
                              "sendtag", &out));
  WEFT_CHECK(comm, fn,
             capi::check_recv(recvbuf, recvcount, recvtype, source, recvtag, comm, capi::kRecvArgs,
                              "recvtag", &in));
  weft::Request send, recv;
  WEFT_CHECK(
      comm, fn,
      weft::pt2pt::start_typed_recv(*in.comm, recvbuf, in.count, *in.type, source, recvtag, &recv));
  const Status started = weft::pt2pt::start_typed_send(*out.comm, sendbuf, out.count, *out.type,
                                                       dest, sendtag, SendMode::kStandard, &send);
  if (!started.ok()) {  // the receive must not outlive this call
    world().transport->cancel(&recv.completion);
    weft::pt2pt::wait(&recv);
    return capi::report(comm, fn, started);
  }
  weft::pt2pt::wait(&recv);
  weft::pt2pt::wait(&send);
  weft::fill_status(recv, status);
  WEFT_CHECK(comm, fn, capi::request_outcome(send));
  return capi::report(comm, fn, capi::request_outcome(recv));
}

int sendrecv_replace(const char* fn, void* buf, MPI_Count count, MPI_Datatype datatype, int dest,
                     int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
  WEFT_REQUIRE_RUNNING(fn);
  capi::MessageArgs m;
  WEFT_CHECK(
      comm, fn,
      capi::check_send(buf, count, datatype, dest, sendtag, comm, capi::kArgs, "sendtag", &m));
  WEFT_CHECK(comm, fn, capi::check_source(*m.comm, source, "source"));
  WEFT_CHECK(comm, fn, capi::check_recv_tag(recvtag, "recvtag"));
  // The outgoing data leaves from a packed copy, so the receive may overwrite the buffer.
  const size_t bytes = m.count * m.type->size();
  std::vector<unsigned char> outgoing(bytes);
  m.type->pack(buf, m.count, outgoing.data());
  weft::Request send, recv;
  WEFT_CHECK(comm, fn,
             weft::pt2pt::start_send(*m.comm, outgoing.data(), bytes, dest, sendtag,
                                     SendMode::kStandard, &send));
  const Status started =
      weft::pt2pt::start_typed_recv(*m.comm, buf, m.count, *m.type, source, recvtag, &recv);
  if (!started.ok()) {  // the send must not outlive its buffer
    weft::pt2pt::wait(&send);
    return capi::report(comm, fn, started);
  }
  weft::pt2pt::wait(&recv);
  weft::pt2pt::wait(&send);
  weft::fill_status(recv, status);
  WEFT_CHECK(comm, fn, capi::request_outcome(send));
  return capi::report(comm, fn, capi::request_outcome(recv));
}

}  // namespace

extern "C" {

int PMPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                  void* recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                  MPI_Comm comm, MPI_Status* status) {
  return sendrecv("MPI_Sendrecv", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                  recvtype, source, recvtag, comm, status);
}
int PMPI_Sendrecv_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                    int sendtag, void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                    int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
  return sendrecv("MPI_Sendrecv_c", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                  recvtype, source, recvtag, comm, status);
}

int PMPI_Sendrecv_replace(void* buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                          int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
  return sendrecv_replace("MPI_Sendrecv_replace", buf, count, datatype, dest, sendtag, source,
                          recvtag, comm, status);
}
int PMPI_Sendrecv_replace_c(void* buf, MPI_Count count, MPI_Datatype datatype, int dest,
                            int sendtag, int source, int recvtag, MPI_Comm comm,
                            MPI_Status* status) {
  return sendrecv_replace("MPI_Sendrecv_replace_c", buf, count, datatype, dest, sendtag, source,
                          recvtag, comm, status);
}

}  // extern "C"

// The profiling interface: each MPI_X is a weak alias of PMPI_X (runtime/c_api/guard.hpp).
WEFT_MPI_ALIAS(MPI_Sendrecv)
WEFT_MPI_ALIAS(MPI_Sendrecv_c)
WEFT_MPI_ALIAS(MPI_Sendrecv_replace)
WEFT_MPI_ALIAS(MPI_Sendrecv_replace_c)
