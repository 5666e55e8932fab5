// The binding plan of a node's ranks (launcher/binding.*) over made-up topologies: 1 and 2
// packages, 1 and 2 PUs per core, each --bind-to, --map-by core|package and --rank-by.
#include <catch2/catch.hpp>

#include "launcher/binding.hpp"

using namespace weft::launcher;

namespace {

// `packages` x `cores` cores numbered as Linux does: PU c for the first thread of core c, and
// with smt 2 PU c + total cores for the second.
NodeTopology machine(int packages, int cores, int smt) {
  NodeTopology t;
  const int total = packages * cores;
  for (int c = 0; c < total; ++c) {
    CoreInfo core{c / cores, c, {c}};
    if (smt == 2) core.pus.push_back(c + total);
    t.push_back(core);
  }
  return t;
}

std::vector<RankBinding> plan(const BindingOptions& options, int nranks, const NodeTopology& t) {
  std::vector<RankBinding> out;
  std::string error;
  REQUIRE(plan_binding(options, nranks, t, "h1", &out, &error));
  REQUIRE(out.size() == size_t(nranks));
  return out;
}

std::vector<std::string> described(const std::vector<RankBinding>& plan) {
  std::vector<std::string> out;
  for (const RankBinding& b : plan) out.push_back(describe_binding(b));
  return out;
}

BindingOptions bind(Binding b, NodeOrder map = NodeOrder::kCore) {
  BindingOptions o;
  o.bind = b;
  o.map = o.rank = map;
  return o;
}

}  // namespace

TEST_CASE("auto binds each rank to a core of its own when there are enough, else nothing") {
  const NodeTopology t = machine(1, 2, 1);
  CHECK(described(plan(bind(Binding::kAuto), 2, t)) ==
        std::vector<std::string>{"package 0 core 0 (PU 0)", "package 0 core 1 (PU 1)"});
  CHECK(described(plan(bind(Binding::kAuto), 3, t)) ==
        std::vector<std::string>{"nothing", "nothing", "nothing"});
  CHECK(described(plan(bind(Binding::kNone), 1, t)) == std::vector<std::string>{"nothing"});
  // No topology (hwloc could not read it): nothing bound, even when asked for.
  CHECK(described(plan(bind(Binding::kCore), 1, {})) == std::vector<std::string>{"nothing"});
}

TEST_CASE("a core binding takes every PU of the core") {
  const NodeTopology t = machine(2, 2, 2);  // cores 0-3, PUs c and c+4
  const std::vector<RankBinding> p = plan(bind(Binding::kCore), 3, t);
  CHECK(p[1].package == 0);
  CHECK(p[1].core == 1);
  CHECK(p[1].pus == std::vector<int>{1, 5});
  CHECK(describe_binding(p[1]) == "package 0 core 1 (PUs 1,5)");
  CHECK(describe_binding(p[2]) == "package 1 core 2 (PUs 2,6)");
}

TEST_CASE("a package binding takes every PU of the rank's package") {
  const NodeTopology t = machine(2, 2, 2);
  CHECK(described(plan(bind(Binding::kPackage), 3, t)) ==
        std::vector<std::string>{"package 0 (PUs 0-1,4-5)", "package 0 (PUs 0-1,4-5)",
                                 "package 1 (PUs 2-3,6-7)"});
  // More ranks than cores share packages without complaint.
  CHECK(described(plan(bind(Binding::kPackage), 5, machine(1, 2, 1))) ==
        std::vector<std::string>(5, "package 0 (PUs 0-1)"));
}

TEST_CASE("--map-by package deals ranks round-robin over packages") {
  const NodeTopology t = machine(2, 3, 1);  // package 0: cores 0-2, package 1: cores 3-5
  std::vector<std::string> want = {"package 0 core 0 (PU 0)", "package 1 core 3 (PU 3)",
                                   "package 0 core 1 (PU 1)", "package 1 core 4 (PU 4)"};
  CHECK(described(plan(bind(Binding::kCore, NodeOrder::kPackage), 4, t)) == want);
  // --rank-by core: the same cores, numbered in core order.
  BindingOptions o = bind(Binding::kCore, NodeOrder::kPackage);
  o.rank = NodeOrder::kCore;
  CHECK(described(plan(o, 3, t)) == std::vector<std::string>{"package 0 core 0 (PU 0)",
                                                             "package 0 core 1 (PU 1)",
                                                             "package 1 core 3 (PU 3)"});
  // --map-by core --rank-by package: the first cores in order, ranks dealt over their packages.
  o = bind(Binding::kCore, NodeOrder::kCore);
  o.rank = NodeOrder::kPackage;
  CHECK(described(plan(o, 4, t)) ==
        std::vector<std::string>{"package 0 core 0 (PU 0)", "package 1 core 3 (PU 3)",
                                 "package 0 core 1 (PU 1)", "package 0 core 2 (PU 2)"});
  // One package: --map-by package is --map-by core.
  CHECK(described(plan(bind(Binding::kCore, NodeOrder::kPackage), 2, machine(1, 2, 2))) ==
        std::vector<std::string>{"package 0 core 0 (PUs 0,2)", "package 0 core 1 (PUs 1,3)"});
}

TEST_CASE("--bind-to core with more ranks than cores fails unless overload is allowed") {
  const NodeTopology t = machine(1, 2, 2);
  std::vector<RankBinding> out;
  std::string error;
  CHECK_FALSE(plan_binding(bind(Binding::kCore), 3, t, "h1", &out, &error));
  CHECK(error ==
        "cannot bind 3 ranks to cores on h1: it has 2 cores (use --bind-to "
        "core:overload-allowed to share them, or --bind-to none)");
  BindingOptions o = bind(Binding::kCore);
  o.overload_allowed = true;
  CHECK(described(plan(o, 3, t)) == std::vector<std::string>{"package 0 core 0 (PUs 0,2)",
                                                             "package 0 core 1 (PUs 1,3)",
                                                             "package 0 core 0 (PUs 0,2)"});
}

TEST_CASE("only the allowed PUs of a core are used") {
  // A cpuset that leaves core 0 with one of its two PUs and takes core 1 away altogether.
  const NodeTopology t = {{0, 0, {4}}, {0, 2, {2, 6}}};
  CHECK(described(plan(bind(Binding::kAuto), 2, t)) ==
        std::vector<std::string>{"package 0 core 0 (PU 4)", "package 0 core 2 (PUs 2,6)"});
}
