// What the wrappers learn about handles: the size of a datatype (cached per handle and as each
// function's last one), the world rank behind a communicator's rank (cached per communicator and
// as each function's last one), and the persistent sends a request stands for. The generated
// wrappers call forget_* before a handle is freed.
#pragma once
#include <mpi.h>

#include <atomic>
#include <cstdint>

#include "profile/recorder.hpp"

namespace weft::profile {

static_assert(MPI_DATATYPE_NULL == 0 && MPI_COMM_NULL == 0,
              "a FunctionRecord's handles are 0 when nothing is cached");
static_assert(sizeof(MPI_Datatype) == sizeof(int32_t) && sizeof(MPI_Comm) == sizeof(int32_t));

// Datatype sizes, direct-mapped by handle, behind the functions' own last datatype: an entry is
// (handle + 1) << 32 | size, 0 when empty.
inline constexpr int kSizeSlots = 1024;
inline std::atomic<uint64_t> g_sizes[kSizeSlots];
inline bool cacheable(MPI_Datatype datatype) { return datatype >= 0 && datatype < INT32_MAX; }

// The wrapper's fast path (recorder.hpp, hit): whether f's last datatype is this call's and the
// count not negative, so that its bytes are count * f.datatype_size; whether f's last
// communicator is this send's and dest one of its ranks, so that traffic_hit finds its record.
[[gnu::always_inline]] inline bool datatype_hit(const FunctionRecord& f, MPI_Datatype datatype,
                                                MPI_Count count) {
  return f.datatype == datatype && count >= 0;
}
[[gnu::always_inline]] inline bool send_hit(const FunctionRecord& f, MPI_Comm comm, int dest) {
  return f.comm == comm && unsigned(dest) < f.comm_size;
}
// The traffic record of such a send (taken before its bytes: the wrapper's registers fare better).
[[gnu::always_inline]] inline Traffic& traffic_hit(ThreadLog& log, const FunctionRecord& f,
                                                   int dest) {
  return log.sent[size_t(f.traffic_slots[unsigned(dest)])];
}

// count elements of datatype in bytes; 0 for a count below 1 or a handle that is not a datatype
// (an argument the call ignored, such as the send type of MPI_Scatter on other ranks than root).
// The size becomes f's cached one.
uint64_t bytes_of(FunctionRecord& f, MPI_Count count, MPI_Datatype datatype);

// A message of `bytes` to rank `dest` of comm (a rank of the remote group for an
// intercommunicator) was sent by a call of f: counted to its world rank, which is returned
// (kNoPeer for MPI_PROC_NULL and processes outside MPI_COMM_WORLD). comm's ranks become f's
// cached ones.
int count_send(ThreadLog& log, FunctionRecord& f, MPI_Comm comm, int dest, uint64_t bytes);

// A persistent send (MPI_Send_init, MPI_Psend_init, ...) is counted each time it starts.
void remember_send(MPI_Request request, MPI_Comm comm, int dest, uint64_t bytes);
void started(int count, const MPI_Request* requests);

void forget_datatype(const MPI_Datatype* datatype);
void forget_comm(const MPI_Comm* comm);
void forget_request(const MPI_Request* request);

}  // namespace weft::profile
