// Creating, mapping and unlinking the node segment (pt2pt/shm/segment.hpp).
#include "pt2pt/shm/segment.hpp"

#include <fcntl.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <new>

#include "mpi.h"
#include "pt2pt/shm/cross_memory.hpp"

namespace weft::shm {
namespace {

constexpr uint64_t kMagic = 0x5745465453484d31ULL;  // "WEFTSHM1"
// What process_vm_readv of a peer must find at its probe_address.
const uint64_t kProbeWord = kMagic;

struct Layout {
  size_t peers, rings, slots, cells, regions, bytes;
};

size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

Layout layout(size_t local_size, size_t ring_cells, size_t regions, size_t region_payload) {
  Layout l{};
  l.peers = round_up(sizeof(SegmentHeader), kCell);
  l.rings = l.peers + local_size * sizeof(PeerControl);
  l.slots = l.rings + local_size * local_size * sizeof(RingControl);
  l.cells = round_up(l.slots + local_size * local_size * sizeof(CopySlot), 4096);
  l.regions = round_up(l.cells + local_size * local_size * ring_cells * kCell, 4096);
  l.bytes = l.regions + regions * Segment::region_bytes(local_size, region_payload);
  return l;
}

Status os_error(const std::string& what) {
  return Status::error(MPI_ERR_OTHER, what + ": " + std::strerror(errno));
}

// Waits until `count` reaches `target`: spins briefly, then sleeps in short steps so that ranks
// that outnumber cores let the others run.
Status wait_for(const std::atomic<uint32_t>& count, uint32_t target, const std::string& what) {
  timespec start;
  clock_gettime(CLOCK_MONOTONIC, &start);
  for (unsigned i = 0; count.load(std::memory_order_acquire) < target; ++i) {
    if (i < 256) {
      sched_yield();
      continue;
    }
    const timespec step{0, 50 * 1000};
    nanosleep(&step, nullptr);
    timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (now.tv_sec - start.tv_sec > 120)
      return Status::error(MPI_ERR_OTHER,
                           "timed out after 120 s waiting for the other ranks of "
                           "this node to " +
                               what + " (" + std::to_string(count.load()) + " of " +
                               std::to_string(target) + " did)");
  }
  return Status::success();
}

}  // namespace

Status Segment::create(const std::string& name, int local_size, size_t ring_bytes, int regions,
                       size_t region_payload) {
  const size_t ring_cells = ring_bytes / kCell;
  region_payload = round_up(region_payload, kCell);
  const Layout l = layout(size_t(local_size), ring_cells, size_t(regions), region_payload);
  int fd = shm_open(name.c_str(), O_RDWR | O_CREAT | O_EXCL, 0600);
  if (fd < 0 && errno == EEXIST) {  // left by a killed job whose namespace name came back
    shm_unlink(name.c_str());
    fd = shm_open(name.c_str(), O_RDWR | O_CREAT | O_EXCL, 0600);
  }
  if (fd < 0) return os_error("cannot create the node's shared memory " + name);
  Status made = Status::success();
  if (ftruncate(fd, off_t(l.bytes)) != 0) {
    made = os_error("cannot size the node's shared memory " + name + " to " +
                    std::to_string(l.bytes) + " bytes");
  } else {
    void* p = mmap(nullptr, kCell, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
      made = os_error("cannot map the node's shared memory " + name);
    } else {
      auto* h = new (p) SegmentHeader();
      h->local_size = uint32_t(local_size);
      h->ring_cells = uint32_t(ring_cells);
      h->region_count = uint32_t(regions);
      h->region_payload = uint32_t(region_payload);
      h->magic = kMagic;
      munmap(p, kCell);
    }
  }
  close(fd);
  if (!made.ok()) shm_unlink(name.c_str());
  return made;
}

Status Segment::attach(const std::string& name, int local, int local_size,
                       std::unique_ptr<Segment>* out) {
  const int fd = shm_open(name.c_str(), O_RDWR, 0600);
  if (fd < 0 && errno == ENOENT) return Status::success();  // the first rank could not make it
  if (fd < 0) return os_error("cannot open the node's shared memory " + name);
  struct {  // SegmentHeader's plain leading fields
    uint64_t magic;
    uint32_t local_size, ring_cells, region_count, region_payload;
  } header_copy{};
  const bool read_header =
      pread(fd, &header_copy, sizeof header_copy, 0) == ssize_t(sizeof header_copy);
  if (!read_header || header_copy.magic != kMagic ||
      header_copy.local_size != uint32_t(local_size)) {
    close(fd);
    return Status::error(MPI_ERR_OTHER, "the node's shared memory " + name +
                                            " is not the one this job's first rank on the node "
                                            "made (wrong size or format)");
  }
  const Layout l = layout(size_t(local_size), header_copy.ring_cells, header_copy.region_count,
                          header_copy.region_payload);
  void* p = mmap(nullptr, l.bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  if (p == MAP_FAILED) return os_error("cannot map the node's shared memory " + name);
  std::unique_ptr<Segment> seg(new Segment());
  seg->base_ = static_cast<unsigned char*>(p);
  seg->bytes_ = l.bytes;
  seg->header_ = reinterpret_cast<SegmentHeader*>(p);
  seg->peers_ = reinterpret_cast<PeerControl*>(seg->base_ + l.peers);
  seg->rings_ = reinterpret_cast<RingControl*>(seg->base_ + l.rings);
  seg->slots_ = reinterpret_cast<CopySlot*>(seg->base_ + l.slots);
  seg->cells_ = seg->base_ + l.cells;
  seg->regions_ = seg->base_ + l.regions;

  // Single-copy transfers read the sender's memory: let any process of ours do so where Yama
  // restricts ptrace to ancestors (a no-op elsewhere).
  prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
  PeerControl* me = seg->peer(local);
  me->pid = int32_t(getpid());
  me->probe_address = reinterpret_cast<uint64_t>(&kProbeWord);
  SegmentHeader* h = seg->header_;
  h->attached.fetch_add(1, std::memory_order_acq_rel);
  WEFT_TRY(wait_for(h->attached, uint32_t(local_size), "map shared memory " + name));
  if (local == 0) shm_unlink(name.c_str());

  const PeerControl* next = seg->peer((local + 1) % local_size);
  uint64_t word = 0;
  if (!cross_memory_copy(next->pid, true, reinterpret_cast<uint64_t>(&word), next->probe_address,
                         sizeof word) ||
      word != kProbeWord)
    h->cma_refused.store(1, std::memory_order_release);
  h->checked.fetch_add(1, std::memory_order_acq_rel);
  WEFT_TRY(wait_for(h->checked, uint32_t(local_size), "test cross-memory attach"));
  *out = std::move(seg);
  return Status::success();
}

Segment::~Segment() {
  if (base_ != nullptr) munmap(base_, bytes_);
}

void Segment::prefault_rings(int local) const {
#ifdef MADV_POPULATE_WRITE  // Linux 5.14; elsewhere the first lap faults as before
  const size_t bytes = ring_cells() * kCell;  // a power of two of at least 8 KiB: whole pages
  for (int peer = 0; peer < local_size(); ++peer) {
    if (peer == local) continue;
    (void)madvise(ring_cells(local, peer), bytes, MADV_POPULATE_WRITE);
    (void)madvise(ring_cells(peer, local), bytes, MADV_POPULATE_WRITE);
  }
#else
  (void)local;
#endif
}

}  // namespace weft::shm
