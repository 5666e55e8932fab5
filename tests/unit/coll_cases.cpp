// Set-up of simulated collective calls (see coll_cases.hpp).
#include "coll_cases.hpp"

#include <algorithm>
#include <cstring>

namespace weft::test {
namespace {

using coll::Block;
using coll::CollKind;

constexpr size_t kGuard = 16;           // bytes of guard around every receive buffer
constexpr unsigned char kUntouched = 0xA5;
constexpr uint64_t kPrime = 2147483647;  // 2^31 - 1

uint64_t mix(uint64_t x) {  // splitmix64
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

size_t elem_size_of(Values v) { return v == Values::kBytes || v == Values::kFloat ? 4 : 8; }

// Element i of rank r's input `stream` (several inputs per rank get different streams).
void fill(unsigned char* dst, size_t elems, const Problem& pb, int rank, uint64_t stream) {
  for (size_t i = 0; i < elems; ++i) {
    const uint64_t h = mix(pb.seed * 1000003 + uint64_t(rank) * 7919 + stream * 104729 + i);
    switch (pb.values) {
      case Values::kBytes: {
        const uint32_t v = uint32_t(h);
        std::memcpy(dst + 4 * i, &v, 4);
        break;
      }
      case Values::kSum:
        std::memcpy(dst + 8 * i, &h, 8);
        break;
      case Values::kAffine: {  // x -> a x + b mod 2^31-1, a != 0
        const uint32_t ab[2] = {uint32_t(1 + h % (kPrime - 1)), uint32_t((h >> 32) % kPrime)};
        std::memcpy(dst + 8 * i, ab, 8);
        break;
      }
      case Values::kFloat: {
        const float f = float(int64_t(h % 2000001) - 1000000) * 1.0e-3f;
        std::memcpy(dst + 4 * i, &f, 4);
        break;
      }
    }
  }
}

void sum_kernel(const void* in, void* inout, size_t n) {
  const auto* a = static_cast<const uint64_t*>(in);
  auto* b = static_cast<uint64_t*>(inout);
  for (size_t i = 0; i < n; ++i) b[i] += a[i];
}

// inout = in then inout: (x -> inout.a (in.a x + in.b) + inout.b). Associative, not commutative.
void affine_kernel(const void* in, void* inout, size_t n) {
  const auto* a = static_cast<const uint32_t*>(in);
  auto* b = static_cast<uint32_t*>(inout);
  for (size_t i = 0; i < n; ++i) {
    const uint64_t ia = a[2 * i], ib = a[2 * i + 1], oa = b[2 * i], ob = b[2 * i + 1];
    b[2 * i] = uint32_t(oa * ia % kPrime);
    b[2 * i + 1] = uint32_t((oa * ib + ob) % kPrime);
  }
}

void float_kernel(const void* in, void* inout, size_t n) {
  const auto* a = static_cast<const float*>(in);
  auto* b = static_cast<float*>(inout);
  for (size_t i = 0; i < n; ++i) b[i] += a[i];
}

// Blocks of `bytes[i]`: back to back, or (gapped) in the order first, first+1, ... mod n with
// one element of gap after each.
std::vector<Block> layout(const std::vector<size_t>& bytes, bool gapped, int first, size_t elem) {
  const int n = int(bytes.size());
  std::vector<Block> blocks(bytes.size());
  size_t at = 0;
  for (int k = 0; k < n; ++k) {
    const int i = gapped ? (first + k) % n : k;
    blocks[size_t(i)] = {at, bytes[size_t(i)]};
    at += bytes[size_t(i)] + (gapped ? elem : 0);
  }
  return blocks;
}

size_t extent(const std::vector<Block>& blocks) {
  size_t end = 0;
  for (const Block& b : blocks) end = std::max(end, b.offset + b.bytes);
  return end;
}

// Uneven element counts for the v-variants (zeros included), or `count` each.
std::vector<size_t> block_bytes(const Problem& pb, size_t elem, int salt) {
  std::vector<size_t> bytes(size_t(pb.size));
  for (int i = 0; i < pb.size; ++i) {
    const size_t elems = pb.vector ? (size_t(i) * 5 + size_t(salt) * 3 + pb.count) % (pb.count + 4)
                                   : pb.count;
    bytes[size_t(i)] = elems * elem;
  }
  return bytes;
}

// The receive buffer with guards; returns where the payload starts.
unsigned char* make_recv(RankState& s, size_t bytes) {
  s.recv.assign(bytes + 2 * kGuard, kUntouched);
  return s.recv.data() + kGuard;
}

void set_up_rank(const Problem& pb, int r, RankState& s) {
  const size_t elem = elem_size_of(pb.values);
  coll::CollArgs& a = s.args;
  a.kind = pb.kind;
  a.rank = r;
  a.size = pb.size;
  a.root = pb.root;
  a.elem_size = elem;
  a.segment_bytes = pb.segment_bytes;
  a.commutative = pb.values != Values::kAffine;
  a.uniform = !pb.vector;
  const bool is_root = r == pb.root;
  const size_t n = pb.count * elem;
  switch (pb.kind) {
    case CollKind::kBarrier:
      break;
    case CollKind::kBcast: {
      a.bytes = n;
      unsigned char* out = make_recv(s, n);
      if (is_root) fill(out, pb.count, pb, r, 0);
      s.binding.recv = out;
      break;
    }
    case CollKind::kReduce:
    case CollKind::kAllreduce:
    case CollKind::kScan:
    case CollKind::kExscan: {
      a.bytes = n;
      unsigned char* out = make_recv(s, n);
      s.binding.recv = out;
      if (pb.in_place && (pb.kind != CollKind::kReduce || is_root)) {
        fill(out, pb.count, pb, r, 0);
        s.binding.send = out;
        a.in_place = true;
      } else {
        s.send.resize(n);
        fill(s.send.data(), pb.count, pb, r, 0);
        s.binding.send = s.send.data();
      }
      break;
    }
    case CollKind::kGather:
    case CollKind::kScatter: {
      const std::vector<size_t> bytes = block_bytes(pb, elem, 0);
      if (is_root || !pb.vector) {
        // A regular call's root may still have gaps between blocks (a resized datatype): odd
        // counts give it some.
        a.blocks = pb.vector ? layout(bytes, true, pb.size / 2, elem)
                             : layout(bytes, is_root && pb.count % 2 == 1, 0, elem);
      } else {  // a v-variant's non-root knows only its own block
        a.blocks.assign(size_t(pb.size), Block{});
        a.blocks[size_t(r)] = {0, bytes[size_t(r)]};
      }
      const Block own = is_root ? a.blocks[size_t(r)] : Block{0, bytes[size_t(r)]};
      const size_t all = is_root ? extent(a.blocks) : 0;  // every block, at the root
      if (pb.kind == CollKind::kGather) {
        unsigned char* out = make_recv(s, all);
        s.binding.recv = out;
        if (is_root && pb.in_place) {
          fill(out + own.offset, own.bytes / elem, pb, r, 1);
          s.binding.send = out + own.offset;
        } else {
          s.send.resize(own.bytes);
          fill(s.send.data(), own.bytes / elem, pb, r, 1);
          s.binding.send = s.send.data();
        }
      } else {
        unsigned char* out = make_recv(s, own.bytes);
        s.send.resize(all);
        fill(s.send.data(), all / elem, pb, r, 1);
        s.binding.send = s.send.data();
        s.binding.recv = is_root && pb.in_place ? s.send.data() + own.offset : out;
      }
      break;
    }
    case CollKind::kAllgather: {
      a.blocks = layout(block_bytes(pb, elem, 0), pb.vector, r, elem);
      const Block own = a.blocks[size_t(r)];
      unsigned char* out = make_recv(s, extent(a.blocks));
      s.binding.recv = out;
      if (pb.in_place) {
        fill(out + own.offset, own.bytes / elem, pb, r, 1);
        s.binding.send = out + own.offset;
      } else {
        s.send.resize(own.bytes);
        fill(s.send.data(), own.bytes / elem, pb, r, 1);
        s.binding.send = s.send.data();
      }
      break;
    }
    case CollKind::kReduceScatter: {
      a.blocks = layout(block_bytes(pb, elem, 0), false, 0, elem);
      const size_t total = extent(a.blocks);
      if (pb.in_place) {
        unsigned char* out = make_recv(s, total);
        fill(out, total / elem, pb, r, 0);
        s.binding.send = s.binding.recv = out;
        a.in_place = true;
      } else {
        s.binding.recv = make_recv(s, a.blocks[size_t(r)].bytes);
        s.send.resize(total);
        fill(s.send.data(), total / elem, pb, r, 0);
        s.binding.send = s.send.data();
      }
      break;
    }
    case CollKind::kAlltoall: {
      // Bytes from rank i to rank j; symmetric when in place (send counts are the receive counts).
      auto bytes_between = [&](int i, int j) {
        if (!pb.vector) return n;
        const size_t x = size_t(pb.in_place ? std::min(i, j) : i), y = size_t(pb.in_place ? std::max(i, j) : j);
        return ((x * 3 + y * 5 + pb.count) % (pb.count + 3)) * elem;
      };
      std::vector<size_t> out_bytes(size_t(pb.size)), in_bytes(size_t(pb.size));
      for (int j = 0; j < pb.size; ++j) {
        out_bytes[size_t(j)] = bytes_between(r, j);
        in_bytes[size_t(j)] = bytes_between(j, r);
      }
      a.recv_blocks = layout(in_bytes, pb.vector, 0, elem);
      unsigned char* out = make_recv(s, extent(a.recv_blocks));
      s.binding.recv = out;
      if (pb.in_place) {
        a.send_blocks = a.recv_blocks;
        fill(out, extent(a.recv_blocks) / elem, pb, r, 0);
        s.stage.assign(out, out + extent(a.recv_blocks));  // the C API's staging copy
        s.binding.send = s.stage.data();
      } else {
        a.send_blocks = layout(out_bytes, pb.vector, pb.size - 1, elem);
        s.send.resize(extent(a.send_blocks));
        fill(s.send.data(), s.send.size() / elem, pb, r, 0);
        s.binding.send = s.send.data();
      }
      break;
    }
    case CollKind::kNeighborAllgather:
    case CollKind::kNeighborAlltoall: {
      // A periodic ring, the neighbourhood of a 1-D Cartesian grid: with 1 or 2 ranks both
      // neighbours are the same rank, and the pairing of blocks decides where data lands.
      a.sources = {(r + pb.size - 1) % pb.size, (r + 1) % pb.size};
      a.destinations = a.sources;
      a.mirrored_pairs = true;
      const bool alltoall = pb.kind == CollKind::kNeighborAlltoall;
      // Bytes rank `from` sends in direction `slot` (0: negative, 1: positive).
      auto bytes_sent = [&](int from, int slot) {
        if (!pb.vector) return n;
        if (!alltoall) slot = 0;
        return ((size_t(from) * 3 + size_t(slot) * 5 + pb.count) % (pb.count + 3)) * elem;
      };
      // Block s of the sender lands in block s^1 of the receiver.
      a.recv_blocks = layout({bytes_sent(a.sources[0], 1), bytes_sent(a.sources[1], 0)},
                             pb.vector, 1, elem);
      s.binding.recv = make_recv(s, extent(a.recv_blocks));
      size_t input = 0;
      if (alltoall) {
        a.send_blocks = layout({bytes_sent(r, 0), bytes_sent(r, 1)}, pb.vector, 1, elem);
        input = extent(a.send_blocks);
      } else {
        a.bytes = input = bytes_sent(r, 0);
      }
      s.send.resize(input);
      fill(s.send.data(), input / elem, pb, r, 0);
      s.binding.send = s.send.data();
      break;
    }
  }
}

}  // namespace

std::string Problem::describe() const {
  static const char* kValues[] = {"bytes", "sum", "affine (non-commutative)", "float sum"};
  return std::string(coll::coll_name(kind)) + " size=" + std::to_string(size) +
         " root=" + std::to_string(root) + " count=" + std::to_string(count) +
         (in_place ? " in-place" : "") + (vector ? " v-variant" : "") +
         " values=" + kValues[int(values)] + " segment=" + std::to_string(segment_bytes) +
         " seed=" + std::to_string(seed) + nodes_text();
}

std::string Problem::nodes_text() const {
  if (nodes.empty()) return "";
  std::string text = " nodes=";
  for (size_t r = 0; r < nodes.size(); ++r) text += (r ? "," : "") + std::to_string(nodes[r]);
  return text;
}

std::vector<RankState> set_up(const Problem& problem) {
  std::vector<RankState> states(size_t(problem.size));
  std::shared_ptr<const coll::NodeMap> nodes;
  if (!problem.nodes.empty())
    nodes = std::make_shared<const coll::NodeMap>(coll::NodeMap::from_ids(problem.nodes));
  for (int r = 0; r < problem.size; ++r) {
    set_up_rank(problem, r, states[size_t(r)]);
    states[size_t(r)].args.nodes = nodes;
    states[size_t(r)].args.region_bytes = problem.region_bytes;
  }
  return states;
}

std::vector<std::vector<int>> node_placements(int p) {
  if (p < 2) return {};
  std::vector<std::vector<int>> out(5, std::vector<int>(size_t(p)));
  for (int r = 0, run = 0, left = 1; r < p; ++r) {
    out[0][size_t(r)] = r < (p + 1) / 2 ? 0 : 1;
    out[1][size_t(r)] = run;
    if (--left == 0) left = ++run + 1;
    out[2][size_t(r)] = r % 3;
    out[3][size_t(r)] = int((uint32_t(r) * 2654435761u >> 7) % uint32_t(p / 3 + 2));
    out[4][size_t(r)] = r == p / 2 ? 1 : 0;
  }
  return out;
}

Reduction reduction_for(Values values) {
  Reduction r;
  switch (values) {
    case Values::kBytes:
      break;
    case Values::kSum:
      r.kernel = sum_kernel;
      r.elem_size = 8;
      break;
    case Values::kAffine:
      r.kernel = affine_kernel;
      r.elem_size = 8;
      r.commutative = false;
      break;
    case Values::kFloat:
      r.kernel = float_kernel;
      r.elem_size = 4;
      break;
  }
  return r;
}

SimOutcome run_algorithm(const Problem& problem, const coll::Algorithm& algorithm,
                         const SimRun& run, std::vector<std::vector<unsigned char>>* outputs) {
  std::vector<RankState> states = set_up(problem);
  std::vector<coll::Schedule> schedules(states.size());
  std::vector<coll::Binding> bindings;
  for (size_t r = 0; r < states.size(); ++r) {
    algorithm.build(states[r].args, schedules[r]);
    bindings.push_back(states[r].binding);
  }
  const Reduction reduction = reduction_for(problem.values);
  const SimOutcome outcome =
      simulate(schedules, bindings, reduction.elem_size > 0 ? &reduction : nullptr, run);
  outputs->clear();
  for (RankState& s : states) {
    std::vector<unsigned char> all = s.recv;
    all.insert(all.end(), s.send.begin(), s.send.end());
    outputs->push_back(std::move(all));
  }
  return outcome;
}

}  // namespace weft::test
