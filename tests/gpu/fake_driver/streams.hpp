// The fake driver's streams: each made stream's work (copies, fills, host functions) runs in
// order on a thread of its own after the call that queued it returned, as on a GPU, and the
// legacy default stream orders itself with the blocking streams as CUDA's does. Synchronous
// calls wait where the real driver would, so a program that would deadlock on a GPU (a host
// function that waits for a cudaFree, say) deadlocks here too.
#pragma once
#include <cstdint>
#include <functional>

#include "fake_driver.hpp"

namespace fake_cuda {

class Lane;

// A point in a stream: done once everything queued on it before is done.
struct Mark {
  Lane* lane = nullptr;
  uint64_t ticket = 0;
};

// A new stream; `blocking` unless made with CU_STREAM_NON_BLOCKING.
CuStream make_stream(bool blocking);
// Waits for the stream's work, then forgets the handle; false for a handle it did not make.
bool destroy_stream(CuStream stream);
// Whether `stream` is the null stream, CU_STREAM_LEGACY, CU_STREAM_PER_THREAD (all three the
// legacy stream here) or one made and not yet destroyed.
bool known_stream(CuStream stream);

// Queues `work` on `stream`, to run once what it must follow is done. A failure it returns
// (a copy out of range) is kept and answered by the stream's next synchronisation.
void enqueue(CuStream stream, std::function<CuResult()> work);
// The point after everything queued on `stream` so far.
Mark mark(CuStream stream);
// Waits until `m` is reached; returns the first failure of the stream's work, and forgets it.
CuResult wait(const Mark& m);
// Waits for every stream's work so far (cuCtxSynchronize, and what cuMemFree does first).
CuResult wait_all();
// Queues `work` on the legacy stream and waits for it: the synchronous calls.
CuResult run_synchronously(std::function<CuResult()> work);

}  // namespace fake_cuda
