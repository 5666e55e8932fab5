// Split copies (pt2pt/shm/split_copy.hpp) within this process (process_vm_readv/writev on its
// own pid): receiver and sender threads copy one buffer into another together, every chunk
// once; a side that never joins leaves all chunks to the other; a helper that comes after the
// receiver has copied everything copies nothing; a slot still busy refuses a new offer.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstring>
#include <thread>
#include <vector>

#include "pt2pt/shm/split_copy.hpp"

using namespace weft::shm;

namespace {

std::vector<unsigned char> pattern(size_t n, unsigned seed) {
  std::vector<unsigned char> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = (unsigned char)(i * 131 + seed + i / 4096);
  return v;
}

uint64_t address(const void* p) { return reinterpret_cast<uint64_t>(p); }

}  // namespace

TEST_CASE("shm split copy: receiver and sender copy every chunk once between them", "[shm]") {
  for (size_t bytes : {size_t{64} << 10, (size_t{1} << 20) + 12345, size_t{5} << 20}) {
    const auto source = pattern(bytes, unsigned(bytes));
    std::vector<unsigned char> destination(bytes, 0);
    CopySlot slot;
    REQUIRE(offer_split_copy(&slot, address(source.data()), address(destination.data()), bytes));
    CHECK(slot.chunks >= 2);
    uint64_t by_sender = 0;
    std::thread sender([&] { by_sender = copy_chunks(&slot, false, getpid()); });
    const uint64_t by_receiver = copy_chunks(&slot, true, getpid());
    sender.join();
    CHECK_FALSE(split_copy_failed(&slot));
    CHECK(by_receiver + by_sender == bytes);
    CHECK(slot.chunks_done.load() == slot.chunks);
    CHECK(destination == source);
    release_split_copy(&slot);
    CHECK(slot.busy.load() == 0);
  }
}

TEST_CASE("shm split copy: one side alone copies all; a late helper copies nothing", "[shm]") {
  const size_t bytes = 3 << 20;
  const auto source = pattern(bytes, 9);
  std::vector<unsigned char> destination(bytes, 0);
  CopySlot slot;
  REQUIRE(offer_split_copy(&slot, address(source.data()), address(destination.data()), bytes));
  // A second offer while the slot is in use is refused and changes nothing.
  CHECK_FALSE(offer_split_copy(&slot, 0, 0, 1));
  CHECK(copy_chunks(&slot, true, getpid()) == bytes);
  CHECK(destination == source);
  CHECK(claim_chunks(&slot, false, getpid()) == 0);
  CHECK_FALSE(split_copy_failed(&slot));
}

TEST_CASE("shm split copy: a chunk the kernel cannot copy marks the copy failed", "[shm]") {
  const size_t bytes = 256 << 10;
  std::vector<unsigned char> destination(bytes, 0);
  CopySlot slot;
  // The source is not mapped (address 4096 never is): every chunk fails, and still completes.
  REQUIRE(offer_split_copy(&slot, 4096, address(destination.data()), bytes));
  copy_chunks(&slot, true, getpid());
  CHECK(split_copy_failed(&slot));
  CHECK(slot.chunks_done.load() == slot.chunks);
}
