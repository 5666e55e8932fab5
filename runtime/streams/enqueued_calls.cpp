// The stream-ordered calls on a CUDA stream's queue (enqueued_calls.hpp).
#include "runtime/streams/enqueued_calls.hpp"

#include <memory>

#include "runtime/request.hpp"
#include "runtime/streams/sides.hpp"

namespace weft::streams {
namespace {

// An MPIX_Isend_enqueue or MPIX_Irecv_enqueue in flight: the generalized request the
// application holds (`outer`, whose extra state owns a reference to this) and the request the
// thread posted (`inner`).
struct Pending {
  std::shared_ptr<StreamQueue> queue;
  Side side;
  bool receive = false;
  MPI_Datatype type = MPI_DATATYPE_NULL, held = MPI_DATATYPE_NULL;
  MPI_Request inner = MPI_REQUEST_NULL, outer = MPI_REQUEST_NULL;
  MPI_Status status{};
};

using PendingRef = std::shared_ptr<Pending>;  // a generalized request's extra state

int query_pending(void* extra, MPI_Status* status) {
  *status = (*static_cast<PendingRef*>(extra))->status;
  return MPI_SUCCESS;
}
int free_pending(void* extra) {
  delete static_cast<PendingRef*>(extra);
  return MPI_SUCCESS;
}
int cancel_pending(void*, int) { return MPI_SUCCESS; }

// Makes the application's request for `p`.
Status make_request(const PendingRef& p, MPI_Request* request) {
  auto* extra = new PendingRef(p);
  if (PMPI_Grequest_start(query_pending, free_pending, cancel_pending, extra, &p->outer) !=
      MPI_SUCCESS) {
    delete extra;
    return Status::error(MPI_ERR_INTERN, "could not make the request of an enqueued call");
  }
  p->outer->stream_ordered = true;  // the other calls on requests refuse it
  *request = p->outer;
  return Status::success();
}

}  // namespace

Status send(StreamQueue& q, const void* buf, MPI_Count count, MPI_Datatype type, int dest, int tag,
            MPI_Comm comm) {
  Side side;
  WEFT_TRY(place(q, buf, span_of(count, type), true, &side));
  const MPI_Datatype held = hold(type);
  WEFT_TRY(q.run_at_stream_point(
      "MPIX_Send_enqueue",
      [=] {
        const int rc = PMPI_Send_c(side.at, count, held, dest, tag, comm);
        drop(held, type);
        return rc;
      },
      true));
  return unplace(q, side, false);
}

Status recv(StreamQueue& q, void* buf, MPI_Count count, MPI_Datatype type, int source, int tag,
            MPI_Comm comm, MPI_Status* status) {
  const Span span = span_of(count, type);
  Side side;
  WEFT_TRY(place(q, buf, span, !span.dense, &side));
  const MPI_Datatype held = hold(type);
  WEFT_TRY(q.run_at_stream_point(
      "MPIX_Recv_enqueue",
      [=] {
        const int rc = PMPI_Recv_c(side.at, count, held, source, tag, comm, status);
        drop(held, type);
        return rc;
      },
      !side.writable_early()));
  return unplace(q, side, true);
}

Status isend(StreamQueue& q, const void* buf, MPI_Count count, MPI_Datatype type, int dest, int tag,
             MPI_Comm comm, MPI_Request* request) {
  auto p = std::make_shared<Pending>();
  p->queue = q.shared_from_this();
  WEFT_TRY(place(q, buf, span_of(count, type), true, &p->side));
  p->type = type;
  p->held = hold(type);
  WEFT_TRY(make_request(p, request));
  return q.run_at_stream_point(
      "MPIX_Isend_enqueue",
      [=] { return PMPI_Isend_c(p->side.at, count, p->held, dest, tag, comm, &p->inner); }, true);
}

Status irecv(StreamQueue& q, void* buf, MPI_Count count, MPI_Datatype type, int source, int tag,
             MPI_Comm comm, MPI_Request* request) {
  const Span span = span_of(count, type);
  auto p = std::make_shared<Pending>();
  p->queue = q.shared_from_this();
  p->receive = true;
  WEFT_TRY(place(q, buf, span, !span.dense, &p->side));
  p->type = type;
  p->held = hold(type);
  WEFT_TRY(make_request(p, request));
  return q.run_at_stream_point(
      "MPIX_Irecv_enqueue",
      [=] { return PMPI_Irecv_c(p->side.at, count, p->held, source, tag, comm, &p->inner); },
      !p->side.writable_early());
}

bool is_enqueued(MPI_Request request) {
  return request != MPI_REQUEST_NULL && request->stream_ordered;
}

Status wait(MPI_Request* request, MPI_Status* status) {
  if (!is_enqueued(*request))
    return Status::error(MPI_ERR_REQUEST,
                         "invalid request: not one of MPIX_Isend_enqueue or "
                         "MPIX_Irecv_enqueue still in flight");
  const PendingRef p = *static_cast<PendingRef*>((*request)->generalized->extra_state);
  *request = MPI_REQUEST_NULL;
  p->outer->stream_ordered = false;  // the queue's thread completes and frees it
  StreamQueue& q = *p->queue;
  WEFT_TRY(q.run_at_stream_point(
      "MPIX_Wait_enqueue",
      [p, status] {
        const int rc = PMPI_Wait(&p->inner, &p->status);
        if (status != MPI_STATUS_IGNORE) *status = p->status;
        drop(p->held, p->type);
        PMPI_Grequest_complete(p->outer);
        MPI_Request outer = p->outer;
        PMPI_Wait(&outer, MPI_STATUS_IGNORE);
        return rc;
      },
      false));
  return unplace(q, p->side, p->receive);
}

Status allreduce(StreamQueue& q, const void* sendbuf, void* recvbuf, MPI_Count count,
                 MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  const Span span = span_of(count, type);
  const bool in_place = sendbuf == MPI_IN_PLACE;
  Side in, out;
  WEFT_TRY(place(q, recvbuf, span, in_place || !span.dense, &out));
  if (!in_place) WEFT_TRY(place(q, sendbuf, span, true, &in));
  const MPI_Datatype held = hold(type);
  WEFT_TRY(q.run_at_stream_point(
      "MPIX_Allreduce_enqueue",
      [=] {
        const int rc =
            PMPI_Allreduce_c(in_place ? MPI_IN_PLACE : in.at, out.at, count, held, op, comm);
        drop(held, type);
        return rc;
      },
      true));
  WEFT_TRY(unplace(q, out, true));
  return unplace(q, in, false);
}

}  // namespace weft::streams
