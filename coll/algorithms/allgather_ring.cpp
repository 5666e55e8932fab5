// Ring allgather (e.g. Thakur, Rabenseifner & Gropp 2005): in step t member i sends block i - t
// to member i + 1 and receives block i - t - 1 from member i - 1, so after p-1 steps every member
// has every block. Blocks may sit anywhere in the buffer and differ in size (allgatherv).
// Cost: (p-1)·α + ((p-1)/p)·nβ.
#include <algorithm>

#include "coll/algorithms/all.hpp"
#include "coll/algorithms/fragments.hpp"
#include "coll/patterns.hpp"

namespace weft::coll {

StepId append_ring_allgather(Schedule& s, const Ring& ring, BufRef buf,
                             std::span<const Block> blocks, const Pipeline& pipe, StepId after,
                             std::optional<BufRef> own) {
  if (ring.size == 1) return after;
  const int i = ring.self;
  const int left = ring.rank_of(i - 1), right = ring.rank_of(i + 1);
  size_t largest = 0;
  for (const Block& b : blocks) largest = std::max(largest, b.bytes);
  const size_t pieces = largest <= pipe.piece ? 1 : pieces_in(largest, pipe.piece);
  auto block = [&](int member) { return blocks[size_t((member % ring.size + ring.size) % ring.size)]; };

  std::vector<StepId> ends;
  for (size_t j = 0; j < pieces; ++j) {
    s.set_lane(int(j) % pipe.lanes);
    StepId got = after;
    for (int t = 0; t < ring.size - 1; ++t) {
      const Block out = block(i - t), in = block(i - t - 1);
      const Range out_piece = piece_of(out.bytes, pipe.piece, j);
      const Range in_piece = piece_of(in.bytes, pipe.piece, j);
      const StepId sent_after = got;
      got = s.recv(left, buf.at(in.offset + in_piece.first), in_piece.count, {after});
      if (own && t == 0) {  // this rank's own block, ready at start
        ends.push_back(s.send(right, own->at(out_piece.first), out_piece.count, {}));
      } else {
        ends.push_back(s.send(right, buf.at(out.offset + out_piece.first), out_piece.count,
                              {sent_after}));
      }
    }
    ends.push_back(got);
  }
  s.set_lane(0);
  return s.join(ends);
}

namespace {

void build(const CollArgs& a, Schedule& s) {
  const Block own = a.blocks[size_t(a.rank)];
  const StepId placed = s.copy(send_buf(), recv_buf(own.offset), own.bytes);
  append_ring_allgather(s, Ring{a.rank, a.size, 0}, recv_buf(), a.blocks, Pipeline{}, placed,
                        send_buf());
}

Cost cost(const CollArgs& a) {
  const double p = a.size;
  return {p - 1, double(a.total_block_bytes()) * (p - 1) / p, 0};
}

}  // namespace

extern const Algorithm kAllgatherRing{"ring", CollKind::kAllgather, nullptr, cost, build};

}  // namespace weft::coll
