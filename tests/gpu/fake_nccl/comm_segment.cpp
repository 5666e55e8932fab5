// The fake NCCL's communicator segments (comm_segment.hpp).
#include "comm_segment.hpp"

#include <fcntl.h>
#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

namespace fake_nccl {
namespace {

constexpr char kMagic[8] = "wftfake";

size_t segment_bytes(int nranks) { return kHeaderBytes + 2 * size_t(nranks) * kSlot; }

}  // namespace

bool Comm::barrier() {
  Header* h = header();
  const uint32_t seen = h->generation.load(std::memory_order_acquire);
  if (h->arrived.fetch_add(1, std::memory_order_acq_rel) + 1 == uint32_t(nranks)) {
    h->arrived.store(0, std::memory_order_relaxed);
    h->generation.fetch_add(1, std::memory_order_release);
    return true;
  }
  const auto deadline = std::chrono::steady_clock::now() + kPatience;
  while (h->generation.load(std::memory_order_acquire) == seen) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    sched_yield();
  }
  return true;
}

void make_unique_id(UniqueId* id) {
  static std::atomic<int> made{0};
  std::memset(id, 0, sizeof *id);
  std::memcpy(id->magic, kMagic, sizeof kMagic);
  std::snprintf(
      id->name, sizeof id->name, "/weft-fake-nccl-%d-%d-%lld", int(getpid()), made.fetch_add(1),
      static_cast<long long>(std::chrono::steady_clock::now().time_since_epoch().count()));
}

bool valid(const UniqueId& id) { return std::memcmp(id.magic, kMagic, sizeof kMagic) == 0; }

Comm* join(UniqueId id, int nranks, int rank, bool* all) {
  id.name[sizeof id.name - 1] = '\0';
  const size_t bytes = segment_bytes(nranks);
  const int fd = shm_open(id.name, O_CREAT | O_RDWR, 0600);
  if (fd < 0) return nullptr;
  void* base = ftruncate(fd, off_t(bytes)) == 0
                   ? mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
                   : MAP_FAILED;
  close(fd);
  if (base == MAP_FAILED) return nullptr;
  auto* comm = new Comm;
  comm->rank = rank;
  comm->nranks = nranks;
  comm->base = static_cast<unsigned char*>(base);
  comm->bytes = bytes;
  // Every rank joins before any uses the segment; then rank 0 removes its name.
  comm->header()->joined.fetch_add(1, std::memory_order_acq_rel);
  const auto deadline = std::chrono::steady_clock::now() + kPatience;
  *all = true;
  while (comm->header()->joined.load(std::memory_order_acquire) < uint32_t(nranks) && *all) {
    *all = std::chrono::steady_clock::now() < deadline;
    sched_yield();
  }
  *all = *all && comm->barrier();
  if (rank == 0) shm_unlink(id.name);
  return comm;
}

void leave(Comm* comm) {
  if (comm == nullptr) return;
  munmap(comm->base, comm->bytes);
  delete comm;
}

}  // namespace fake_nccl
