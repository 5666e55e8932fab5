// Match-bits layout: fields round-trip, wildcard masks match exactly what MPI says they should.
#include <catch2/catch.hpp>

#include "pt2pt/match_bits.hpp"

using namespace weft::match_bits;

TEST_CASE("send bits round-trip context, source and tag") {
  const uint32_t contexts[] = {0, 1, 2, 12345, kMaxContexts - 1};
  const int sources[] = {0, 1, 7, 4095, kMaxRanks - 1};
  const int tags[] = {0, 1, 42, 32767, kMaxTag};
  for (uint32_t c : contexts)
    for (int s : sources)
      for (int t : tags) {
        const uint64_t bits = make_send(c, s, t);
        CHECK(context_of(bits) == c);
        CHECK(source_of(bits) == s);
        CHECK(tag_of(bits) == t);
        CHECK_FALSE(is_internal(bits));
      }
}

TEST_CASE("fields do not overlap and fill 64 bits") {
  CHECK((kTagMask & kSourceMask) == 0);
  CHECK((kSourceMask & kContextMask) == 0);
  CHECK((kContextMask & kInternalBit) == 0);
  CHECK((kTagMask | kSourceMask | kContextMask | kInternalBit) == ~uint64_t{0});
  CHECK(kMaxTag >= 32767);  // the MPI standard's minimum MPI_TAG_UB
}

TEST_CASE("a specific receive matches only its own source, tag and context") {
  const uint64_t sent = make_send(5, 3, 99);
  CHECK(matches(sent, make_recv(5, 3, 99)));
  CHECK_FALSE(matches(sent, make_recv(5, 4, 99)));
  CHECK_FALSE(matches(sent, make_recv(5, 3, 98)));
  CHECK_FALSE(matches(sent, make_recv(6, 3, 99)));
}

TEST_CASE("wildcards") {
  const uint64_t sent = make_send(5, 3, 99);
  CHECK(matches(sent, make_recv(5, kAnySource, 99)));
  CHECK(matches(sent, make_recv(5, 3, kAnyTag)));
  CHECK(matches(sent, make_recv(5, kAnySource, kAnyTag)));
  CHECK_FALSE(matches(sent, make_recv(5, kAnySource, 100)));
  CHECK_FALSE(matches(sent, make_recv(5, 2, kAnyTag)));
  // Wildcards never cross communicators.
  CHECK_FALSE(matches(sent, make_recv(4, kAnySource, kAnyTag)));
}

TEST_CASE("internal traffic never matches user receives, even with wildcards") {
  const uint64_t internal = make_send(5, 3, 99, true);
  CHECK(is_internal(internal));
  CHECK_FALSE(matches(internal, make_recv(5, kAnySource, kAnyTag)));
  CHECK(matches(internal, make_recv(5, kAnySource, kAnyTag, true)));
  CHECK_FALSE(matches(make_send(5, 3, 99), make_recv(5, kAnySource, kAnyTag, true)));
}

TEST_CASE("the sender mask covers exactly the sender's identity") {
  const uint64_t a = make_send(5, 3, 1), b = make_send(5, 3, 2);
  CHECK((a & kSenderMask) == (b & kSenderMask));
  CHECK((make_send(5, 4, 1) & kSenderMask) != (a & kSenderMask));
}
