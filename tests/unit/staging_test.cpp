// Staging pipelines (gpu/staging.hpp) over a fake copy engine whose started copies run as late as
// CUDA allows: only when waited for (or when a later copy on the stream is). A pipeline that reads
// a chunk before waiting for it, or refills one whose copy has not run, gets wrong bytes here.
// Also the cache of driver memory blocks (gpu/block_cache.hpp).
#include "gpu/staging.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <deque>
#include <vector>

#include "gpu/block_cache.hpp"
#include "inert_device_memory.hpp"

using namespace weft;

namespace {

class LateCopyEngine final : public test::InertDeviceMemory {
 public:
  Status copy(void* dst, const void* src, size_t bytes) override {
    run_until(started_);  // after every copy started before it, as on one stream
    ++direct_copies;
    std::memmove(dst, src, bytes);
    return Status::success();
  }
  Status start_copy(void* dst, const void* src, size_t bytes, gpu::CopyStarted* started) override {
    queued_.push_back({dst, src, bytes});
    ++started_;
    *started = reinterpret_cast<gpu::CopyStarted>(uintptr_t(started_));
    max_under_way = std::max(max_under_way, queued_.size());
    return Status::success();
  }
  Status wait_copy(gpu::CopyStarted started) override {
    ++waits;
    const size_t n = size_t(reinterpret_cast<uintptr_t>(started));
    run_until(n);
    return fail_from != 0 && n >= fail_from ? Status::error(MPI_ERR_OTHER, "copy engine fault")
                                            : Status::success();
  }
  void* allocate_pinned(size_t bytes) override {
    ++pinned_allocated;
    auto* p = new unsigned char[bytes];
    std::memset(p, 0xEE, bytes);  // what a chunk read before its copy ran would show
    return p;
  }
  void free_pinned(void* p) override {
    ++pinned_freed;
    delete[] static_cast<unsigned char*>(p);
  }

  size_t started() const { return started_; }
  size_t max_under_way = 0, direct_copies = 0, waits = 0, fail_from = 0;
  int pinned_allocated = 0, pinned_freed = 0;

 private:
  struct Queued {
    void* dst;
    const void* src;
    size_t bytes;
  };
  void run_until(size_t n) {
    for (; ran_ < n; ++ran_) {
      const Queued q = queued_.front();
      queued_.pop_front();
      std::memmove(q.dst, q.src, q.bytes);
    }
  }
  std::deque<Queued> queued_;
  size_t started_ = 0, ran_ = 0;
};

std::vector<unsigned char> pattern(size_t n, unsigned seed) {
  std::vector<unsigned char> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<unsigned char>((i * 131 + seed) >> 3);
  return v;
}

constexpr gpu::StagingShape kShape{4096, 3};

}  // namespace

TEST_CASE("staging: a reader hands out the device bytes while the next chunks are copying") {
  LateCopyEngine engine;
  const auto device = pattern(10 * 4096 + 123, 7);
  std::vector<unsigned char> out(device.size());
  {
    gpu::DeviceReader reader(engine, device.data(), device.size(), kShape);
    for (size_t at = 0; at < device.size(); at += 1000)  // UCX-sized fragments, in order
      REQUIRE(reader.read(at, out.data() + at, std::min<size_t>(1000, device.size() - at)).ok());
    CHECK(reader.chunks_copied() == 11);
  }
  CHECK(out == device);
  CHECK(engine.max_under_way == 3);  // the depth: chunks ahead were copying during the reads
  CHECK(engine.direct_copies == 0);
  CHECK(engine.waits == engine.started());  // every copy waited for once
  CHECK(engine.pinned_allocated == 3);
  CHECK(engine.pinned_freed == 3);
}

TEST_CASE("staging: a reader going back or jumping ahead still reads the right bytes") {
  LateCopyEngine engine;
  const auto device = pattern(8 * 4096, 3);
  gpu::DeviceReader reader(engine, device.data(), device.size(), kShape);
  std::vector<unsigned char> out(5000);
  REQUIRE(reader.read(0, out.data(), 3000).ok());
  CHECK(std::memcmp(out.data(), device.data(), 3000) == 0);
  REQUIRE(reader.read(4096 * 2 + 100, out.data(), 3000).ok());  // retires chunks 0 and 1
  CHECK(std::memcmp(out.data(), device.data() + 4096 * 2 + 100, 3000) == 0);
  REQUIRE(reader.read(10, out.data(), 5000).ok());  // behind the chunk at hand: read directly
  CHECK(std::memcmp(out.data(), device.data() + 10, 5000) == 0);
  CHECK(engine.direct_copies == 2);                       // one piece in chunk 0, one in chunk 1
  REQUIRE(reader.read(7 * 4096, out.data(), 4096).ok());  // past the depth: starts over there
  CHECK(std::memcmp(out.data(), device.data() + 7 * 4096, 4096) == 0);
  CHECK_FALSE(reader.read(8 * 4096 - 10, out.data(), 11).ok());  // past the end
}

TEST_CASE("staging: a reader whose first read is a few chunks in starts there") {
  LateCopyEngine engine;
  const auto device = pattern(8 * 4096, 4);
  std::vector<unsigned char> out(4096);
  {
    gpu::DeviceReader reader(engine, device.data(), device.size(), kShape);
    REQUIRE(reader.read(2 * 4096, out.data(), 4096).ok());  // within the depth of chunk 0
    CHECK(std::memcmp(out.data(), device.data() + 2 * 4096, 4096) == 0);
    CHECK(reader.chunks_copied() == 3);  // chunks 2, 3 and 4: none before the first read
    for (size_t c = 3; c < 8; ++c) {
      REQUIRE(reader.read(c * 4096, out.data(), 4096).ok());
      CHECK(std::memcmp(out.data(), device.data() + c * 4096, 4096) == 0);
    }
    CHECK(reader.chunks_copied() == 6);
  }
  CHECK(engine.waits == engine.started());
}

