// Dissemination barrier (Hensgen, Finkel & Manber, "Two algorithms for barrier synchronization",
// 1988): in round k every rank sends to rank+2^k and receives from rank-2^k; ceil(log2 p) rounds,
// cost ceil(log2 p)·α. Zero-byte messages on the collective context, tagged by round.
// Interim form until the schedule-based collectives replace it.
#include "coll/barrier.hpp"

#include "pt2pt/pt2pt.hpp"

namespace weft::coll {

Status barrier(const Comm& comm) {
  const int p = comm.size;
  for (int distance = 1, round = 0; distance < p; distance *= 2, ++round) {
    const int to = (comm.rank + distance) % p;
    const int from = (comm.rank - distance + p) % p;
    Request send, recv;
    WEFT_TRY(pt2pt::start_recv(comm, nullptr, 0, from, round, &recv, true));
    WEFT_TRY(pt2pt::start_send(comm, nullptr, 0, to, round, pt2pt::SendMode::kStandard, &send,
                               true));
    pt2pt::wait(&recv);
    pt2pt::wait(&send);
  }
  return Status::success();
}

}  // namespace weft::coll
