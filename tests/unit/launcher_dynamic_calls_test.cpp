// The spawn and name-service calls weftd forwards to weftrun (launcher/dynamic_calls.hpp): each
// survives the wire whole, and a cut or damaged body is refused rather than half read.
#include <catch2/catch.hpp>

#include "launcher/dynamic_calls.hpp"

using namespace weft::launcher;

TEST_CASE("a spawn call and its answer cross the wire whole", "[launcher][dynamic]") {
  SpawnRequest sent;
  sent.parent = "weft.1 rank 3";
  SpawnRequest::App a;
  a.context.nranks = 2;
  a.context.argv = {"/bin/prog", "child", "with space"};
  a.context.wdir = "/tmp";
  a.context.env = {{"WEFT_PARENT_PORT", "port:1"}, {"EMPTY", ""}};
  a.host = "h1";
  sent.apps = {a, SpawnRequest::App{}};
  SpawnRequest got;
  uint32_t id = 0;
  REQUIRE(decode_spawn_call(encode_spawn_call(7, sent), &id, &got));
  CHECK(id == 7);
  CHECK(got.parent == sent.parent);
  REQUIRE(got.apps.size() == 2);
  CHECK(got.apps[0].context.nranks == 2);
  CHECK(got.apps[0].context.argv == a.context.argv);
  CHECK(got.apps[0].context.wdir == "/tmp");
  CHECK(got.apps[0].context.env == a.context.env);
  CHECK(got.apps[0].host == "h1");
  CHECK(got.apps[1].context.argv.empty());

  std::string nspace;
  bool ok = false;
  REQUIRE(decode_spawn_answer(encode_spawn_answer(9, "weft.1.spawn2", true), &id, &nspace, &ok));
  CHECK((id == 9 && nspace == "weft.1.spawn2" && ok));
  REQUIRE(decode_spawn_answer(encode_spawn_answer(3, "", false), &id, &nspace, &ok));
  CHECK((id == 3 && nspace.empty() && !ok));
}

TEST_CASE("name calls and answers cross the wire whole", "[launcher][dynamic]") {
  for (auto kind : {NameRequest::kPublish, NameRequest::kLookup, NameRequest::kUnpublish}) {
    NameRequest sent;
    sent.kind = kind;
    sent.wait = kind == NameRequest::kLookup;
    sent.entries = {{"service", kind == NameRequest::kPublish ? "port:42" : ""}};
    NameRequest got;
    uint32_t id = 0;
    REQUIRE(decode_name_call(encode_name_call(11, sent), &id, &got));
    CHECK((id == 11 && got.kind == kind && got.wait == sent.wait && got.entries == sent.entries));
  }
  const Found found = {{"a", "1"}, {"b", "two"}};
  for (auto outcome : {NameOutcome::kOk, NameOutcome::kNotFound, NameOutcome::kDuplicate}) {
    uint32_t id = 0;
    NameOutcome o = NameOutcome::kOk;
    Found f;
    REQUIRE(decode_name_answer(encode_name_answer(5, outcome, found), &id, &o, &f));
    CHECK((id == 5 && o == outcome && f == found));
  }
}

TEST_CASE("cut or damaged dynamic calls are refused", "[launcher][dynamic]") {
  SpawnRequest sent;
  sent.parent = "p";
  sent.apps.resize(1);
  sent.apps[0].context.argv = {"x"};
  const std::string body = encode_spawn_call(1, sent);
  for (size_t cut = 0; cut < body.size(); ++cut) {
    SpawnRequest got;
    uint32_t id = 0;
    CHECK_FALSE(decode_spawn_call(body.substr(0, cut), &id, &got));
  }
  NameRequest bad_kind;
  std::string name_body = encode_name_call(1, bad_kind);
  name_body[4] = 9;  // the kind, past kUnpublish
  NameRequest got;
  uint32_t id = 0;
  CHECK_FALSE(decode_name_call(name_body, &id, &got));
  std::string answer = encode_name_answer(1, NameOutcome::kOk, {});
  answer[4] = 7;  // the outcome, past kDuplicate
  NameOutcome o;
  Found f;
  CHECK_FALSE(decode_name_answer(answer, &id, &o, &f));
}