TEST_CASE("staging: a writer's chunks reach the device in any fragment order") {
  const auto host = pattern(9 * 4096 + 77, 11);
  const size_t fragment = GENERATE(size_t(1000), size_t(4096), size_t(6000));
  const bool reversed = GENERATE(false, true);
  LateCopyEngine engine;
  std::vector<unsigned char> device(host.size(), 0);
  {
    gpu::DeviceWriter writer(engine, device.data(), device.size(), kShape);
    std::vector<size_t> offsets;
    for (size_t at = 0; at < host.size(); at += fragment) offsets.push_back(at);
    if (reversed) std::reverse(offsets.begin(), offsets.end());
    for (size_t at : offsets)
      REQUIRE(writer.write(at, host.data() + at, std::min(fragment, host.size() - at)).ok());
    CHECK(writer.written() == host.size());
    REQUIRE(writer.finish().ok());
    CHECK(device == host);  // finish waited for every chunk
    if (!reversed) CHECK(writer.chunks_copied() == 10);
  }
  CHECK(engine.waits == engine.started());
  CHECK(engine.max_under_way <= 3);
  CHECK(engine.pinned_freed == engine.pinned_allocated);
}

TEST_CASE("staging: a writer filled in place, as the node's transport reads into it") {
  LateCopyEngine engine;
  const auto host = pattern(5 * 4096 + 1, 5);
  std::vector<unsigned char> device(host.size(), 0);
  gpu::DeviceWriter writer(engine, device.data(), device.size(), kShape);
  for (size_t at = 0; at < host.size();) {
    size_t n = host.size() - at;
    unsigned char* space = writer.space(at, &n);
    CHECK(n <= 4096);
    std::memcpy(space, host.data() + at, n);
    REQUIRE(writer.commit(n).ok());
    at += n;
  }
  CHECK(engine.max_under_way == 3);  // chunks went to the device while later ones filled
  REQUIRE(writer.finish().ok());
  CHECK(device == host);
  CHECK(writer.chunks_copied() == 6);
}

TEST_CASE("staging: one chunk deep, copying and using take turns and stay right") {
  LateCopyEngine engine;
  const auto data = pattern(3 * 4096 + 5, 1);
  std::vector<unsigned char> out(data.size()), device(data.size(), 0);
  const gpu::StagingShape one{4096, 1};
  gpu::DeviceReader reader(engine, data.data(), data.size(), one);
  REQUIRE(reader.read(0, out.data(), out.size()).ok());
  CHECK(out == data);
  gpu::DeviceWriter writer(engine, device.data(), device.size(), one);
  REQUIRE(writer.write(0, data.data(), data.size()).ok());
  REQUIRE(writer.finish().ok());
  CHECK(device == data);
  CHECK(engine.max_under_way == 1);
}

TEST_CASE("staging: a failed device copy fails the read or the write, and is still waited for") {
  LateCopyEngine engine;
  engine.fail_from = 2;  // the second copy started and all after it
  const auto data = pattern(4 * 4096, 9);
  std::vector<unsigned char> out(data.size());
  {
    gpu::DeviceReader reader(engine, data.data(), data.size(), kShape);
    CHECK(reader.read(0, out.data(), 4096).ok());
    const Status s = reader.read(4096, out.data(), 4096);
    CHECK_FALSE(s.ok());
    CHECK(s.message == "copy engine fault");
    CHECK_FALSE(reader.read(0, out.data(), 1).ok());  // it stays failed
  }
  CHECK(engine.waits == engine.started());
  LateCopyEngine engine2;
  engine2.fail_from = 1;
  std::vector<unsigned char> device(data.size());
  {
    gpu::DeviceWriter writer(engine2, device.data(), device.size(), kShape);
    (void)writer.write(0, data.data(), data.size());
    CHECK_FALSE(writer.finish().ok());
  }
  CHECK(engine2.waits == engine2.started());
  CHECK(engine2.pinned_freed == engine2.pinned_allocated);
}

TEST_CASE("staging: a write past the buffer's end is refused") {
  LateCopyEngine engine;
  std::vector<unsigned char> device(100), host(200);
  gpu::DeviceWriter writer(engine, device.data(), device.size(), kShape);
  const Status s = writer.write(50, host.data(), 51);
  CHECK(s.error_class == MPI_ERR_TRUNCATE);
  CHECK(engine.started() == 0);
}

TEST_CASE("block cache: blocks given back are lent again for the same size, up to its capacity") {
  gpu::BlockCache cache(3000);
  int a = 0, b = 0, c = 0;
  CHECK(cache.take(1000) == nullptr);
  cache.lend(&a, 1000);
  cache.lend(&b, 1000);
  cache.lend(&c, 2000);
  CHECK(cache.give_back(&a));
  CHECK(cache.give_back(&c));        // 3000 kept
  CHECK_FALSE(cache.give_back(&b));  // over the capacity: the caller frees it
  CHECK(cache.take(500) == nullptr);
  CHECK(cache.take(1000) == &a);
  CHECK(cache.take(1000) == nullptr);
  CHECK(cache.take(2000) == &c);
  int never_lent = 0;
  CHECK_FALSE(cache.give_back(&never_lent));
  CHECK(cache.give_back(&a));  // lent again by take: it comes back
}
