// A blocking collective as NCCL runs it: which calls NCCL can take, the NCCL form of one rank's
// part, and its enqueueing on a stream. Pure translation, tested with a fake NCCL table; the
// per-communicator state and the decision to use it are coll/nccl_path.hpp's.
#pragma once
#include <cstddef>
#include <string>

#include "coll/coll.hpp"
#include "gpu/nccl_library.hpp"

namespace weft::coll {

// Whether NCCL has the collective: bcast, reduce, allreduce, allgather, reduce_scatter (equal
// blocks), alltoall (equal blocks, as grouped ncclSend/ncclRecv).
bool nccl_runs(CollKind kind);

// What every rank of a call agrees on: whether NCCL can run it at all. Zero bytes, v-variants,
// intercommunicators, and reductions whose op or datatype NCCL lacks cannot; *why says which.
// *bytes: the size of the user's buffer that the cost model measures the call by (the vector;
// all blocks of allgather, reduce_scatter and alltoall), the same on every rank.
bool nccl_candidate(const CallSpec& spec, size_t* bytes, std::string* why);
// That measure of a call NCCL has (equal blocks).
size_t nccl_measure(const CollArgs& args);

// One rank's part of a call that nccl_candidate took, in NCCL's terms.
struct NcclCall {
  CollKind kind = CollKind::kBarrier;
  gpu::NcclDataType type = gpu::kNcclUint8;  // data that is only moved goes as bytes
  gpu::NcclRedOp op = gpu::kNcclSum;
  size_t count = 0;  // elements: the vector, or one rank's block
  int root = 0;
  const void* send = nullptr;
  void* recv = nullptr;  // null at a reduce's non-root
  // In-place all-to-all: send from a device copy of these many bytes of recv (the caller makes
  // it and sets `send`), as the blocks a peer sends and receives overlap.
  size_t stage_bytes = 0;
  // In-place reduce_scatter: NCCL leaves this rank's result in its own block of the input
  // (`recv`); the caller moves these bytes to `result_to`, the buffer's start, afterwards
  // (nothing on rank 0, whose block is there).
  void* result_to = nullptr;
  size_t result_bytes = 0;
};

// The NCCL form of this rank's part, if its buffers allow it: contiguous data, blocks back to
// back, and every buffer it touches in device memory (gpu::on_device). False with *why
// otherwise; ranks can differ here, so they agree before any of them uses NCCL.
bool nccl_form(const CallSpec& spec, NcclCall* out, std::string* why);

// Enqueues `call` on `stream` (alltoall as one group of sends and receives); returns NCCL's
// result. The caller waits for the stream.
gpu::NcclResult enqueue(const gpu::NcclLibrary& nccl, gpu::NcclComm comm, const NcclCall& call,
                        int size, gpu::CudaStreamHandle stream);

}  // namespace weft::coll
