// Enqueued calls' buffers on the queue's thread and the stream (sides.hpp).
#include "runtime/streams/sides.hpp"

#include <algorithm>

#include "gpu/memory.hpp"

namespace weft::streams {

Span span_of(MPI_Count count, MPI_Datatype type) {
  Span s;
  if (count <= 0) return s;
  MPI_Count lb = 0, extent = 0, true_lb = 0, true_extent = 0, size = 0;
  PMPI_Type_get_extent_x(type, &lb, &extent);
  PMPI_Type_get_true_extent_x(type, &true_lb, &true_extent);
  PMPI_Type_size_x(type, &size);
  const MPI_Count stride = MPI_Count(count - 1) * extent;
  const MPI_Count first = true_lb + std::min<MPI_Count>(0, stride);
  const MPI_Count last = true_lb + true_extent + std::max<MPI_Count>(0, stride);
  s.lo = ptrdiff_t(first);
  s.bytes = size_t(last - first);
  s.dense = s.bytes == size_t(size) * size_t(count);
  return s;
}

Status place(StreamQueue& q, const void* buf, const Span& span, bool copy_in, Side* out) {
  out->user = buf;
  out->span = span;
  out->at = const_cast<void*>(buf);
  const char* first = static_cast<const char*>(buf) + span.lo;
  if (span.bytes == 0 || !gpu::on_device(first)) return Status::success();
  WEFT_TRY(q.take_block(span.bytes, &out->block));
  out->at = static_cast<char*>(out->block) - span.lo;
  out->filled = copy_in;
  return copy_in ? q.copy(out->block, first, span.bytes) : Status::success();
}

Status unplace(StreamQueue& q, const Side& side, bool copy_out) {
  if (side.block == nullptr) return Status::success();
  if (copy_out) {
    char* first = static_cast<char*>(const_cast<void*>(side.user)) + side.span.lo;
    WEFT_TRY(q.copy(first, side.block, side.span.bytes));
  }
  return q.release_at_stream_point(side.block);
}

MPI_Datatype hold(MPI_Datatype type) {
  int integers = 0, addresses = 0, types = 0, combiner = MPI_COMBINER_NAMED;
  PMPI_Type_get_envelope(type, &integers, &addresses, &types, &combiner);
  if (combiner == MPI_COMBINER_NAMED) return type;
  MPI_Datatype copy = MPI_DATATYPE_NULL;
  return PMPI_Type_dup(type, &copy) == MPI_SUCCESS ? copy : type;
}
void drop(MPI_Datatype held, MPI_Datatype original) {
  if (held != original) PMPI_Type_free(&held);
}

}  // namespace weft::streams
