// The predefined pair types are the C structs {value; int} (MPI 4.0 §6.9.4): size the sum of the
// fields, extent the struct's sizeof, true extent up to the end of the index; their data moves
// packed (no padding), and MAXLOC/MINLOC and user ops see whole pairs.
#include <catch2/catch.hpp>

#include <cstddef>
#include <cstring>
#include <vector>

#include "runtime/datatype/datatype.hpp"
#include "runtime/datatype/external32.hpp"
#include "runtime/op/op.hpp"

using namespace weft;

namespace {

template <typename V>
struct PairOf {
  V v;
  int i;
};

const Datatype& type(MPI_Datatype h) {
  const Datatype* t = nullptr;
  REQUIRE(find_datatype(h, "datatype", &t).ok());
  return *t;
}

template <typename V>
void check_pair(MPI_Datatype h) {
  using P = PairOf<V>;
  const Datatype& t = type(h);
  INFO(t.name());
  CHECK(t.size() == sizeof(V) + sizeof(int));
  CHECK(t.lb() == 0);
  CHECK(t.extent() == ptrdiff_t(sizeof(P)));
  CHECK(t.true_lb() == 0);
  CHECK(t.true_extent() == ptrdiff_t(offsetof(P, i) + sizeof(int)));
  CHECK(t.alignment() == alignof(P));
  CHECK(t.is_predefined());
  CHECK(t.envelope().combiner == MPI_COMBINER_NAMED);
  CHECK(t.basic_type() == h);
  CHECK(t.basic_count() == 1);
  // One element is contiguous where the index follows the value directly; an array only
  // without padding.
  CHECK(t.is_contiguous(1) == (offsetof(P, i) == sizeof(V)));
  CHECK(t.is_contiguous(2) == (sizeof(P) == sizeof(V) + sizeof(int)));
  CHECK(t.elements(t.size()) == 2);
  CHECK(t.elements(sizeof(V)) == 1);  // the value alone
  CHECK(t.elements(3 * t.size()) == 6);
}

}  // namespace

TEST_CASE("pair types: the size of their fields, the extent of their C struct", "[datatype]") {
  check_pair<float>(MPI_FLOAT_INT);
  check_pair<double>(MPI_DOUBLE_INT);
  check_pair<long>(MPI_LONG_INT);
  check_pair<int>(MPI_2INT);
  check_pair<short>(MPI_SHORT_INT);
  check_pair<long double>(MPI_LONG_DOUBLE_INT);

  CHECK(type(MPI_DOUBLE_INT).size() == 12);
  CHECK(type(MPI_DOUBLE_INT).extent() == 16);
  CHECK(type(MPI_DOUBLE_INT).true_extent() == 12);
  CHECK(type(MPI_SHORT_INT).size() == 6);
  CHECK(type(MPI_SHORT_INT).extent() == 8);
  CHECK(type(MPI_SHORT_INT).true_extent() == 8);
  CHECK(type(MPI_FLOAT_INT).size() == 8);
  CHECK(type(MPI_FLOAT_INT).extent() == 8);
  CHECK(type(MPI_2INT).size() == 8);
  // The Fortran pairs have no padding.
  CHECK(type(MPI_2DOUBLE_PRECISION).size() == 16);
  CHECK(type(MPI_2DOUBLE_PRECISION).extent() == 16);
  CHECK(type(MPI_2DOUBLE_PRECISION).is_contiguous());
  // Every other predefined type: size == extent, contiguous.
  for (MPI_Datatype h : {MPI_CHAR, MPI_INT, MPI_DOUBLE, MPI_LONG_DOUBLE, MPI_C_DOUBLE_COMPLEX}) {
    CHECK(type(h).extent() == ptrdiff_t(type(h).size()));
    CHECK(type(h).is_contiguous());
  }
}

