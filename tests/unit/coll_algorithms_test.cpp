// Every collective algorithm's schedule, simulated for 1..64 ranks with several counts, roots,
// in-place and v-variant layouts and ops, must match the linear reference form bitwise, finish
// under random completion orders (rendezvous and eager), and match sizes on every message. The
// node-aware algorithms run on several placements of the ranks on nodes.
#include <catch2/catch.hpp>

#include <algorithm>

#include "coll/registry.hpp"
#include "coll_cases.hpp"

using namespace weft;
using namespace weft::test;
using coll::CollKind;

namespace {

bool rooted(CollKind k) {
  return k == CollKind::kBcast || k == CollKind::kReduce || k == CollKind::kGather ||
         k == CollKind::kScatter;
}
bool reduction(CollKind k) {
  return k == CollKind::kReduce || k == CollKind::kAllreduce || k == CollKind::kReduceScatter ||
         k == CollKind::kScan || k == CollKind::kExscan;
}
bool neighborhood(CollKind k) {
  return k == CollKind::kNeighborAllgather || k == CollKind::kNeighborAlltoall;
}
bool has_vector_form(CollKind k) {
  return k == CollKind::kGather || k == CollKind::kScatter || k == CollKind::kAllgather ||
         k == CollKind::kReduceScatter || k == CollKind::kAlltoall || neighborhood(k);
}
bool has_in_place(CollKind k) {
  return k != CollKind::kBarrier && k != CollKind::kBcast && !neighborhood(k);
}

const coll::Algorithm& linear(CollKind k) { return *coll::find_algorithm(k, "linear"); }

bool accepts(const coll::Algorithm& a, const Problem& pb) {
  if (a.accepts == nullptr) return true;
  const std::vector<RankState> states = set_up(pb);
  return std::all_of(states.begin(), states.end(),
                     [&](const RankState& s) { return a.accepts(s.args); });
}

bool per_block(CollKind k) {  // count is per rank's block, so the whole call moves p times it
  return has_vector_form(k);
}

// All problems for one collective at one size.
std::vector<Problem> problems(CollKind kind, int p) {
  std::vector<size_t> counts = {1, size_t(2 * p + 3)};
  if (p <= 16) counts.insert(counts.end(), {0, 3});
  if (p > 16 && per_block(kind)) counts = {1, 3};
  std::vector<int> roots = {0};
  if (rooted(kind)) roots = p <= 16 ? std::vector<int>{0, p - 1, p / 2} : std::vector<int>{p - 1};
  std::sort(roots.begin(), roots.end());
  roots.erase(std::unique(roots.begin(), roots.end()), roots.end());
  std::vector<Values> values = {Values::kBytes};
  if (reduction(kind)) values = {Values::kSum, Values::kAffine};
  std::vector<Problem> out;
  for (size_t count : counts)
    for (int root : roots)
      for (int in_place = 0; in_place <= int(has_in_place(kind)); ++in_place)
        for (int vector = 0; vector <= int(has_vector_form(kind)); ++vector)
          for (Values v : values) {
            Problem pb;
            pb.kind = kind;
            pb.size = p;
            pb.root = root;
            pb.count = count;
            pb.in_place = in_place != 0;
            pb.vector = vector != 0;
            pb.values = v;
            // Tiny segments on odd counts: pipelined algorithms then cut blocks into many
            // pieces over several lanes (up to 16 ranks, to keep the test quick).
            pb.segment_bytes = count % 2 == 1 && p <= 16 ? 16 : 64 * 1024;
            pb.seed = uint64_t(p) * 131 + count;
            out.push_back(pb);
            if (kind == CollKind::kBarrier) return out;
          }
  return out;
}

void check_algorithm(const Problem& pb, const coll::Algorithm& a,
                     const std::vector<std::vector<unsigned char>>& expected) {
  std::vector<std::vector<unsigned char>> got;
  for (bool eager : {false, true}) {
    const SimOutcome run = run_algorithm(pb, a, SimRun{pb.seed * 2 + eager, eager}, &got);
    INFO(pb.describe() + " algorithm " + a.name + (eager ? " eager" : " rendezvous") +
         (run.deadlock ? ": DEADLOCK" : "") + (run.error.empty() ? "" : ": " + run.error));
    REQUIRE(run.ok());
    for (int r = 0; r < pb.size; ++r) {
      INFO("rank " << r);
      REQUIRE(got[size_t(r)] == expected[size_t(r)]);
    }
  }
}

void check_against_reference(CollKind kind, int p) {
  for (const Problem& pb : problems(kind, p)) {
    std::vector<std::vector<unsigned char>> expected;
    const SimOutcome ref = run_algorithm(pb, linear(kind), SimRun{pb.seed, false}, &expected);
    INFO(pb.describe() + " (linear reference)");
    REQUIRE(ref.ok());
    for (const coll::Algorithm* a : coll::algorithms_for(kind)) {
      if (a == &linear(kind)) continue;
      if (!a->node_aware) {
        if (accepts(*a, pb)) check_algorithm(pb, *a, expected);
        continue;
      }
      CHECK_FALSE(accepts(*a, pb));  // not without a node map
      for (const std::vector<int>& nodes : node_placements(p)) {
        Problem placed = pb;
        placed.nodes = nodes;
        if (accepts(*a, placed)) check_algorithm(placed, *a, expected);
      }
    }
  }
}

}  // namespace

TEST_CASE("collective algorithms match the linear reference on 1..64 ranks", "[coll]") {
  for (int k = 0; k < coll::kNumCollKinds; ++k) {
    const CollKind kind = CollKind(k);
    SECTION(coll::coll_name(kind)) {
      for (int p = 1; p <= 64; ++p) check_against_reference(kind, p);
    }
  }
}

TEST_CASE("the same reduction gives the same bits whatever the arrival order", "[coll]") {
  for (CollKind kind : {CollKind::kAllreduce, CollKind::kReduce, CollKind::kReduceScatter,
                        CollKind::kScan}) {
    for (const coll::Algorithm* a : coll::algorithms_for(kind)) {
      for (int p : {3, 8, 13}) {
        Problem pb;
        pb.kind = kind;
        pb.size = p;
        pb.count = 1000;
        pb.values = Values::kFloat;
        pb.segment_bytes = 512;
        if (a->node_aware) pb.nodes = node_placements(p)[2];
        std::vector<std::vector<unsigned char>> first, again;
        REQUIRE(run_algorithm(pb, *a, SimRun{1, false}, &first).ok());
        for (uint64_t seed = 2; seed < 6; ++seed) {
          INFO(pb.describe() + " algorithm " + a->name + " seed " + std::to_string(seed));
          REQUIRE(run_algorithm(pb, *a, SimRun{seed, seed % 2 == 0}, &again).ok());
          REQUIRE(again == first);
        }
      }
    }
  }
}
