// What the wrappers learn about handles: the size of a datatype (cached per handle), the world
// rank behind a communicator's rank (cached per communicator), and the persistent sends a request
// stands for. The generated wrappers call forget_* before a handle is freed.
#pragma once
#include <mpi.h>

#include <atomic>
#include <cstdint>

#include "profile/recorder.hpp"

namespace weft::profile {

// Datatype sizes, direct-mapped by handle: an entry is (handle + 1) << 32 | size, 0 when empty.
inline constexpr int kSizeSlots = 1024;
inline std::atomic<uint64_t> g_sizes[kSizeSlots];
inline bool cacheable(MPI_Datatype datatype) { return datatype >= 0 && datatype < INT32_MAX; }

// bytes_of when the size is not cached: asks MPI_Type_size and caches it.
uint64_t bytes_of_uncached(MPI_Count count, MPI_Datatype datatype);

// count elements of datatype in bytes; 0 for a count below 1 or a handle that is not a datatype
// (an argument the call ignored, such as the send type of MPI_Scatter on other ranks than root).
// Inline: a cached size costs the wrapper a load and a compare.
inline uint64_t bytes_of(MPI_Count count, MPI_Datatype datatype) {
  if (count <= 0) return 0;
  if (cacheable(datatype)) {
    const uint64_t entry = g_sizes[datatype % kSizeSlots].load(std::memory_order_relaxed);
    if (entry >> 32 == uint64_t(datatype) + 1) return uint64_t(count) * (entry & 0xffffffffu);
  }
  return bytes_of_uncached(count, datatype);
}

// sent() for every communicator: translates dest to its world rank (cached per communicator).
int sent_translated(MPI_Comm comm, int dest, uint64_t bytes);

// A message of `bytes` to rank `dest` of comm (a rank of the remote group for an
// intercommunicator) was sent: counted to its world rank, which is returned (kNoPeer for
// MPI_PROC_NULL and processes outside MPI_COMM_WORLD). Inline for MPI_COMM_WORLD once this
// thread's traffic table exists: a compare and two adds.
[[gnu::always_inline]] inline int sent(MPI_Comm comm, int dest, uint64_t bytes) {
  if (comm == MPI_COMM_WORLD) {
    ThreadLog& log = thread_log();
    if (size_t(dest) < log.sent.size()) {  // a negative dest (MPI_PROC_NULL) is out of range too
      Traffic& t = log.sent[size_t(dest)];
      t.bytes += bytes;
      ++t.messages;
      return dest;
    }
  }
  return sent_translated(comm, dest, bytes);
}

// A persistent send (MPI_Send_init, MPI_Psend_init, ...) is counted each time it starts.
void remember_send(MPI_Request request, MPI_Comm comm, int dest, uint64_t bytes);
void started(int count, const MPI_Request* requests);

void forget_datatype(const MPI_Datatype* datatype);
void forget_comm(const MPI_Comm* comm);
void forget_request(const MPI_Request* request);

}  // namespace weft::profile
