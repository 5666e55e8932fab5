// A fake NCCL communicator's shared memory: the POSIX shared-memory segment its ranks map
// (named in the unique id), with a slot per rank for collectives, one per pair of ranks for
// sends, and a barrier among the ranks.
#pragma once
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>

namespace fake_nccl {

// ncclResult_t values.
constexpr int kSuccess = 0, kSystemError = 2, kInternalError = 3, kInvalidArgument = 4,
              kInvalidUsage = 5;
constexpr int kMaxRanks = 64;
constexpr size_t kSlot = size_t(256) << 10;
constexpr size_t kHeaderBytes = 4096;
constexpr auto kPatience = std::chrono::seconds(60);  // how long a rank waits for the others

// ncclUniqueId: names the segment.
struct UniqueId {
  char magic[8];
  char name[120];
};
static_assert(sizeof(UniqueId) == 128, "ncclUniqueId is 128 bytes");

struct Header {
  std::atomic<uint32_t> joined, arrived, generation;
  uint64_t rounds[kMaxRanks];  // an exchange's rounds, as each rank needs them
};

// One rank's view of the communicator (ncclComm_t).
struct Comm {
  int rank = 0, nranks = 1;
  unsigned char* base = nullptr;
  size_t bytes = 0;
  std::atomic<int> error{kSuccess};  // what ncclCommGetAsyncError says

  Header* header() { return reinterpret_cast<Header*>(base); }
  unsigned char* slot(int r) { return base + kHeaderBytes + size_t(r) * kSlot; }
  size_t pair_bytes() const { return kSlot / size_t(nranks); }
  unsigned char* pair(int from, int to) {
    return base + kHeaderBytes + size_t(nranks) * kSlot +
           (size_t(from) * size_t(nranks) + size_t(to)) * pair_bytes();
  }
  // Returns once every rank has called it as often; false after kPatience without them.
  bool barrier();
};

// A new unique id (ncclGetUniqueId), and whether `id` is one.
void make_unique_id(UniqueId* id);
bool valid(const UniqueId& id);
// Maps the segment of `id` as `rank` of `nranks`, once every rank has (*all), then removes its
// name (rank 0); null where it cannot be mapped. *all false: not every rank came in kPatience.
Comm* join(UniqueId id, int nranks, int rank, bool* all);
// Unmaps the segment and frees `comm`.
void leave(Comm* comm);

}  // namespace fake_nccl
