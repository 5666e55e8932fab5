// weftrun's host lists, hostfiles and rank placement.
#include <catch2/catch.hpp>

#include "launcher/hosts.hpp"

using namespace weft::launcher;

namespace {
std::vector<HostSlots> hosts_of(const std::string& list) {
  std::vector<HostSlots> hosts;
  std::string error;
  INFO(error);
  REQUIRE(parse_host_list(list, &hosts, &error));
  return hosts;
}
Placement place(const std::string& list, int nranks, MapBy map_by = MapBy::kSlot, int per_node = 0) {
  Placement p;
  std::string error;
  INFO(error);
  REQUIRE(place_ranks(hosts_of(list), nranks, map_by, per_node, &p, &error));
  return p;
}
}  // namespace

TEST_CASE("host lists: names with and without slot counts") {
  const std::vector<HostSlots> h = hosts_of("h1:4,h2,10.0.0.3:2");
  REQUIRE(h.size() == 3);
  CHECK(h[0].name == "h1");
  CHECK(h[0].slots == 4);
  CHECK(h[1].name == "h2");
  CHECK(h[1].slots == 1);
  CHECK(h[2].name == "10.0.0.3");
  CHECK(h[2].slots == 2);
  std::vector<HostSlots> out;
  std::string error;
  CHECK_FALSE(parse_host_list("h1:0", &out, &error));
  CHECK(error.find("'h1:0'") != std::string::npos);
  CHECK_FALSE(parse_host_list("h1,,h2", &out, &error));
  CHECK_FALSE(parse_host_list("h1:x", &out, &error));
}

TEST_CASE("hostfiles: Open MPI and MPICH lines, comments, blank lines") {
  std::vector<HostSlots> h;
  std::string error;
  REQUIRE(parse_hostfile("# cluster\nn1 slots=4\n\n  n2:2   # two\nn3 slots=3 max_slots=8\nn4\n",
                         "hosts.txt", &h, &error));
  REQUIRE(h.size() == 4);
  CHECK((h[0].name == "n1" && h[0].slots == 4));
  CHECK((h[1].name == "n2" && h[1].slots == 2));
  CHECK((h[2].name == "n3" && h[2].slots == 3));
  CHECK((h[3].name == "n4" && h[3].slots == 1));
  CHECK_FALSE(parse_hostfile("n1\nn2 slots=zero\n", "hosts.txt", &h, &error));
  CHECK(error.find("hosts.txt:2") != std::string::npos);
}

TEST_CASE("map by slot fills each host, then starts over") {
  Placement p = place("a:2,b:2", 4);
  CHECK(p.nodes == std::vector<std::string>{"a", "b"});
  CHECK(p.node_of_rank == std::vector<int>{0, 0, 1, 1});
  CHECK(place("a:2,b:1", 5).node_of_rank == std::vector<int>{0, 0, 1, 0, 0});
  CHECK(p.ranks_on(1) == std::vector<int>{2, 3});
}

TEST_CASE("map by node deals ranks round-robin") {
  CHECK(place("a:4,b:4,c:4", 5, MapBy::kNode).node_of_rank == std::vector<int>{0, 1, 2, 0, 1});
}

TEST_CASE("npernode puts that many on each host in turn") {
  CHECK(place("a,b,c", 5, MapBy::kSlot, 2).node_of_rank == std::vector<int>{0, 0, 1, 1, 2});
  Placement p;
  std::string error;
  CHECK_FALSE(place_ranks(hosts_of("a,b"), 5, MapBy::kSlot, 2, &p, &error));
  CHECK(error.find("5 ranks do not fit 2 per node on 2 hosts") != std::string::npos);
}

TEST_CASE("hosts without ranks are not nodes; a host named twice is one node") {
  Placement p = place("a:4,b:4", 3);
  CHECK(p.nodes == std::vector<std::string>{"a"});
  p = place("a:1,b:1,a:1", 3);
  CHECK(p.nodes == std::vector<std::string>{"a", "b"});
  CHECK(p.node_of_rank == std::vector<int>{0, 0, 1});
}

TEST_CASE("a Slurm allocation: hostlists and tasks per node") {
  std::vector<HostSlots> h;
  std::string error;
  REQUIRE(slurm_allocation("n[1-3,7],gpu[01-02],login", "2(x3),1,4(x2),1", &h, &error));
  REQUIRE(h.size() == 7);
  CHECK((h[0].name == "n1" && h[0].slots == 2));
  CHECK((h[2].name == "n3" && h[2].slots == 2));
  CHECK((h[3].name == "n7" && h[3].slots == 1));
  CHECK((h[4].name == "gpu01" && h[4].slots == 4));
  CHECK((h[5].name == "gpu02" && h[5].slots == 4));
  CHECK((h[6].name == "login" && h[6].slots == 1));
  h.clear();
  CHECK_FALSE(slurm_allocation("n[1-2]", "2", &h, &error));
  CHECK(error.find("has 2 nodes") != std::string::npos);
  CHECK_FALSE(slurm_allocation("n[3-1]", "1", &h, &error));
  CHECK_FALSE(slurm_allocation("n[1-2", "1(x2)", &h, &error));
}
