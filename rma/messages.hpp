// The active-message protocol of one-sided communication with targets this process cannot
// reach in memory (another node, or WEFT_RMA_PATH=messages): an origin sends a request on the
// window's private communicator, the target's progress engine serves it (rma/target_server.*),
// and answers those that return data or need to wait (get, fetch, lock, flush, unlock).
// Requests from one origin are served in the order sent, so a flush or unlock that is answered
// finds every earlier operation of that origin done.
#pragma once
#include <cstdint>

namespace weft::rma {

// Tags on the window's communicator (sync.cpp's PSCW notices use 1 and 2).
inline constexpr int kRequestTag = 3;
inline constexpr int kReplyTag = 4;

enum class MessageKind : uint8_t {
  kPut,            // runs + data: write
  kGet,            // runs: answer the data
  kAccumulate,     // runs + data: combine under the accumulate mutex
  kGetAccumulate,  // runs + data: answer the old data, then combine
  kCompareSwap,    // one run + value + compare: answer the old value
  kLock,           // answer once the lock is held (flags: exclusive)
  kUnlock,         // release, then answer a SyncAnswer
  kFlush,          // answer a SyncAnswer (everything earlier is done by then)
  kRegion,         // answer a RegionAnswer: the dynamic window's region attached at `address`
};

// The answer to kRegion: the region [start, end) attached to a dynamic window that holds the
// address asked about, and whether it is GPU memory; all 0 where none does.
struct RegionAnswer {
  uint64_t start = 0, end = 0;
  uint64_t device = 0;
};

// The answer to kFlush and kUnlock: the requests of this origin, since the last such answer,
// that the target left unapplied because they reached outside the memory attached to its
// dynamic window (puts and accumulates dropped, gets answered with zeros), and the bytes
// [first_address, first_end) the first of them addressed; all 0 where none did.
struct SyncAnswer {
  uint64_t refused = 0;
  uint64_t first_address = 0, first_end = 0;
};

inline constexpr uint8_t kExclusive = 1;  // kLock, kUnlock
inline constexpr uint8_t kReplace = 2;    // accumulates: MPI_REPLACE
inline constexpr uint8_t kNoOp = 4;       // accumulates: MPI_NO_OP

// What precedes a request's runs (Run[run_count]) and data (data_bytes).
struct RequestHeader {
  MessageKind kind = MessageKind::kFlush;
  uint8_t flags = 0;
  int32_t op = 0;        // MPI_Op (predefined) of an accumulate
  int32_t datatype = 0;  // the predefined type an accumulate combines
  uint32_t elem_size = 0;
  uint64_t address = 0;  // in the target's address space; runs are offsets from it
  uint64_t run_count = 0;
  uint64_t data_bytes = 0;
};

}  // namespace weft::rma
