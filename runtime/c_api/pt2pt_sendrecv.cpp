// Point-to-point chapter, combined send-receive: MPI_Sendrecv and MPI_Sendrecv_replace, blocking
// and nonblocking (MPI_Isendrecv, MPI_Isendrecv_replace, MPI 4.0 §3.10), each in its int and
// large-count (_c) form. All of them start one Exchange; the blocking forms wait for it in place,
// the nonblocking ones hand it to the progress engine as their request's activity.
#include <vector>

#include "gpu/typed_copy.hpp"
#include "mpi.h"
#include "pt2pt/typed.hpp"
#include "runtime/c_api/pt2pt_args.hpp"
#include "runtime/c_api/request_status.hpp"

using weft::Status;
using weft::world;
using weft::pt2pt::SendMode;
namespace capi = weft::capi;

namespace {

// A receive and a send started together, complete once both are. The receive starts first; a
// send that then fails to start takes the receive down with it, so nothing outlives the call.
// The error it reports is the send's, else the receive's; its status is the receive's.
class Exchange final : public weft::Activity {
 public:
  // `report`: the completion of the request that owns this exchange (nonblocking forms).
  explicit Exchange(weft::Completion* report) : report_(report) {}

  // MPI_Sendrecv: `out` to dest from sendbuf, `in` from source into recvbuf.
  Status start(const capi::MessageArgs& out, const void* sendbuf, int dest, int sendtag,
               const capi::MessageArgs& in, void* recvbuf, int source, int recvtag) {
    WEFT_TRY(weft::pt2pt::start_typed_recv(*in.comm, recvbuf, in.count, *in.type, source, recvtag,
                                           &recv_));
    return started(weft::pt2pt::start_typed_send(*out.comm, sendbuf, out.count, *out.type, dest,
                                                 sendtag, SendMode::kStandard, &send_));
  }

  // MPI_Sendrecv_replace: the outgoing data leaves from a packed copy taken first, so the
  // receive may overwrite `buf`.
  Status start_replace(const capi::MessageArgs& m, void* buf, int dest, int sendtag, int source,
                       int recvtag) {
    outgoing_.resize(m.count * m.type->size());
    WEFT_TRY(weft::gpu::pack_typed(buf, m.count, *m.type, outgoing_.data()));
    WEFT_TRY(
        weft::pt2pt::start_typed_recv(*m.comm, buf, m.count, *m.type, source, recvtag, &recv_));
    return started(weft::pt2pt::start_send(*m.comm, outgoing_.data(), outgoing_.size(), dest,
                                           sendtag, SendMode::kStandard, &send_));
  }

  // Blocks until both halves are complete (the blocking forms).
  void wait() {
    weft::pt2pt::wait(&recv_);
    weft::pt2pt::wait(&send_);
    advance();
  }

  unsigned advance() override {
    if (finished_ || !recv_.completion.done || !send_.completion.done) return 0;
    weft::deliver_staged(&recv_);  // a non-contiguous receive's data goes to its buffer
    finished_ = true;
    if (report_ != nullptr) {
      report_->error_class = outcome().error_class;
      report_->done = true;
    }
    return 1;
  }
  bool finished() const override { return finished_; }
  Status outcome() const override {
    Status s = capi::request_outcome(send_);
    return s.ok() ? capi::request_outcome(recv_) : s;
  }
  Status restart() override {
    return Status::error(MPI_ERR_REQUEST, "an MPI_Isendrecv request cannot be restarted");
  }
  const weft::Request* received() const override { return &recv_; }

 private:
  Status started(Status send) {
    if (!send.ok()) {
      if (!recv_.completion.done) world().transport->cancel(&recv_.completion);
      weft::pt2pt::wait(&recv_);
      finished_ = true;
    }
    return send;
  }

