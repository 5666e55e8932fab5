// Request pool reuse and the mapping from a transport Completion to an MPI_Status.
#include <catch2/catch.hpp>

#include <set>

#include "pt2pt/match_bits.hpp"
#include "runtime/request.hpp"

using namespace weft;

TEST_CASE("receive status reports sender rank, tag and byte count") {
  Request r;
  r.kind = WeftRequestKind::kRecv;
  r.completion.done = true;
  r.completion.sender_bits = match_bits::make_send(3, 7, 1234);
  r.completion.bytes = 40;
  MPI_Status st{};
  fill_status(r, &st);
  CHECK(st.MPI_SOURCE == 7);
  CHECK(st.MPI_TAG == 1234);
  CHECK(st.weft_bytes == 40);
  CHECK(st.weft_cancelled == 0);
}

TEST_CASE("cancelled and MPI_PROC_NULL receives report what the standard says") {
  Request r;
  r.kind = WeftRequestKind::kRecv;
  r.completion.done = r.completion.cancelled = true;
  MPI_Status st{};
  fill_status(r, &st);
  CHECK(st.weft_cancelled == 1);
  CHECK(st.weft_bytes == 0);

  Request n;
  n.kind = WeftRequestKind::kProcNull;
  fill_status(n, &st);
  CHECK(st.MPI_SOURCE == MPI_PROC_NULL);
  CHECK(st.MPI_TAG == MPI_ANY_TAG);
  CHECK(st.weft_bytes == 0);
}

TEST_CASE("MPI_STATUS_IGNORE is accepted") {
  Request r;
  fill_status(r, MPI_STATUS_IGNORE);  // must not crash
  SUCCEED();
}

TEST_CASE("pool hands out distinct requests and reuses released ones") {
  RequestPool pool;
  std::set<Request*> live;
  for (int i = 0; i < 300; ++i) live.insert(pool.acquire());
  CHECK(live.size() == 300);
  Request* first = *live.begin();
  first->completion.done = true;
  pool.release(first);
  Request* again = pool.acquire();
  CHECK(again == first);
  CHECK_FALSE(again->completion.done);  // handed out reset
}

TEST_CASE("orphaned requests are released only once complete") {
  RequestPool pool;
  Request* a = pool.acquire();
  Request* b = pool.acquire();
  pool.adopt_orphan(a);
  pool.adopt_orphan(b);
  a->completion.done = true;
  pool.sweep_orphans();
  CHECK(pool.acquire() == a);  // a went back to the pool, b did not
  b->completion.done = true;
  pool.sweep_orphans();
  CHECK(pool.acquire() == b);
}
