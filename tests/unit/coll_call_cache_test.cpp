// The cache of prepared collective calls (coll/call_cache.hpp): a repeated call with equal
// CollArgs gets its prepared op back and runs on the new call's buffers; other arguments miss;
// the bounds on idle ops; a communicator's cache goes with the communicator, also while a request
// holds one of its ops.
#include <catch2/catch.hpp>

#include <cstring>
#include <memory>
#include <vector>

#include "coll/call_cache.hpp"

using namespace weft;
using namespace weft::coll;

namespace {

std::unique_ptr<Comm> make_comm(int rank, int size) {
  auto comm = std::make_unique<Comm>();
  comm->rank = rank;
  comm->size = size;
  comm->world_ranks.assign(size_t(size), 0);
  return comm;
}

// An allreduce of `bytes` from `send` into `recv`, as complete as coll::run_blocking makes it.
CallSpec allreduce(const Comm& comm, size_t bytes, const void* send = nullptr,
                   void* recv = nullptr) {
  CallSpec spec;
  spec.args.kind = CollKind::kAllreduce;
  spec.args.rank = comm.rank;
  spec.args.size = comm.size;
  spec.args.bytes = bytes;
  spec.args.elem_size = 4;
  spec.binding = {send, recv};
  return spec;
}

}  // namespace

TEST_CASE("a repeated call gets its prepared op back; other arguments miss", "[coll][cache]") {
  auto comm = make_comm(1, 4);
  CallCache& cache = *call_cache(*comm);
  std::unique_ptr<CollOp> first = cache.take(*comm, allreduce(*comm, 8));
  CollOp* const prepared = first.get();
  CHECK(cache.misses() == 1);
  cache.give_back(std::move(first));
  CHECK(cache.idle() == 1);

  std::unique_ptr<CollOp> again = cache.take(*comm, allreduce(*comm, 8));
  CHECK(again.get() == prepared);
  CHECK(cache.hits() == 1);
  CHECK(cache.idle() == 0);

  // While it is out, an equal call gets another op; so do calls with other arguments.
  std::unique_ptr<CollOp> twin = cache.take(*comm, allreduce(*comm, 8));
  CHECK(twin.get() != prepared);
  std::unique_ptr<CollOp> longer = cache.take(*comm, allreduce(*comm, 16));
  CHECK_FALSE(longer->prepared_for(allreduce(*comm, 8).args));
  CallSpec in_place = allreduce(*comm, 8);
  in_place.args.in_place = true;
  std::unique_ptr<CollOp> other = cache.take(*comm, in_place);
  CHECK(cache.misses() == 4);
  CHECK(cache.hits() == 1);

  // Each kind of call finds its own op, the most recently given back first.
  cache.give_back(std::move(again));
  cache.give_back(std::move(longer));
  cache.give_back(std::move(other));
  cache.give_back(std::move(twin));
  CHECK(cache.idle() == 4);
  std::unique_ptr<CollOp> found = cache.take(*comm, in_place);
  CHECK(found->prepared_for(in_place.args));
  CHECK(cache.hits() == 2);
  std::unique_ptr<CollOp> equal = cache.take(*comm, allreduce(*comm, 8));
  CHECK(equal.get() != prepared);  // the twin, given back after it
  CHECK(cache.hits() == 3);
}

TEST_CASE("a cached call runs on the buffers of the call that reuses it", "[coll][cache]") {
  auto comm = make_comm(0, 1);
  CallCache& cache = *call_cache(*comm);
  const int a[2] = {1, 2}, c[2] = {3, 4};
  int b[2] = {0, 0}, d[2] = {0, 0};

  std::unique_ptr<CollOp> op = cache.take(*comm, allreduce(*comm, sizeof a, a, b));
  op->start();  // one rank: the schedule copies the input, no message
  REQUIRE(op->finished());
  CHECK(std::memcmp(b, a, sizeof a) == 0);
  cache.give_back(std::move(op));

  op = cache.take(*comm, allreduce(*comm, sizeof c, c, d));
  CHECK(cache.hits() == 1);
  op->start();
  REQUIRE(op->finished());
  CHECK(std::memcmp(d, c, sizeof c) == 0);
  CHECK(b[0] == 1);
  CHECK(b[1] == 2);
  CHECK(comm->coll_seq == 2);  // each call took its own sequence number
}

TEST_CASE("the cache keeps the most recently used idle ops within its bounds", "[coll][cache]") {
  auto comm = make_comm(2, 3);
  CallCache& cache = *call_cache(*comm);
  const size_t calls = CallCache::kMaxIdle + 2;
  std::vector<std::unique_ptr<CollOp>> out;
  for (size_t k = 0; k < calls; ++k)
    out.push_back(cache.take(*comm, allreduce(*comm, 4 * (k + 1))));
  for (auto& op : out) cache.give_back(std::move(op));
  CHECK(cache.idle() == CallCache::kMaxIdle);
  const uint64_t misses = cache.misses();
  std::unique_ptr<CollOp> newest = cache.take(*comm, allreduce(*comm, 4 * calls));
  CHECK(cache.misses() == misses);  // kept
  std::unique_ptr<CollOp> oldest = cache.take(*comm, allreduce(*comm, 4));
  CHECK(cache.misses() == misses + 1);  // dropped

  // Buffers: beyond kMaxIdleBytes the least recently used go, the last one given back stays.
  CallSpec big = allreduce(*comm, 4 * (calls + 1));
  big.stage_recv_bytes = CallCache::kMaxIdleBytes / 2 + 1;
  CallSpec also_big = allreduce(*comm, 4 * (calls + 2));
  also_big.stage_recv_bytes = big.stage_recv_bytes;
  std::unique_ptr<CollOp> first = cache.take(*comm, big);
  std::unique_ptr<CollOp> second = cache.take(*comm, also_big);
  cache.give_back(std::move(first));
  cache.give_back(std::move(second));
  CHECK(cache.idle() == 1);
  cache.take(*comm, also_big);
  CHECK(cache.misses() == misses + 3);  // the two big ones; then also_big was found
}

TEST_CASE("a communicator's cache goes with it, also while a request holds one of its ops",
          "[coll][cache]") {
  auto comm = make_comm(0, 2);
  const std::shared_ptr<CallCache>& cache = call_cache(*comm);
  // A request releasing its op gives it back while the communicator lives.
  CollOp* lent = cache->take(*comm, allreduce(*comm, 8)).release();
  lent->lent_by(cache);
  lent->release();
  CHECK(cache->idle() == 1);

  lent = cache->take(*comm, allreduce(*comm, 8)).release();
  lent->lent_by(cache);
  const std::weak_ptr<CallCache> watch = cache;
  comm.reset();  // MPI_Comm_free: the communicator, and its cache, are destroyed
  CHECK(watch.expired());
  lent->release();  // the request ends later: its op is deleted, not given back
}

TEST_CASE("a copy of a communicator starts without its cache", "[coll][cache]") {
  auto comm = make_comm(0, 2);
  CallCache* const original = call_cache(*comm).get();
  Comm copy = *comm;
  CHECK(copy.prepared_calls.held == nullptr);
  CHECK(call_cache(copy).get() != original);
  copy = *comm;
  CHECK(copy.prepared_calls.held == nullptr);
}
