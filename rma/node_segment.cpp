// Creating, mapping and unlinking a window's node segment (rma/node_segment.hpp).
#include "rma/node_segment.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "runtime/comm/create.hpp"
#include "runtime/world.hpp"

namespace weft::rma {
namespace {

constexpr size_t kPage = 4096;

size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

Status os_error(const std::string& what) {
  return Status::error(MPI_ERR_NO_MEM, what + ": " + std::strerror(errno));
}

}  // namespace

Status NodeSegment::create(Comm& node, const std::vector<uint64_t>& data_bytes, bool contiguous,
                           std::unique_ptr<NodeSegment>* out) {
  std::unique_ptr<NodeSegment> seg(new NodeSegment());
  const size_t members = size_t(node.size);
  size_t at = round_up(members * sizeof(TargetControl), kPage);
  for (size_t i = 0; i < members; ++i) {
    if (!contiguous) at = round_up(at, kPage);
    seg->data_offsets_.push_back(at);
    at += data_bytes[i];
  }
  seg->bytes_ = round_up(std::max<size_t>(at, 1), kPage);

  // The node's first member names the segment after its pid and the node communicator's
  // context, which no other live communicator of that process has.
  int leader_pid = int(getpid());
  WEFT_TRY(internal_bcast(node, &leader_pid, sizeof leader_pid, 0));
  const std::string name =
      "/weft-win." + std::to_string(leader_pid) + "." + std::to_string(node.context);
  int fd = -1;
  Status made = Status::success();
  if (node.rank == 0) {
    fd = shm_open(name.c_str(), O_RDWR | O_CREAT | O_EXCL, 0600);
    if (fd < 0) {
      made = os_error("cannot create the window's shared memory " + name);
    } else if (ftruncate(fd, off_t(seg->bytes_)) != 0) {
      made = os_error("cannot size the window's shared memory " + name + " to " +
                      std::to_string(seg->bytes_) + " bytes");
    }
  }
  // Everyone learns whether it exists before opening it; then the leader unlinks the name once
  // all have it mapped.
  uint64_t ok = made.ok() ? 1 : 0;
  WEFT_TRY(internal_bcast(node, &ok, sizeof ok, 0));
  if (node.rank != 0 && ok) {
    fd = shm_open(name.c_str(), O_RDWR, 0600);
    if (fd < 0) made = os_error("cannot open the window's shared memory " + name);
  }
  if (made.ok()) {
    void* p = mmap(nullptr, seg->bytes_, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
      made = os_error("cannot map " + std::to_string(seg->bytes_) + " bytes of window memory");
    } else {
      seg->base_ = static_cast<unsigned char*>(p);
      seg->controls_ = reinterpret_cast<TargetControl*>(p);
    }
  }
  if (fd >= 0) close(fd);
  uint64_t all_ok = made.ok() ? 1 : 0;
  coll::CallSpec spec = bitwise_and_call(&all_ok, 1);
  const Status agreed = coll::run_blocking(node, spec);
  if (node.rank == 0 && ok) shm_unlink(name.c_str());
  WEFT_TRY(agreed);
  WEFT_TRY(made);
  if (!all_ok)
    return Status::error(MPI_ERR_NO_MEM,
                         "another member on this node could not map the "
                         "window's shared memory " +
                             name);
  // The file is zero-filled: every lock and mutex starts free.
  *out = std::move(seg);
  return Status::success();
}

NodeSegment::~NodeSegment() {
  if (base_ != nullptr) munmap(base_, bytes_);
}

}  // namespace weft::rma
