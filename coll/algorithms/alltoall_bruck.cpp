// Bruck all-to-all (Bruck et al. 1997): rotate the blocks so position j holds the block for rank
// (rank + j) mod p; in round k send the positions whose bit k is set to rank + 2^k (packed into
// one message) and put what rank - 2^k sends into the same positions; finally the block at
// position j is the one from rank (rank - j) mod p. ceil(log2 p) messages instead of p-1, each
// about half the data: the choice for short blocks. Equal blocks only (not alltoallv/w).
// Cost: ceil(log2 p)·α + ceil(log2 p)·(n/2)β + about 3n of local copies.
#include "coll/algorithms/all.hpp"
#include "coll/patterns.hpp"

namespace weft::coll {
namespace {

bool accepts(const CollArgs& a) { return a.uniform; }

void build(const CollArgs& a, Schedule& s) {
  const int p = a.size;
  const size_t b = a.recv_blocks[0].bytes;
  const BufRef work = s.scratch(size_t(p) * b);
  auto position = [&](int j) { return work.at(size_t(j) * b); };
  std::vector<StepId> placed;
  for (int j = 0; j < p; ++j)
    placed.push_back(s.copy(send_buf(a.send_blocks[size_t((a.rank + j) % p)].offset), position(j), b));
  StepId ready = s.join(placed);
  const BufRef out_pack = s.scratch(size_t(p / 2 + 1) * b), in_pack = s.scratch(size_t(p / 2 + 1) * b);
  StepId previous_send = kNoStep;
  for (int d = 1; d < p; d *= 2) {
    std::vector<int> moving;
    for (int j = 1; j < p; ++j)
      if (j & d) moving.push_back(j);
    std::vector<StepId> packed;
    for (size_t k = 0; k < moving.size(); ++k)  // out_pack is free once the last send is done
      packed.push_back(s.copy(position(moving[k]), out_pack.at(k * b), b, {ready, previous_send}));
    const size_t bytes = moving.size() * b;
    const StepId got = s.recv((a.rank - d + p) % p, in_pack, bytes, {ready});
    previous_send = s.send((a.rank + d) % p, out_pack, bytes, {s.join(packed)});
    std::vector<StepId> unpacked;
    for (size_t k = 0; k < moving.size(); ++k)
      unpacked.push_back(s.copy(in_pack.at(k * b), position(moving[k]), b, {got, s.join(packed)}));
    ready = s.join(unpacked);
  }
  for (int j = 0; j < p; ++j)
    s.copy(position(j), recv_buf(a.recv_blocks[size_t((a.rank - j + p) % p)].offset), b, {ready});
}

Cost cost(const CollArgs& a) {
  double bytes = 0;
  for (const Block& b : a.recv_blocks) bytes += double(b.bytes);
  const double rounds = ceil_log2(a.size);
  return {rounds, rounds * bytes / 2 + 3 * bytes, 0};
}

}  // namespace

extern const Algorithm kAlltoallBruck{"bruck", CollKind::kAlltoall, accepts, cost, build};

}  // namespace weft::coll
