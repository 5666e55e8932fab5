// A barrier carries no data, so matching the linear reference proves nothing: here every
// barrier algorithm's schedules, joined by their matched messages, must make each rank's
// completion causally follow every rank's entry, for 1..64 ranks (the node-aware one on several
// placements of the ranks on nodes; the node-region one from 2 ranks, its posts leading to the
// fetches of them and each rank's arrival to every other's completion).
#include <catch2/catch.hpp>
#include <map>
#include <tuple>
#include <vector>

#include "coll/registry.hpp"
#include "coll_cases.hpp"

using namespace weft::coll;

namespace {

// Whether, for every pair of ranks (a, b), some step of b depends (through local dependencies
// and messages) on some step of a.
bool everyone_waits_for_everyone(const std::vector<Schedule>& schedules) {
  const int p = int(schedules.size());
  std::vector<size_t> base(size_t(p) + 1, 0);  // global step id = base[rank] + local id
  for (int r = 0; r < p; ++r) base[size_t(r) + 1] = base[size_t(r)] + schedules[size_t(r)].size();
  std::vector<std::vector<size_t>> next(base[size_t(p)]);
  std::map<std::tuple<int, int, int>, std::vector<size_t>> sends, recvs;
  std::map<int, std::vector<size_t>> posts, fetches;  // by the posting rank
  std::vector<size_t> arrivals;                       // every arrival leads to every other
  for (int r = 0; r < p; ++r) {
    const Schedule& s = schedules[size_t(r)];
    for (StepId id = 0; id < s.size(); ++id) {
      const Step& step = s.step(id);
      for (StepId d : s.deps_of(step)) next[base[size_t(r)] + d].push_back(base[size_t(r)] + id);
      if (step.kind == StepKind::kSend)
        sends[{r, step.peer, step.lane}].push_back(base[size_t(r)] + id);
      if (step.kind == StepKind::kRecv)
        recvs[{step.peer, r, step.lane}].push_back(base[size_t(r)] + id);
      if (step.kind == StepKind::kPost) posts[r].push_back(base[size_t(r)] + id);
      if (step.kind == StepKind::kFetch) fetches[step.peer].push_back(base[size_t(r)] + id);
      if (step.kind == StepKind::kArrive) arrivals.push_back(base[size_t(r)] + id);
    }
  }
  for (const auto& [rank, out] : posts) {
    REQUIRE(out.size() == 1);
    for (size_t in : fetches[rank]) next[out[0]].push_back(in);
  }
  for (size_t from : arrivals)
    for (size_t to : arrivals)
      if (to != from) next[from].push_back(to);
  for (const auto& [stream, out] : sends) {
    const std::vector<size_t>& in = recvs[stream];
    REQUIRE(in.size() == out.size());
    for (size_t k = 0; k < out.size(); ++k) next[out[k]].push_back(in[k]);
  }
  for (int a = 0; a < p; ++a) {
    std::vector<bool> seen(next.size(), false);
    std::vector<size_t> todo;
    for (size_t g = base[size_t(a)]; g < base[size_t(a) + 1]; ++g) todo.push_back(g);
    while (!todo.empty()) {
      const size_t g = todo.back();
      todo.pop_back();
      if (seen[g]) continue;
      seen[g] = true;
      for (size_t n : next[g]) todo.push_back(n);
    }
    for (int b = 0; b < p; ++b) {
      bool reached = false;
      for (size_t g = base[size_t(b)]; g < base[size_t(b) + 1]; ++g) reached = reached || seen[g];
      if (!reached && b != a) return false;
    }
  }
  return true;
}

}  // namespace

TEST_CASE("barrier algorithms: no rank leaves before every rank has entered", "[coll]") {
  for (const Algorithm* algorithm : algorithms_for(CollKind::kBarrier)) {
    for (int p = algorithm->node_region ? 2 : 1; p <= 64; ++p) {
      // Flat algorithms once; node-aware ones on every placement of the ranks on nodes.
      std::vector<std::vector<int>> placements = {{}};
      if (algorithm->node_aware) placements = weft::test::node_placements(p);
      for (const std::vector<int>& nodes : placements) {
        std::shared_ptr<const NodeMap> map;
        if (!nodes.empty()) map = std::make_shared<const NodeMap>(NodeMap::from_ids(nodes));
        std::vector<Schedule> schedules(static_cast<size_t>(p));
        for (int r = 0; r < p; ++r) {
          CollArgs args;
          args.kind = CollKind::kBarrier;
          args.rank = r;
          args.size = p;
          args.nodes = map;
          args.region_bytes = 64;
          REQUIRE((algorithm->accepts == nullptr || algorithm->accepts(args)));
          algorithm->build(args, schedules[size_t(r)]);
        }
        INFO(algorithm->name << " on " << p << " ranks" << (map ? ", " : "")
                             << (map ? std::to_string(map->nodes()) + " nodes" : ""));
        CHECK(everyone_waits_for_everyone(schedules));
      }
    }
  }
}
