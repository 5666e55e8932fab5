// MPIX_Allreduce_enqueue through NCCL on the application's own stream (coll/nccl_path.hpp):
// where NCCL has the call's op and element type and the cost model prefers it to Weft's
// schedule with its copies (or WEFT_ALLREDUCE_ALGORITHM=nccl), the reduction is an NCCL kernel
// that the calling thread queues on the stream: no host thread, no trip through host memory.
// The communicator's NCCL communicator is made at the first such call, on the queue's thread
// after the work queued before it, while the calling thread waits. A buffer NCCL cannot take
// as it is (host memory, a layout with gaps) goes through a device block of the queue's, packed
// and unpacked on the queue's thread at its place in the stream.
#pragma once
#include "mpi.h"
#include "runtime/datatype/datatype.hpp"
#include "runtime/op/op.hpp"
#include "runtime/status.hpp"
#include "runtime/streams/stream_queue.hpp"

namespace weft::streams {

// Queues the allreduce through NCCL where it goes there (*ran true); otherwise leaves it to
// the caller (*ran false). Every rank decides alike: by the op, the element type and the size,
// and the communicator's NCCL, which every rank settles at the same call.
Status allreduce_on_nccl(StreamQueue& q, const void* sendbuf, void* recvbuf, MPI_Count count,
                         MPI_Datatype datatype, const Datatype& type, const Reduction& reduction,
                         MPI_Comm comm, bool* ran);

}  // namespace weft::streams
