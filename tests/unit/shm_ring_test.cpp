// The shared-memory ring (pt2pt/shm/ring.hpp) on ordinary memory: records of every size wrap
// around the end intact and in order, a full ring refuses a record until the reader frees room,
// stale bytes of an earlier lap are never read as a record, the reader sees whether more
// records wait behind the one it holds, and a producer and a consumer thread exchange a long
// stream of records without loss or reordering.
#include <catch2/catch.hpp>

#include <cstring>
#include <thread>
#include <vector>

#include "pt2pt/shm/ring.hpp"

using namespace weft::shm;

namespace {

struct TestRing {
  explicit TestRing(size_t cells) : memory((cells + 2) * kCell, 0) {
    control = new (memory.data()) RingControl();
    unsigned char* data = memory.data() + 2 * kCell;
    writer = RingWriter(control, data, cells);
    reader = RingReader(control, data, cells);
  }
  std::vector<unsigned char> memory;
  RingControl* control;
  RingWriter writer;
  RingReader reader;
};

std::vector<unsigned char> pattern(size_t n, unsigned seed) {
  std::vector<unsigned char> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = (unsigned char)(i * 31 + seed);
  return v;
}

bool write(TestRing& r, uint64_t id, const std::vector<unsigned char>& payload) {
  return r.writer.write(RecordKind::kEager, 0, id, payload.size(), id * 3, payload.data(),
                        payload.size());
}

// Reads one record and checks it is record `id` with `payload`.
void read_expect(TestRing& r, uint64_t id, const std::vector<unsigned char>& payload) {
  RecordHeader* h = r.reader.peek();
  REQUIRE(h != nullptr);
  CHECK(h->kind == RecordKind::kEager);
  CHECK(h->bits == id);
  CHECK(h->cookie == id * 3);
  REQUIRE(h->bytes == payload.size());
  CHECK(std::memcmp(h->payload(), payload.data(), payload.size()) == 0);
  r.reader.pop();
}

}  // namespace

TEST_CASE("shm ring: records of every size wrap around intact and in order", "[shm]") {
  TestRing r(64);  // 4 KiB
  REQUIRE(r.writer.max_payload() == 32 * kCell - sizeof(RecordHeader));
  uint64_t id = 0;
  for (int lap = 0; lap < 20; ++lap) {
    for (size_t bytes : {size_t{0}, size_t{1}, size_t{32}, size_t{33}, size_t{200}, size_t{1000},
                         r.writer.max_payload()}) {
      const auto p = pattern(bytes, unsigned(id));
      REQUIRE(write(r, id, p));
      read_expect(r, id, p);
      ++id;
    }
  }
  CHECK(r.reader.peek() == nullptr);
}

TEST_CASE("shm ring: a full ring refuses a record until the reader frees room", "[shm]") {
  TestRing r(16);  // 1 KiB: room for 15 one-cell records (one cell stays the zeroed next header)
  const auto p = pattern(8, 1);
  int written = 0;
  while (write(r, uint64_t(written), p)) ++written;
  CHECK(written == 15);
  CHECK_FALSE(write(r, 99, p));
  read_expect(r, 0, p);
  CHECK(write(r, 15, p));
  for (int i = 1; i <= 15; ++i) read_expect(r, uint64_t(i), p);
  CHECK(r.reader.peek() == nullptr);
  CHECK_FALSE(r.reader.ready());
}

TEST_CASE("shm ring: stale bytes of an earlier lap are not taken for a record", "[shm]") {
  TestRing r(16);
  // Fill the ring with payload bytes that look like headers, then read it all.
  std::vector<unsigned char> lookalike(5 * kCell - sizeof(RecordHeader), 0x01);
  for (int i = 0; i < 2; ++i) {
    REQUIRE(write(r, uint64_t(i), lookalike));
    read_expect(r, uint64_t(i), lookalike);
  }
  // The reader now sits where old payload was: nothing must be seen until a real record.
  CHECK(r.reader.peek() == nullptr);
  const auto p = pattern(40, 7);
  REQUIRE(write(r, 77, p));
  read_expect(r, 77, p);
  CHECK(r.reader.peek() == nullptr);
}

TEST_CASE("shm ring: the reader sees whether records wait behind the current one", "[shm]") {
  TestRing r(16);
  const auto small = pattern(8, 3);
  const auto large = pattern(6 * kCell, 4);  // wraps around the end on the second lap
  for (int lap = 0; lap < 3; ++lap) {
    REQUIRE(write(r, 1, small));
    REQUIRE(r.reader.peek() != nullptr);
    CHECK_FALSE(r.reader.more_behind());
    REQUIRE(write(r, 2, large));
    CHECK(r.reader.more_behind());  // written after the peek, and seen
    read_expect(r, 1, small);
    REQUIRE(r.reader.peek() != nullptr);
    CHECK_FALSE(r.reader.more_behind());
    read_expect(r, 2, large);
    CHECK(r.reader.peek() == nullptr);
  }
}

TEST_CASE("shm ring: a producer and a consumer thread exchange 200000 records", "[shm]") {
  TestRing r(128);
  constexpr uint64_t kRecords = 200000;
  std::thread producer([&] {
    for (uint64_t id = 0; id < kRecords; ++id) {
      const auto p = pattern(size_t(id % 300), unsigned(id));
      while (!write(r, id, p)) std::this_thread::yield();
    }
  });
  uint64_t bad = 0;
  for (uint64_t id = 0; id < kRecords; ++id) {
    RecordHeader* h;
    while ((h = r.reader.peek()) == nullptr) std::this_thread::yield();
    const auto p = pattern(size_t(id % 300), unsigned(id));
    if (h->bits != id || h->bytes != p.size() || std::memcmp(h->payload(), p.data(), p.size()) != 0)
      ++bad;
    r.reader.pop();
  }
  producer.join();
  CHECK(bad == 0);
  CHECK(r.reader.peek() == nullptr);
}
