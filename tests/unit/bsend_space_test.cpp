// The accounting of the buffered-mode buffer: first fit, alignment, coalescing on release, and
// the promise behind MPI_BSEND_OVERHEAD (n messages of b_i bytes fit in sum(b_i + overhead)).
#include "pt2pt/bsend_space.hpp"

#include <catch2/catch.hpp>
#include <random>
#include <vector>

using weft::pt2pt::BsendSpace;

TEST_CASE("blocks are aligned, first fit, and charged their rounded size") {
  BsendSpace s;
  s.reset(1000);
  CHECK(BsendSpace::charge(0) == 16);
  CHECK(BsendSpace::charge(1) == 16);
  CHECK(BsendSpace::charge(16) == 16);
  CHECK(BsendSpace::charge(17) == 32);
  CHECK(s.allocate(10) == 0u);
  CHECK(s.allocate(0) == 16u);
  CHECK(s.allocate(33) == 32u);
  CHECK(s.free_bytes() == 1000 - 16 - 16 - 48);
  CHECK(s.blocks_in_use() == 3);
  s.release(16);  // a hole of 16 bytes: a small message goes there, a bigger one after the end
  CHECK(s.allocate(100) == 80u);
  CHECK(s.allocate(5) == 16u);
}

TEST_CASE("a message larger than any free range does not fit, even with enough bytes free") {
  BsendSpace s;
  s.reset(64);
  CHECK(s.allocate(16) == 0u);
  CHECK(s.allocate(16) == 16u);
  CHECK(s.allocate(16) == 32u);
  s.release(0);
  s.release(32);
  CHECK(s.free_bytes() == 48);
  CHECK(s.largest_free() == 32);  // [32, 64): the end range merged with the freed block
  CHECK_FALSE(s.allocate(40).has_value());
  CHECK(s.allocate(32) == 32u);
  CHECK_FALSE(s.allocate(17).has_value());
  CHECK(s.allocate(1) == 0u);  // [0, 16) still takes a small one
}

TEST_CASE("released neighbours merge back into one range") {
  BsendSpace s;
  s.reset(4096);
  std::vector<size_t> offsets;
  for (int i = 0; i < 8; ++i) offsets.push_back(*s.allocate(500));
  for (size_t i : {1, 3, 2, 0, 7, 5, 6, 4}) s.release(offsets[i]);
  CHECK(s.blocks_in_use() == 0);
  CHECK(s.free_bytes() == 4096);
  CHECK(s.largest_free() == 4096);
  CHECK(s.allocate(4096) == 0u);
}

TEST_CASE("releasing an unknown offset changes nothing") {
  BsendSpace s;
  s.reset(128);
  CHECK(s.allocate(20) == 0u);
  s.release(64);
  s.release(0);
  s.release(0);
  CHECK(s.free_bytes() == 128);
  CHECK(s.largest_free() == 128);
}

TEST_CASE("messages of any sizes fit in the sum of their sizes plus the overhead each") {
  std::mt19937 rng(7);
  for (int round = 0; round < 200; ++round) {
    std::vector<size_t> sizes(1 + rng() % 20);
    size_t total = 0;
    for (size_t& b : sizes) {
      b = rng() % 3 == 0 ? 0 : rng() % 5000;
      total += b + BsendSpace::kAlign;
    }
    BsendSpace s;
    s.reset(total);
    for (size_t b : sizes) REQUIRE(s.allocate(b).has_value());
  }
}

TEST_CASE("a random mix of allocations and releases keeps the books balanced") {
  std::mt19937 rng(11);
  BsendSpace s;
  s.reset(1 << 16);
  std::vector<std::pair<size_t, size_t>> live;  // offset, charge
  for (int step = 0; step < 20000; ++step) {
    if (!live.empty() && rng() % 2 == 0) {
      const size_t k = rng() % live.size();
      s.release(live[k].first);
      live.erase(live.begin() + long(k));
    } else {
      const size_t bytes = rng() % 3000;
      const auto off = s.allocate(bytes);
      if (!off) continue;
      const size_t charge = BsendSpace::charge(bytes);
      REQUIRE(*off % BsendSpace::kAlign == 0);
      REQUIRE(*off + charge <= s.capacity());
      for (const auto& [o, c] : live) REQUIRE((*off + charge <= o || o + c <= *off));
      live.emplace_back(*off, charge);
    }
    size_t used = 0;
    for (const auto& entry : live) used += entry.second;
    REQUIRE(s.blocks_in_use() == live.size());
    REQUIRE(s.free_bytes() == s.capacity() - used);
  }
}
