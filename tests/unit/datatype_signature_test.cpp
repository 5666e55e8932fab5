// Type signatures: MPI_Get_elements counts for whole and partial elements of derived types, the
// single basic type collectives reduce with, and the external32 representation (big-endian,
// the standard's sizes, no padding).
#include <catch2/catch.hpp>
#include <cstring>

#include "runtime/datatype/build.hpp"
#include "runtime/datatype/external32.hpp"
#include "tests/unit/datatype_reference.hpp"

using namespace weft;
using weft::test::predefined;

namespace {

std::shared_ptr<Datatype> int_double() {  // {int at 0, double at 8}: packs to 12 bytes
  const int lens[] = {1, 1};
  const MPI_Aint displs[] = {0, 8};
  const TypeRef types[] = {predefined(MPI_INT), predefined(MPI_DOUBLE)};
  auto t = make_struct(2, lens, displs, types);
  t->commit();
  return t;
}

std::vector<unsigned char> external(const Datatype& t, const void* buf, size_t count) {
  std::vector<unsigned char> out(count * external32_size(t));
  REQUIRE(pack_external32(t, buf, count, out.data()).ok());
  return out;
}

}  // namespace

TEST_CASE("elements: whole and partial elements of derived types", "[datatype]") {
  auto c3 = make_contiguous(3, predefined(MPI_DOUBLE));
  CHECK(c3->elements(48) == 6);
  CHECK(c3->elements(40) == 5);   // one element and two of the next
  CHECK(c3->elements(41) == -1);  // ends inside a double
  CHECK(c3->elements(0) == 0);

  auto s = int_double();
  CHECK(s->size() == 12);
  CHECK(s->elements(4) == 1);
  CHECK(s->elements(12) == 2);
  CHECK(s->elements(16) == 3);
  CHECK(s->elements(36) == 6);
  CHECK(s->elements(8) == -1);

  auto nested = make_vector(3, 2, 5, s);  // six records, twelve basic elements
  CHECK(nested->elements(nested->size()) == 12);
  CHECK(nested->elements(nested->size() + 16) == 15);

  const Datatype* pair = nullptr;
  REQUIRE(find_datatype(MPI_2INT, "datatype", &pair).ok());
  CHECK(pair->elements(8) == 2);  // a pair type holds two basic elements
  CHECK(pair->elements(4) == 1);
  CHECK(pair->elements(20) == 5);
}

TEST_CASE("basic type: the one predefined type a derived type is made of", "[datatype]") {
  auto v = make_vector(4, 3, 7, make_contiguous(2, predefined(MPI_FLOAT)));
  CHECK(v->basic_type() == MPI_FLOAT);
  CHECK(v->basic_count() == 24);
  CHECK(int_double()->basic_type() == MPI_DATATYPE_NULL);
  CHECK(int_double()->basic_count() == 0);
  auto pairs = make_contiguous(5, predefined(MPI_DOUBLE_INT));
  CHECK(pairs->basic_type() == MPI_DOUBLE_INT);
  CHECK(pairs->basic_count() == 5);
}

TEST_CASE("external32: big-endian scalars at the standard's sizes", "[datatype]") {
  const Datatype* t = nullptr;
  REQUIRE(find_datatype(MPI_INT, "datatype", &t).ok());
  const int i = 0x01020304;
  CHECK(external(*t, &i, 1) == std::vector<unsigned char>{1, 2, 3, 4});

  REQUIRE(find_datatype(MPI_DOUBLE, "datatype", &t).ok());
  const double d = 1.0;
  CHECK(external(*t, &d, 1) == std::vector<unsigned char>{0x3F, 0xF0, 0, 0, 0, 0, 0, 0});

  REQUIRE(find_datatype(MPI_LONG, "datatype", &t).ok());
  CHECK(external32_size(*t) == 4);  // MPI_LONG is 4 bytes in external32
  const long l[] = {-2, 70000};
  const std::vector<unsigned char> e = external(*t, l, 2);
  CHECK(e == std::vector<unsigned char>{0xFF, 0xFF, 0xFF, 0xFE, 0x00, 0x01, 0x11, 0x70});
  long back[2] = {0, 0};
  unpack_external32(*t, e.data(), 2, back);
  CHECK(back[0] == -2);
  CHECK(back[1] == 70000);
  const long huge = 1L << 40;
  std::vector<unsigned char> out(4);
  CHECK(pack_external32(*t, &huge, 1, out.data()).error_class == MPI_ERR_CONVERSION);

  REQUIRE(find_datatype(MPI_LONG_DOUBLE, "datatype", &t).ok());
  CHECK(external32_size(*t) == 16);
  const long double ld[] = {1.5L, -3.0e-4000L};
  const std::vector<unsigned char> q = external(*t, ld, 2);
  // binary128 1.5: sign 0, exponent 0x3FFF, fraction 1000...
  CHECK(std::vector<unsigned char>(q.begin(), q.begin() + 4) ==
        std::vector<unsigned char>{0x3F, 0xFF, 0x80, 0x00});
  long double ld_back[2] = {0, 0};
  unpack_external32(*t, q.data(), 2, ld_back);
  CHECK(ld_back[0] == 1.5L);
  CHECK(ld_back[1] == -3.0e-4000L);
}

TEST_CASE("external32: structs lose their padding, pairs too, and round trip", "[datatype]") {
  auto s = int_double();
  CHECK(external32_size(*s) == 12);
  struct Rec {
    int i;
    double d;
  } recs[2] = {{7, 2.0}, {-1, -0.5}};
  const std::vector<unsigned char> e = external(*s, recs, 2);
  CHECK(e.size() == 24);
  CHECK(std::vector<unsigned char>(e.begin(), e.begin() + 12) ==
        std::vector<unsigned char>{0, 0, 0, 7, 0x40, 0, 0, 0, 0, 0, 0, 0});
  Rec back[2] = {{0, 0}, {0, 0}};
  unpack_external32(*s, e.data(), 2, back);
  CHECK(back[1].i == -1);
  CHECK(back[1].d == -0.5);

  const Datatype* pair = nullptr;
  REQUIRE(find_datatype(MPI_DOUBLE_INT, "datatype", &pair).ok());
  CHECK(external32_size(*pair) == 12);
  const Datatype* complex = nullptr;
  REQUIRE(find_datatype(MPI_C_DOUBLE_COMPLEX, "datatype", &complex).ok());
  CHECK(external32_size(*complex) == 16);

  auto v = make_vector(3, 1, 2, predefined(MPI_SHORT));
  v->commit();
  const short shorts[] = {0x0102, 9, 0x0304, 9, 0x0506};
  CHECK(external(*v, shorts, 1) == std::vector<unsigned char>{1, 2, 3, 4, 5, 6});
}
