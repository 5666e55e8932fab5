// The weftrun ↔ weftd wire: SHA-256 against FIPS 180-4's examples, message framing across
// partial reads, and the JobSpec's round trip.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>

#include "launcher/job_spec.hpp"
#include "launcher/sha256.hpp"
#include "launcher/wire.hpp"

using namespace weft::launcher;

TEST_CASE("sha256 gives the standard's digests") {
  CHECK(to_hex(sha256("abc")) ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(to_hex(sha256("")) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(to_hex(sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")) ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(to_hex(sha256(std::string(1000000, 'a'))) ==
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("messages survive being split and joined on the way") {
  int fds[2];
  REQUIRE(socketpair(AF_UNIX, SOCK_STREAM, 0, fds) == 0);
  fcntl(fds[0], F_SETFL, O_NONBLOCK);
  fcntl(fds[1], F_SETFL, O_NONBLOCK);
  Channel out(fds[0]), in(fds[1]);
  const std::string big(200000, 'x');
  out.send(MsgType::kOutput, BodyWriter().i32(3).u32(2).str(big).bytes());
  out.send(MsgType::kDone, "");
  std::vector<Message> got;
  while (got.size() < 2) {
    out.flush();
    REQUIRE(in.receive(&got));
  }
  REQUIRE(got.size() == 2);
  CHECK(got[0].type == MsgType::kOutput);
  BodyReader r(got[0].body);
  CHECK(r.i32() == 3);
  CHECK(r.u32() == 2);
  CHECK(r.str() == big);
  CHECK(r.ok());
  CHECK(got[1].type == MsgType::kDone);
  CHECK(got[1].body.empty());
  // Reading past the end is noticed, not garbage.
  BodyReader short_body(got[1].body);
  short_body.u32();
  CHECK_FALSE(short_body.ok());
  // The other end closing is the end of the stream.
  close(fds[0]);
  std::vector<Message> none;
  CHECK_FALSE(in.receive(&none));
  close(fds[1]);
}

TEST_CASE("a JobSpec goes to weftd and back unchanged") {
  JobSpec spec;
  spec.nspace = "weft.42";
  spec.nodes = {"h1", "h2"};
  spec.node_of_rank = {0, 0, 1, 1, 0};
  AppContext a;
  a.nranks = 2;
  a.argv = {"/bin/a", "x y"};
  AppContext b;
  b.nranks = 3;
  b.argv = {"/bin/b"};
  b.wdir = "/tmp";
  b.env = {{"K", "v=w"}};
  spec.apps = {a, b};
  spec.env = {"PATH=/usr/bin", "EMPTY="};
  spec.tag_output = true;
  spec.binding = {Binding::kPackage, true, NodeOrder::kPackage, NodeOrder::kCore, true};
  JobSpec back;
  REQUIRE(decode_job_spec(encode_job_spec(spec), &back));
  CHECK(back.nspace == "weft.42");
  CHECK(back.nodes == spec.nodes);
  CHECK(back.node_of_rank == spec.node_of_rank);
  REQUIRE(back.apps.size() == 2);
  CHECK(back.apps[0].argv == a.argv);
  CHECK(back.apps[1].wdir == "/tmp");
  CHECK(back.apps[1].env == b.env);
  CHECK(back.env == spec.env);
  CHECK(back.tag_output);
  CHECK(back.binding.bind == Binding::kPackage);
  CHECK(back.binding.overload_allowed);
  CHECK(back.binding.map == NodeOrder::kPackage);
  CHECK(back.binding.rank == NodeOrder::kCore);
  CHECK(back.binding.report);
  CHECK(back.app_of(1) == 0);
  CHECK(back.app_of(2) == 1);
  CHECK(back.ranks_on(0) == std::vector<int>{0, 1, 4});
  CHECK(back.local_rank_of(4) == 2);
  // A truncated body, or one whose ranks name a node that does not exist, is refused.
  const std::string body = encode_job_spec(spec);
  CHECK_FALSE(decode_job_spec(body.substr(0, body.size() - 3), &back));
  spec.node_of_rank[0] = 7;
  CHECK_FALSE(decode_job_spec(encode_job_spec(spec), &back));
}

TEST_CASE("the start-up tree: fan-out k over the nodes that need a daemon") {
  JobSpec spec;
  for (int n = 0; n < 10; ++n) spec.nodes.push_back("n" + std::to_string(n));
  spec.launcher_node = 0;  // weftrun's own node gets no daemon
  spec.fanout = 3;
  CHECK(spec.tree_children(-1) == std::vector<int>{1, 2, 3});
  CHECK(spec.tree_children(1) == std::vector<int>{4, 5, 6});
  CHECK(spec.tree_children(2) == std::vector<int>{7, 8, 9});
  CHECK(spec.tree_children(3).empty());
  CHECK(spec.tree_children(0).empty());
  // Every daemon is started exactly once.
  std::vector<int> started;
  for (int node = -1; node < 10; ++node)
    for (int c : spec.tree_children(node)) started.push_back(c);
  std::sort(started.begin(), started.end());
  CHECK(started == std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8, 9});
  spec.fanout = 0;  // flat
  CHECK(spec.tree_children(-1).size() == 9);
  spec.launcher_node = -1;  // weftrun runs no ranks: every node has a daemon
  CHECK(spec.tree_children(-1).size() == 10);
}
