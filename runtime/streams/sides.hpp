// The buffers of an enqueued call as the queue's thread and the stream see them: where a
// datatype's elements lie, and device data stood in for by a pinned block of the queue's
// (copied in and out on the stream); derived datatypes held for the thread.
#pragma once
#include <cstddef>

#include "mpi.h"
#include "runtime/status.hpp"
#include "runtime/streams/stream_queue.hpp"

namespace weft::streams {

// Where `count` elements of a datatype lie relative to the buffer: `bytes` from `lo`; `dense`
// when they fill that span (no gaps the stream's copy back must leave alone).
struct Span {
  ptrdiff_t lo = 0;
  size_t bytes = 0;
  bool dense = true;
};
Span span_of(MPI_Count count, MPI_Datatype type);

// One buffer of a call as the queue's thread sees it: the application's buffer itself (host
// memory) or, for device memory, a pinned block standing in for its span.
struct Side {
  const void* user = nullptr;
  Span span;
  void* block = nullptr;
  bool filled = false;  // the stream copies the device data into the block first
  void* at = nullptr;   // what the PMPI call is given
  // Whether a call writing here may start before the stream gets to it: only into a block
  // that nothing on the stream touches before.
  bool writable_early() const { return block != nullptr && !filled; }
};

// Places `buf` for the thread; `copy_in`: the stream copies the device data into the block
// first (data the call reads, or a sparse span whose gaps the copy back must keep).
Status place(StreamQueue& q, const void* buf, const Span& span, bool copy_in, Side* out);
// After the call's work: the stream copies the block back to the device buffer (`copy_out`)
// and gives it back.
Status unplace(StreamQueue& q, const Side& side, bool copy_out);

// A derived datatype may be freed once the call returns: the thread uses a duplicate of it
// (`hold`), freed by `drop` once used.
MPI_Datatype hold(MPI_Datatype type);
void drop(MPI_Datatype held, MPI_Datatype original);

}  // namespace weft::streams
