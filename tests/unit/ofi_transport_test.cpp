// The libfabric transport in one process, sending to itself over tcp;ofi_rxm on loopback: match
// bits become tags and masks become ignore bits (wildcards pick the right message), probes,
// matched probes, synchronous sends held until matched, truncation, cancel; and the providers
// Weft refuses. Skipped where libfabric offers no tcp;ofi_rxm.
#ifdef WEFT_HAVE_OFI
#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>
#include <memory>

#include "mpi.h"
#include "pt2pt/match_bits.hpp"
#include "pt2pt/ofi_provider.hpp"
#include "pt2pt/ofi_transport.hpp"

using namespace weft;
using match_bits::kAnySource;
using match_bits::kAnyTag;
using match_bits::make_recv;
using match_bits::make_send;

namespace {

bool have_tcp() {
  setenv("FI_TCP_IFACE", "lo", 0);
  for (const ofi::Provider& p : ofi::list_providers())
    if (p.name == "tcp;ofi_rxm" && p.refused.empty()) return true;
  return false;
}

std::unique_ptr<Transport> self_connected() {
  OfiOptions o;
  o.provider = "tcp;ofi_rxm";
  std::unique_ptr<Transport> t;
  Status s = make_ofi_transport(o, &t);
  REQUIRE(s.ok());
  REQUIRE(t->connect(0, t->address()).ok());
  return t;
}

void wait(Transport& t, const Completion& c) {
  for (int i = 0; i < 1000000 && !c.done; ++i) t.progress();
  REQUIRE(c.done);
}

}  // namespace

TEST_CASE("ofi transport: wildcards, probes and matched probes pick the messages MPI says") {
  if (!have_tcp()) return;
  auto t = self_connected();
  // Three messages, two on context 6 (tags 5 and 9), one on context 8; 100 bytes each, so that
  // none is injected.
  char a[100] = "tag5", b[100] = "tag9", c[100] = "ctx8";
  Completion sa, sb, sc;
  REQUIRE(t->isend(0, a, sizeof a, make_send(6, 3, 5), false, &sa).ok());
  REQUIRE(t->isend(0, b, sizeof b, make_send(6, 3, 9), false, &sb).ok());
  REQUIRE(t->isend(0, c, sizeof c, make_send(8, 1, 5), false, &sc).ok());
  ProbeResult p;
  const auto ctx8 = make_recv(8, kAnySource, 5);
  bool found = false;
  for (int i = 0; i < 100000 && !found; ++i) found = t->iprobe(kAnyPeer, ctx8.bits, ctx8.mask, &p);
  REQUIRE(found);
  CHECK(p.sender_bits == make_send(8, 1, 5));
  CHECK(p.bytes == sizeof c);
  const auto nine = make_recv(6, kAnySource, 9);  // the second message, not the first
  char got[100] = {};
  Completion r;
  REQUIRE(t->irecv(kAnyPeer, got, sizeof got, nine.bits, nine.mask, &r).ok());
  wait(*t, r);
  CHECK(r.sender_bits == make_send(6, 3, 9));
  CHECK(std::strcmp(got, "tag9") == 0);
  const auto any_tag = make_recv(6, 3, kAnyTag);
  Completion r2;
  REQUIRE(t->irecv(kAnyPeer, got, sizeof got, any_tag.bits, any_tag.mask, &r2).ok());
  wait(*t, r2);
  CHECK(r2.sender_bits == make_send(6, 3, 5));
  CHECK(std::strcmp(got, "tag5") == 0);
  // The probe left the context-8 message in place; a matched probe takes it.
  REQUIRE(t->take_message(kAnyPeer, ctx8.bits, ctx8.mask, &p));
  CHECK_FALSE(t->iprobe(kAnyPeer, ctx8.bits, ctx8.mask, &p));  // out of matching now
  Completion r3;
  REQUIRE(t->recv_message(p, got, sizeof got, &r3).ok());
  wait(*t, r3);
  CHECK(std::strcmp(got, "ctx8") == 0);
  for (Completion* s : {&sa, &sb, &sc}) wait(*t, *s);
}

TEST_CASE("ofi transport: synchronous sends, truncation and cancel") {
  if (!have_tcp()) return;
  auto t = self_connected();
  int value = 42;
  Completion ss;
  REQUIRE(t->isend(0, &value, sizeof value, make_send(6, 0, 1), true, &ss).ok());
  for (int i = 0; i < 20000; ++i) t->progress();
  CHECK_FALSE(ss.done);  // delivered long ago, but nothing has matched it
  int got = 0;
  Completion r;
  const auto m = make_recv(6, 0, 1);
  REQUIRE(t->irecv(kAnyPeer, &got, sizeof got, m.bits, m.mask, &r).ok());
  wait(*t, r);
  wait(*t, ss);
  CHECK(got == 42);
  CHECK(ss.error_class == MPI_SUCCESS);

  char big[300] = {}, small[100];
  Completion sb, rt;
  REQUIRE(t->isend(0, big, sizeof big, make_send(6, 0, 2), false, &sb).ok());
  const auto m2 = make_recv(6, 0, 2);
  REQUIRE(t->irecv(kAnyPeer, small, sizeof small, m2.bits, m2.mask, &rt).ok());
  wait(*t, rt);
  CHECK(rt.error_class == MPI_ERR_TRUNCATE);
  CHECK(rt.bytes == sizeof small);
  CHECK(rt.sender_bits == make_send(6, 0, 2));
  wait(*t, sb);

  Completion rc;
  const auto none = make_recv(6, 0, 77);
  REQUIRE(t->irecv(kAnyPeer, small, sizeof small, none.bits, none.mask, &rc).ok());
  t->cancel(&rc);
  wait(*t, rc);
  CHECK(rc.cancelled);
}

TEST_CASE("ofi providers: shm is refused with its reason, an unknown name is an error") {
  Status s;
  ofi::Provider p;
  std::string why;
  for (const ofi::Provider& q : ofi::list_providers()) {
    if (q.name != "shm") continue;
    CHECK(q.refused.find("defective") != std::string::npos);
    s = ofi::choose_provider("shm", &p, &why);
    CHECK(s.error_class == MPI_ERR_OTHER);
    CHECK(s.message.find("WEFT_OFI_PROVIDER=shm") != std::string::npos);
  }
  s = ofi::choose_provider("no_such_provider", &p, &why);
  CHECK(s.error_class == MPI_ERR_OTHER);
  CHECK(s.message.find("no_such_provider") != std::string::npos);
}
#endif
