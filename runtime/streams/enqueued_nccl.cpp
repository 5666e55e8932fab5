// MPIX_Allreduce_enqueue through NCCL on the application's stream (enqueued_nccl.hpp).
#include "runtime/streams/enqueued_nccl.hpp"

#include "coll/device_mirror.hpp"
#include "coll/nccl_path.hpp"
#include "coll/regular_call.hpp"
#include "gpu/memory.hpp"
#include "gpu/nccl_library.hpp"
#include "runtime/call_lock.hpp"
#include "runtime/streams/sides.hpp"
#include "runtime/world.hpp"

namespace weft::streams {
namespace {

// Whether WEFT_ALLREDUCE_ALGORITHM or the model sends an allreduce of `bytes` on `size` ranks to
// NCCL. The model sees the ranks on one node (a stream communicator's nodes are not learnt).
bool wanted(int size, size_t bytes) {
  const coll::Selector& selector = world().selector;
  coll::RegularCall call;
  call.kind = coll::CollKind::kAllreduce;
  call.size = size;
  call.bytes = bytes;
  call.segment_bytes = selector.model().segment_bytes;
  const coll::DevicePrediction p = coll::without_agreement(coll::predict_device_call(
      selector, coll::regular_args(call), bytes, coll::device_mirror_limit()));
  return coll::nccl_wanted(selector, coll::CollKind::kAllreduce, p);
}

// The communicator's NCCL, made on the queue's thread if no call made it yet: that thread runs
// the collectives of the communicator's queued work in order, so every rank makes it at the
// same point of those. *comm: the communicator, found again after that wait.
Status nccl_usable(StreamQueue& q, MPI_Comm handle, Comm** comm, bool* usable) {
  if (world().comms.find(handle)->nccl.held == nullptr) {
    WEFT_TRY(q.run_in_order([handle] {
      CallGuard call;
      Comm* c = world().comms.find(handle);
      bool ignored = false;
      return c != nullptr ? coll::prepare_nccl(*c, &ignored)
                          : Status::error(MPI_ERR_COMM, "the communicator was freed");
    }));
  }
  *comm = world().comms.find(handle);
  return coll::prepare_nccl(**comm, usable);
}

// Whether `count` elements at `buf` are one run of device memory, which the stream copies as
// it is. Host memory is not copied by the stream: from pageable memory the driver's copy to the
// host would wait for the stream (and the call with it).
bool dense_on_device(const void* buf, const Span& span) {
  return span.dense && gpu::on_device(static_cast<const char*>(buf) + span.lo);
}

// Moves the `count` elements of `buf` into device block `block` (`in`), or the result in the
// block out to them with gaps left alone, on the stream: one copy of dense device data, else
// packed or unpacked on the queue's thread at the stream's point through a pinned block that
// the stream copies.
Status stage(StreamQueue& q, void* buf, MPI_Count count, MPI_Datatype type, const Span& span,
             size_t bytes, void* block, bool in) {
  char* first = static_cast<char*>(buf) + span.lo;
  if (dense_on_device(buf, span))
    return in ? q.copy(block, first, bytes) : q.copy(first, block, bytes);
  Side side;
  WEFT_TRY(place(q, buf, span, true, &side));
  void* packed = nullptr;
  WEFT_TRY(q.take_block(bytes, &packed));
  if (!in) WEFT_TRY(q.copy(packed, block, bytes));
  const MPI_Datatype held = hold(type);
  WEFT_TRY(q.run_at_stream_point(
      "MPIX_Allreduce_enqueue",
      [=] {
        MPI_Count position = 0;
        const int rc = in ? PMPI_Pack_c(side.at, count, held, packed, MPI_Count(bytes), &position,
                                        MPI_COMM_SELF)
                          : PMPI_Unpack_c(packed, MPI_Count(bytes), &position, side.at, count, held,
                                          MPI_COMM_SELF);
        drop(held, type);
        return rc;
      },
      true));
  if (in) WEFT_TRY(q.copy(block, packed, bytes));
  WEFT_TRY(unplace(q, side, !in));
  return q.release_at_stream_point(packed);
}

}  // namespace

Status allreduce_on_nccl(StreamQueue& q, const void* sendbuf, void* recvbuf, MPI_Count count,
                         MPI_Datatype datatype, const Datatype& type, const Reduction& reduction,
                         MPI_Comm handle, bool* ran) {
  *ran = false;
  coll::NcclCall call;
  call.kind = coll::CollKind::kAllreduce;
  const Comm* comm = world().comms.find(handle);
  const size_t bytes = size_t(count) * type.size();
  if (bytes == 0 || comm == nullptr || comm->is_inter() || reduction.elem_size == 0 ||
      !gpu::nccl_op_of(reduction.op, &call.op) ||
      !gpu::nccl_datatype_of(reduction.datatype, reduction.elem_size, &call.type) ||
      !wanted(comm->size, bytes))
    return Status::success();
  bool usable = false;
  Comm* live = nullptr;
  WEFT_TRY(nccl_usable(q, handle, &live, &usable));
  if (!usable) return Status::success();
  *ran = true;
  call.count = bytes / reduction.elem_size;
  const bool in_place = sendbuf == MPI_IN_PLACE;
  const Span span = span_of(count, datatype);
  char* recv = static_cast<char*>(recvbuf) + span.lo;
  const char* send = in_place ? recv : static_cast<const char*>(sendbuf) + span.lo;
  if (dense_on_device(recvbuf, span) && (in_place || dense_on_device(sendbuf, span))) {
    call.send = send;
    call.recv = recv;
    return coll::start_nccl(*live, call, q.cuda_stream());
  }
  void* block = nullptr;
  WEFT_TRY(q.take_block(bytes, &block, true));
  WEFT_TRY(stage(q, const_cast<void*>(in_place ? recvbuf : sendbuf), count, datatype, span, bytes,
                 block, true));
  call.send = call.recv = block;
  WEFT_TRY(coll::start_nccl(*live, call, q.cuda_stream()));
  WEFT_TRY(stage(q, recvbuf, count, datatype, span, bytes, block, false));
  return q.release_at_stream_point(block);
}

}  // namespace weft::streams
