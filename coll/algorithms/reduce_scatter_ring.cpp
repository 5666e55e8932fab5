// Ring reduce-scatter (Patarasuk & Yuan, "Bandwidth optimal all-reduce algorithms for clusters
// of workstations", 2009): in step t member i sends its running sum of block i - t - 1 to member
// i + 1 and adds its own input to the block i - t - 2 it receives; after p-1 steps member i holds
// block i summed over all members. Commutative ops only. Large blocks move in pieces over
// several lanes, each lane with three scratch slots, so scratch stays bounded.
// Cost: (p-1)·α + ((p-1)/p)·nβ + ((p-1)/p)·nγ.
#include <algorithm>

#include "coll/algorithms/all.hpp"
#include "coll/algorithms/fragments.hpp"
#include "coll/patterns.hpp"

namespace weft::coll {

StepId append_ring_reduce_scatter(Schedule& s, const Ring& ring, BufRef input,
                                  std::span<const Block> blocks, BufRef result,
                                  const Pipeline& pipe, bool in_place, StepId after) {
  const int i = ring.self;
  auto block = [&](int member) {
    return blocks[size_t((member % ring.size + ring.size) % ring.size)];
  };
  if (ring.size == 1) return s.copy(input.at(blocks[0].offset), result, blocks[0].bytes, {after});
  const int left = ring.rank_of(i - 1), right = ring.rank_of(i + 1);
  size_t largest = 0;
  for (const Block& b : blocks) largest = std::max(largest, b.bytes);
  const size_t slot_bytes = std::min(largest, pipe.piece);
  const size_t pieces = largest <= pipe.piece ? 1 : pieces_in(largest, pipe.piece);
  constexpr int kSlots = 3;  // a slot is free again once the send two steps later has read it
  const BufRef slots = s.scratch(size_t(pipe.lanes) * kSlots * slot_bytes);
  auto slot = [&](size_t piece, int t) {
    return slots.at((piece % size_t(pipe.lanes) * kSlots + size_t(t % kSlots)) * slot_bytes);
  };
  // In place, `result` overlaps the input: results wait in `staged` until all input is read.
  const BufRef out = in_place ? s.scratch(block(i).bytes) : result;

  std::vector<StepId> lane_free(size_t(pipe.lanes), after);
  std::vector<StepId> input_reads, done;
  for (size_t j = 0; j < pieces; ++j) {
    const size_t lane = j % size_t(pipe.lanes);
    s.set_lane(int(lane));
    std::vector<StepId> piece_steps;
    StepId sent_before_last = kNoStep, sent_last = kNoStep, reduced = kNoStep;
    for (int t = 0; t < ring.size - 1; ++t) {
      const Block to = block(i - t - 1), from = block(i - t - 2);
      const Range to_piece = piece_of(to.bytes, pipe.piece, j);
      const Range from_piece = piece_of(from.bytes, pipe.piece, j);
      const StepId got = s.recv(left, slot(j, t), from_piece.count,
                                {lane_free[lane], sent_before_last});
      const StepId sent =
          t == 0 ? s.send(right, input.at(to.offset + to_piece.first), to_piece.count,
                          {lane_free[lane]})
                 : s.send(right, slot(j, t - 1), to_piece.count, {reduced});
      reduced = s.reduce(input.at(from.offset + from_piece.first), slot(j, t), from_piece.count,
                         {got});
      if (t == 0) input_reads.push_back(sent);
      input_reads.push_back(reduced);
      piece_steps.insert(piece_steps.end(), {sent, reduced});
      sent_before_last = sent_last;
      sent_last = sent;
    }
    const Range mine = piece_of(block(i).bytes, pipe.piece, j);
    const StepId kept = s.copy(slot(j, ring.size - 2), out.at(mine.first), mine.count, {reduced});
    piece_steps.push_back(kept);
    done.push_back(kept);
    lane_free[lane] = s.join(piece_steps);
  }
  s.set_lane(0);
  if (in_place) {
    input_reads.insert(input_reads.end(), done.begin(), done.end());
    return s.copy(out, result, block(i).bytes, {s.join(input_reads)});
  }
  done.insert(done.end(), lane_free.begin(), lane_free.end());
  return s.join(done);
}

namespace {

bool accepts(const CollArgs& a) { return a.commutative; }

void build(const CollArgs& a, Schedule& s) {
  size_t largest = 0;
  for (const Block& b : a.blocks) largest = std::max(largest, b.bytes);
  append_ring_reduce_scatter(s, Ring{a.rank, a.size, 0}, send_buf(), a.blocks, recv_buf(),
                             pipeline_for(a, largest), a.in_place, kNoStep);
}

Cost cost(const CollArgs& a) {
  const double p = a.size, n = double(a.total_block_bytes());
  return {p - 1, n * (p - 1) / p, n * (p - 1) / p};
}

}  // namespace

extern const Algorithm kReduceScatterRing{"ring", CollKind::kReduceScatter, accepts, cost, build};

}  // namespace weft::coll