  weft::Request send_, recv_;
  std::vector<unsigned char> outgoing_;
  weft::Completion* report_;
  bool finished_ = false;
};

// Starts an exchange with `start` and completes it: in place, filling `status` (request null:
// the blocking forms), or as the activity of a new request in *request.
template <typename Start>
int run(const char* fn, MPI_Comm comm, Start start, MPI_Status* status, MPI_Request* request) {
  if (request == nullptr) {
    Exchange ex(nullptr);
    WEFT_CHECK(comm, fn, start(ex));
    ex.wait();
    weft::fill_status(*ex.received(), status);
    return capi::report(comm, fn, ex.outcome());
  }
  weft::Request* r = world().requests.acquire();
  auto* ex = new Exchange(&r->completion);
  if (Status s = start(*ex); !s.ok()) {
    delete ex;
    world().requests.release(r);
    return capi::report(comm, fn, s);
  }
  r->kind = WeftRequestKind::kActivity;
  r->comm = comm;
  r->activity = ex;
  ex->advance();
  if (!ex->finished()) world().progress.activate(ex);
  *request = r;
  return MPI_SUCCESS;
}

// MPI_Sendrecv (request null) and MPI_Isendrecv.
int sendrecv(const char* fn, const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
             int dest, int sendtag, void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
             int source, int recvtag, MPI_Comm comm, MPI_Status* status, bool nonblocking,
             MPI_Request* request) {
  WEFT_REQUIRE_RUNNING(fn);
  capi::MessageArgs out, in;
  WEFT_CHECK(comm, fn,
             capi::check_send(sendbuf, sendcount, sendtype, dest, sendtag, comm, capi::kSendArgs,
                              "sendtag", &out));
  WEFT_CHECK(comm, fn,
             capi::check_recv(recvbuf, recvcount, recvtype, source, recvtag, comm, capi::kRecvArgs,
                              "recvtag", &in));
  if (nonblocking) WEFT_CHECK(comm, fn, capi::check_not_null(request, "request"));
  return run(
      fn, comm,
      [&](Exchange& ex) {
        return ex.start(out, sendbuf, dest, sendtag, in, recvbuf, source, recvtag);
      },
      status, request);
}

// MPI_Sendrecv_replace (request null) and MPI_Isendrecv_replace.
int sendrecv_replace(const char* fn, void* buf, MPI_Count count, MPI_Datatype datatype, int dest,
                     int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Status* status,
                     bool nonblocking, MPI_Request* request) {
  WEFT_REQUIRE_RUNNING(fn);
  capi::MessageArgs m;
  WEFT_CHECK(
      comm, fn,
      capi::check_send(buf, count, datatype, dest, sendtag, comm, capi::kArgs, "sendtag", &m));
  WEFT_CHECK(comm, fn, capi::check_source(*m.comm, source, "source"));
  WEFT_CHECK(comm, fn, capi::check_recv_tag(recvtag, "recvtag"));
  if (nonblocking) WEFT_CHECK(comm, fn, capi::check_not_null(request, "request"));
  return run(
      fn, comm,
      [&](Exchange& ex) { return ex.start_replace(m, buf, dest, sendtag, source, recvtag); },
      status, request);
}

}  // namespace

extern "C" {

int PMPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                  void* recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                  MPI_Comm comm, MPI_Status* status) {
  return sendrecv("MPI_Sendrecv", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                  recvtype, source, recvtag, comm, status, false, nullptr);
}
int PMPI_Sendrecv_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                    int sendtag, void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                    int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
  return sendrecv("MPI_Sendrecv_c", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                  recvtype, source, recvtag, comm, status, false, nullptr);
}
int PMPI_Isendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                   void* recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                   MPI_Comm comm, MPI_Request* request) {
  return sendrecv("MPI_Isendrecv", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                  recvtype, source, recvtag, comm, MPI_STATUS_IGNORE, true, request);
}
int PMPI_Isendrecv_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                     int sendtag, void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                     int source, int recvtag, MPI_Comm comm, MPI_Request* request) {
  return sendrecv("MPI_Isendrecv_c", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                  recvcount, recvtype, source, recvtag, comm, MPI_STATUS_IGNORE, true, request);
}

int PMPI_Sendrecv_replace(void* buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                          int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
  return sendrecv_replace("MPI_Sendrecv_replace", buf, count, datatype, dest, sendtag, source,
                          recvtag, comm, status, false, nullptr);
}
int PMPI_Sendrecv_replace_c(void* buf, MPI_Count count, MPI_Datatype datatype, int dest,
                            int sendtag, int source, int recvtag, MPI_Comm comm,
                            MPI_Status* status) {
  return sendrecv_replace("MPI_Sendrecv_replace_c", buf, count, datatype, dest, sendtag, source,
                          recvtag, comm, status, false, nullptr);
}
int PMPI_Isendrecv_replace(void* buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                           int source, int recvtag, MPI_Comm comm, MPI_Request* request) {
  return sendrecv_replace("MPI_Isendrecv_replace", buf, count, datatype, dest, sendtag, source,
                          recvtag, comm, MPI_STATUS_IGNORE, true, request);
}
int PMPI_Isendrecv_replace_c(void* buf, MPI_Count count, MPI_Datatype datatype, int dest,
                             int sendtag, int source, int recvtag, MPI_Comm comm,
                             MPI_Request* request) {
  return sendrecv_replace("MPI_Isendrecv_replace_c", buf, count, datatype, dest, sendtag, source,
                          recvtag, comm, MPI_STATUS_IGNORE, true, request);
}

}  // extern "C"

// The profiling interface: each MPI_X is a weak alias of PMPI_X (runtime/c_api/guard.hpp).
WEFT_MPI_ALIAS(MPI_Sendrecv)
WEFT_MPI_ALIAS(MPI_Sendrecv_c)
WEFT_MPI_ALIAS(MPI_Isendrecv)
WEFT_MPI_ALIAS(MPI_Isendrecv_c)
WEFT_MPI_ALIAS(MPI_Sendrecv_replace)
WEFT_MPI_ALIAS(MPI_Sendrecv_replace_c)
WEFT_MPI_ALIAS(MPI_Isendrecv_replace)
WEFT_MPI_ALIAS(MPI_Isendrecv_replace_c)
