// Large messages copied by sender and receiver together: the receiver of a single-copy message
// offers the pair's copy slot (pt2pt/shm/segment.hpp), and then both claim chunks from it, the
// receiver reading from the sender (process_vm_readv), the sender writing into the receiver
// (process_vm_writev), so that two cores copy at once while both wait in MPI (a streaming
// bandwidth test, a pair exchanging halos). A sender that is busy elsewhere leaves every chunk
// to the receiver, which then costs nothing extra. Not used when ranks outnumber cores: the two
// would take turns on one core.
#pragma once
#include <sys/types.h>

#include <cstdint>

#include "pt2pt/shm/segment.hpp"

namespace weft::shm {

// The receiver: fills the slot for `bytes` from `source` (in the sender) to `destination` (in
// this process); false if the slot is still in use by an earlier message of the pair.
bool offer_split_copy(CopySlot* slot, uint64_t source, uint64_t destination, uint64_t bytes);
// Either side: copies chunks until none is left unclaimed, then waits until the other side's
// chunks are done too. `receiver` tells which side this is; `peer` is the other's pid. Returns
// the bytes this side copied.
uint64_t copy_chunks(CopySlot* slot, bool receiver, pid_t peer);
// Its first half: copies chunks until none is left unclaimed, without waiting for the other
// side's (a poster helping its readers: coll/node_region.hpp's shared reads).
uint64_t claim_chunks(CopySlot* slot, bool receiver, pid_t peer);
// Whether some chunk could not be copied (after copy_chunks).
inline bool split_copy_failed(const CopySlot* slot) { return slot->failed.load() != 0; }
// The sender, after copy_chunks: the slot is free for the pair's next message.
inline void release_split_copy(CopySlot* slot) {
  slot->busy.store(0, std::memory_order_release);
}

}  // namespace weft::shm
