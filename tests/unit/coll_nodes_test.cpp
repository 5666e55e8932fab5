// Node maps and the two levels node-aware collectives are built from: numbering of nodes, the
// leaders (the root leads its node), schedules appended with renamed peers, and WEFT_NODE_MAP.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "coll/algorithms/node_levels.hpp"
#include "coll/node_map.hpp"
#include "mpi.h"
#include "runtime/comm/nodes.hpp"

using namespace weft;
using namespace weft::coll;

TEST_CASE("nodes: a node map numbers nodes by their lowest rank and groups their ranks") {
  const NodeMap m = NodeMap::from_ids(std::vector<int>{42, 7, 42, 9, 7, 7});
  CHECK(m.nodes() == 3);
  CHECK(m.size() == 6);
  CHECK(m.node_of == std::vector<int>{0, 1, 0, 2, 1, 1});
  CHECK(std::vector<int>(m.ranks_on(0).begin(), m.ranks_on(0).end()) == std::vector<int>{0, 2});
  CHECK(std::vector<int>(m.ranks_on(1).begin(), m.ranks_on(1).end()) == std::vector<int>{1, 4, 5});
  CHECK(std::vector<int>(m.ranks_on(2).begin(), m.ranks_on(2).end()) == std::vector<int>{3});
  CHECK(m.largest_node() == 3);
  CHECK_FALSE(m.contiguous);

  const NodeMap blocks = NodeMap::from_ids(std::vector<int>{5, 5, 1, 1, 1, 3});
  CHECK(blocks.contiguous);
  CHECK(blocks.nodes() == 3);
  CHECK(blocks.node_of == std::vector<int>{0, 0, 1, 1, 1, 2});
  CHECK(NodeMap::from_ids(std::vector<int>{0, 0, 0}).nodes() == 1);
}

TEST_CASE("nodes: two levels: lowest ranks lead, except that the root leads its own node") {
  const NodeMap m = NodeMap::from_ids(std::vector<int>{0, 1, 0, 1, 2, 1});
  // No root: every node's lowest rank leads; rank 3 is on node 1 = {1, 3, 5}.
  TwoLevels t = two_levels(m, 3, -1);
  CHECK(t.node.ranks == std::vector<int>{1, 3, 5});
  CHECK(t.node.self == 1);
  CHECK(t.node.root == 0);
  CHECK(t.leaders.ranks == std::vector<int>{0, 1, 4});
  CHECK_FALSE(t.leader());
  CHECK(t.leaders.root == 0);
  t = two_levels(m, 1, -1);
  CHECK(t.leader());
  CHECK(t.leaders.self == 1);
  // Root 5 leads node 1, and the leaders' tree is rooted at node 1.
  t = two_levels(m, 5, 5);
  CHECK(t.leaders.ranks == std::vector<int>{0, 5, 4});
  CHECK(t.leaders.root == 1);
  CHECK(t.leaders.self == 1);
  CHECK(t.node.root == 2);
  CHECK(t.node.self == 2);
  t = two_levels(m, 1, 5);  // rank 1 is no longer a leader
  CHECK_FALSE(t.leader());
  CHECK(t.node.root == 2);
}

TEST_CASE("nodes: a schedule appended for a subset of ranks talks to their communicator ranks") {
  Schedule part;  // among 3 ranks: send to 1, receive from 2, copy
  part.send(1, send_buf(), 8);
  part.recv(2, recv_buf(8), 8);
  part.copy(send_buf(), recv_buf(), 8);
  Schedule whole;
  const std::vector<int> ranks = {4, 9, 2};
  whole.append(part, send_buf(), recv_buf(), kNoStep, ranks);
  CHECK(whole.step(0).peer == 9);
  CHECK(whole.step(1).peer == 2);
  CHECK(whole.step(2).peer == -1);  // not a message: no peer to rename
  Schedule kept;
  kept.append(part, send_buf(), recv_buf(), kNoStep);
  CHECK(kept.step(0).peer == 1);
}

TEST_CASE("nodes: WEFT_NODE_MAP names nodes per rank of the world, repeated; auto names none") {
  std::string name = "x";
  REQUIRE(node_name_setting("auto", 3, &name).ok());
  CHECK(name.empty());
  REQUIRE(node_name_setting("a,b", 0, &name).ok());
  CHECK(name == "a");
  REQUIRE(node_name_setting("a,b", 3, &name).ok());
  CHECK(name == "b");
  REQUIRE(node_name_setting("n0,n0,n1,n1,n2", 7, &name).ok());
  CHECK(name == "n1");  // 7 % 5 = 2
  REQUIRE(node_name_setting("solo", 12, &name).ok());
  CHECK(name == "solo");
  for (const char* bad : {"", "a,,b", "a,", ",a"}) {
    INFO("WEFT_NODE_MAP='" << bad << "'");
    const Status s = node_name_setting(bad, 0, &name);
    REQUIRE_FALSE(s.ok());
    CHECK(s.error_class == MPI_ERR_OTHER);
    CHECK_THAT(s.message, Catch::Contains("WEFT_NODE_MAP"));
    CHECK_THAT(s.message, Catch::Contains("empty node name"));
  }
}