TEST_CASE("pair types pack to their fields back to back and leave the padding", "[datatype]") {
  using P = PairOf<short>;
  const Datatype& t = type(MPI_SHORT_INT);
  P src[3];
  std::memset(src, 0x11, sizeof src);
  for (int k = 0; k < 3; ++k) src[k] = {short(10 + k), 100 + k};
  std::vector<unsigned char> packed(3 * t.size());
  t.pack(src, 3, packed.data());
  for (int k = 0; k < 3; ++k) {
    short v = 0;
    int i = 0;
    std::memcpy(&v, packed.data() + 6 * k, sizeof v);
    std::memcpy(&i, packed.data() + 6 * k + 2, sizeof i);
    CHECK(v == 10 + k);
    CHECK(i == 100 + k);
  }
  unsigned char back[sizeof src];
  std::memset(back, 0xA5, sizeof back);
  t.unpack(packed.data(), 3, back);
  for (size_t b = 0; b < sizeof back; ++b) {
    const size_t at = b % sizeof(P);
    const bool padding = at >= sizeof(short) && at < offsetof(P, i);
    CHECK((padding ? back[b] == 0xA5 : back[b] == reinterpret_cast<unsigned char*>(src)[b]));
  }
  CHECK(external32_size(t) == 6);
  CHECK(external32_size(type(MPI_DOUBLE_INT)) == 12);
}

TEST_CASE("MAXLOC/MINLOC on packed pairs: whole pairs at the packed stride", "[datatype]") {
  OpTable ops;
  Reduction r;
  const Datatype& t = type(MPI_DOUBLE_INT);
  REQUIRE(ops.bind(MPI_MAXLOC, t, &r).ok());
  CHECK(r.elem_size == 12);
  CHECK(r.layout == nullptr);
  PairOf<double> a[3] = {{1.5, 4}, {2.0, 9}, {-1.0, 3}};
  PairOf<double> b[3] = {{1.0, 1}, {2.0, 7}, {0.5, 8}};
  std::vector<unsigned char> pa(36), pb(36);
  t.pack(a, 3, pa.data());
  t.pack(b, 3, pb.data());
  r.apply(pa.data(), pb.data(), 3);
  PairOf<double> out[3] = {};
  t.unpack(pb.data(), 3, out);
  CHECK((out[0].v == 1.5 && out[0].i == 4));
  CHECK((out[1].v == 2.0 && out[1].i == 7));  // a tie: the smaller index
  CHECK((out[2].v == 0.5 && out[2].i == 8));

  REQUIRE(ops.bind(MPI_MINLOC, type(MPI_LONG_DOUBLE_INT), &r).ok());
  CHECK(r.elem_size == sizeof(long double) + sizeof(int));
  REQUIRE(ops.bind(MPI_NO_OP, type(MPI_SHORT_INT), &r).ok());
  CHECK(r.elem_size == 6);
}

namespace {

int g_pair_calls = 0;
void user_pair_max(void* in, void* inout, int* len, MPI_Datatype* type) {
  ++g_pair_calls;
  CHECK(*type == MPI_SHORT_INT);
  auto* a = static_cast<PairOf<short>*>(in);  // the C structs, at the type's extent
  auto* b = static_cast<PairOf<short>*>(inout);
  for (int k = 0; k < *len; ++k)
    if (a[k].v > b[k].v) b[k] = a[k];
}

}  // namespace

TEST_CASE("a user op on a pair type with padding sees the C structs", "[datatype]") {
  OpTable ops;
  const MPI_Op op = ops.create(user_pair_max, true);
  Reduction r;
  const Datatype& t = type(MPI_SHORT_INT);
  REQUIRE(ops.bind(op, t, &r).ok());
  CHECK(r.layout != nullptr);
  CHECK(r.elem_size == 6);
  PairOf<short> a[2] = {{5, 1}, {-3, 2}};
  PairOf<short> b[2] = {{4, 7}, {8, 9}};
  std::vector<unsigned char> pa(12), pb(12);
  t.pack(a, 2, pa.data());
  t.pack(b, 2, pb.data());
  g_pair_calls = 0;
  r.apply(pa.data(), pb.data(), 2);
  CHECK(g_pair_calls == 1);
  PairOf<short> out[2] = {};
  t.unpack(pb.data(), 2, out);
  CHECK((out[0].v == 5 && out[0].i == 1));
  CHECK((out[1].v == 8 && out[1].i == 9));
  // Without padding the data is the structs themselves: no layout needed.
  REQUIRE(ops.bind(op, type(MPI_2INT), &r).ok());
  CHECK(r.layout == nullptr);
}

TEST_CASE("an op a pair type does not define is refused naming the type", "[datatype]") {
  OpTable ops;
  Reduction r;
  const Status s = ops.bind(MPI_SUM, type(MPI_DOUBLE_INT), &r);
  CHECK(s.error_class == MPI_ERR_OP);
  CHECK(s.message == "MPI_SUM is not defined for datatype MPI_DOUBLE_INT");
}
