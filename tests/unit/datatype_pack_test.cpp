// The pack engine against the naive element-by-element reference (datatype_reference.hpp):
// whole pack and unpack, pieces of the packed stream, short receives (prefix unpack), for nested
// types; and the flattened description staying O(1) for regular types however large.
#include <catch2/catch.hpp>
#include <random>

#include "runtime/datatype/build.hpp"
#include "tests/unit/datatype_reference.hpp"

using namespace weft;
using weft::test::Entry;
using weft::test::predefined;

namespace {

// Memory for `count` elements of `t`, with room on both sides; base points at the buffer origin.
struct Arena {
  std::vector<unsigned char> bytes;
  unsigned char* base = nullptr;

  Arena(const Datatype& t, size_t count, bool random) {
    const ptrdiff_t span = ptrdiff_t(count > 0 ? count - 1 : 0) * t.extent();
    const ptrdiff_t lo = std::min<ptrdiff_t>(0, t.true_lb() + std::min<ptrdiff_t>(0, span));
    const ptrdiff_t hi =
        std::max<ptrdiff_t>(0, t.true_lb() + t.true_extent() + std::max<ptrdiff_t>(0, span));
    bytes.assign(size_t(hi - lo) + 64, 0);
    base = bytes.data() + 32 - lo;
    std::mt19937 rng(unsigned(bytes.size()));
    if (random)
      for (unsigned char& b : bytes) b = (unsigned char)(rng() | 1);  // never 0
  }
};

// Writes the first `len` packed bytes to where the reference typemap puts them.
void reference_unpack(const Datatype& t, const unsigned char* packed, size_t count, size_t len,
                      unsigned char* base) {
  const std::vector<Entry> map = test::typemap(t);
  for (size_t k = 0; k < count && len > 0; ++k) {
    for (const Entry& e : map) {
      const size_t n = std::min(e.bytes, len);
      std::memcpy(base + ptrdiff_t(k) * t.extent() + e.offset, packed, n);
      packed += n;
      len -= n;
      if (len == 0) return;
    }
  }
}

void check_engine(Datatype& t, size_t count) {
  t.commit();
  INFO("combiner " << t.envelope().combiner << ", count " << count);
  const size_t total = count * t.size();
  Arena src(t, count, true);
  std::vector<unsigned char> want(total), got(total, 0);
  test::reference_pack(t, src.base, count, want.data());
  t.pack(src.base, count, got.data());
  REQUIRE(got == want);

  // Pieces of the stream at random cut points reassemble it.
  std::mt19937 rng(unsigned(total + count));
  std::vector<unsigned char> pieces(total, 0);
  for (size_t first = 0; first < total;) {
    const size_t len = std::min<size_t>(total - first, 1 + rng() % (t.size() * 2 + 7));
    t.pack_range(src.base, count, first, len, pieces.data() + first);
    first += len;
  }
  REQUIRE(pieces == want);

  // Unpack writes exactly the typemap's bytes; a prefix unpack writes exactly its first bytes.
  for (size_t len : {total, total / 3, total > 0 ? total - 1 : 0}) {
    Arena expected(t, count, false), actual(t, count, false);
    reference_unpack(t, want.data(), count, len, expected.base);
    t.unpack_range(want.data(), count, 0, len, actual.base);
    REQUIRE(actual.bytes == expected.bytes);
  }
  // Unpacking a piece that starts mid-stream lands where the reference puts it.
  if (total > 2) {
    const size_t first = total / 2 - 1, len = total / 4 + 1;
    Arena whole(t, count, false), piece(t, count, false);
    reference_unpack(t, want.data(), count, total, whole.base);
    t.unpack_range(want.data() + first, count, first, len, piece.base);
    std::vector<unsigned char> probe(total, 0);
    t.pack_range(piece.base, count, first, len, probe.data());
    REQUIRE(
        std::equal(probe.begin(), probe.begin() + ptrdiff_t(len), want.begin() + ptrdiff_t(first)));
  }
}

std::shared_ptr<Datatype> record_type() {  // {double at 0, int at 8, char at 12}, extent 16
  const int lens[] = {1, 1, 1};
  const MPI_Aint displs[] = {0, 8, 12};
  const TypeRef types[] = {predefined(MPI_DOUBLE), predefined(MPI_INT), predefined(MPI_CHAR)};
  return make_struct(3, lens, displs, types);
}

}  // namespace

TEST_CASE("pack engine: predefined and contiguous types", "[datatype]") {
  for (MPI_Datatype h : {MPI_CHAR, MPI_INT, MPI_DOUBLE, MPI_LONG_DOUBLE, MPI_DOUBLE_INT}) {
    auto t = make_contiguous(7, predefined(h));
    check_engine(*t, 3);
  }
  auto empty = make_contiguous(0, predefined(MPI_INT));
  check_engine(*empty, 4);
}

TEST_CASE("pack engine: vectors of every run length the fast paths take", "[datatype]") {
  for (MPI_Datatype h : {MPI_CHAR, MPI_SHORT, MPI_FLOAT, MPI_DOUBLE}) {
    for (int block : {1, 2, 3, 4, 8, 9}) {
      auto t = make_vector(50, block, block + 3, predefined(h));
      check_engine(*t, 1);
      check_engine(*t, 3);
    }
  }
}

TEST_CASE("pack engine: vector of struct", "[datatype]") {
  auto v = make_vector(5, 2, 3, record_type());
  check_engine(*v, 1);
  check_engine(*v, 4);
}

TEST_CASE("pack engine: 3-D subarrays in C and Fortran order", "[datatype]") {
  const int sizes[] = {6, 5, 4}, subsizes[] = {3, 2, 3}, starts[] = {1, 2, 0};
  for (int order : {MPI_ORDER_C, MPI_ORDER_FORTRAN}) {
    std::shared_ptr<Datatype> t;
    REQUIRE(make_subarray(3, sizes, subsizes, starts, order, predefined(MPI_INT), &t).ok());
    check_engine(*t, 1);
    check_engine(*t, 2);
    std::shared_ptr<Datatype> records;
    REQUIRE(make_subarray(3, sizes, subsizes, starts, order, record_type(), &records).ok());
    check_engine(*records, 2);
  }
}

TEST_CASE("pack engine: darray on every rank of a 2 x 3 grid", "[datatype]") {
  const int gsizes[] = {7, 9};
  const int distribs[] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC};
  const int dargs[] = {MPI_DISTRIBUTE_DFLT_DARG, 2}, psizes[] = {2, 3};
  for (int order : {MPI_ORDER_C, MPI_ORDER_FORTRAN}) {
    for (int rank = 0; rank < 6; ++rank) {
      std::shared_ptr<Datatype> t;
      REQUIRE(make_darray(6, rank, 2, gsizes, distribs, dargs, psizes, order,
                          predefined(MPI_DOUBLE), &t)
                  .ok());
      check_engine(*t, 1);
      check_engine(*t, 2);
    }
  }
}

TEST_CASE("pack engine: resized column type, elements interleaved", "[datatype]") {
  auto column = make_vector(4, 1, 5, predefined(MPI_DOUBLE));
  auto resized = make_resized(column, 0, sizeof(double));
  check_engine(*resized, 5);
  auto shifted = make_resized(predefined(MPI_INT), -4, 12);
  check_engine(*shifted, 6);
}

TEST_CASE("pack engine: indexed with negative displacements, hindexed of vectors, nested structs",
          "[datatype]") {
  const int lens[] = {2, 3, 1}, displs[] = {-5, 4, -1};
  auto indexed = make_indexed(3, lens, displs, predefined(MPI_SHORT));
  check_engine(*indexed, 3);

  const int hl[] = {1, 2};
  const MPI_Aint hd[] = {-64, 16};
  auto hindexed = make_hindexed(2, hl, hd, make_vector(3, 1, 2, predefined(MPI_INT)));
  check_engine(*hindexed, 2);

  const int sizes[] = {4, 4}, subsizes[] = {2, 2}, starts[] = {1, 1};
  std::shared_ptr<Datatype> sub;
  REQUIRE(make_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, predefined(MPI_FLOAT), &sub).ok());
  const int sl[] = {1, 3, 2};
  const MPI_Aint sd[] = {0, -10, 70};
  const TypeRef parts[] = {sub, predefined(MPI_CHAR), predefined(MPI_INT)};
  auto nested = make_struct(3, sl, sd, parts);
  check_engine(*nested, 3);
}

TEST_CASE("flattening keeps regular types O(1), however many elements they hold", "[datatype]") {
  auto big = make_vector(1 << 20, 1, 2, predefined(MPI_DOUBLE));
  CHECK(layout_entries(big->layout()) == 1);
  big->commit();
  CHECK(big->flattened_entries() == 1);

  auto nested = make_vector(1000, 1, 3, make_vector(1000, 2, 4, predefined(MPI_DOUBLE)));
  CHECK(layout_entries(nested->layout()) <= 2);

  auto dense = make_contiguous(1 << 20, make_contiguous(4, predefined(MPI_DOUBLE)));
  CHECK(layout_entries(dense->layout()) == 1);
  CHECK(dense->is_contiguous());

  const int sizes[] = {100, 100, 100}, subsizes[] = {50, 50, 50}, starts[] = {10, 20, 30};
  std::shared_ptr<Datatype> cube;
  REQUIRE(
      make_subarray(3, sizes, subsizes, starts, MPI_ORDER_C, predefined(MPI_DOUBLE), &cube).ok());
  CHECK(layout_entries(cube->layout()) <= 3);

  std::vector<int> displs(10000);
  for (size_t i = 0; i < displs.size(); ++i) displs[i] = int(3 * i);
  auto regular = make_indexed_block(int(displs.size()), 2, displs.data(), predefined(MPI_INT));
  CHECK(layout_entries(regular->layout()) == 1);  // evenly spaced blocks merge into a vector

  const int lens[] = {1, 1, 1};
  const MPI_Aint packed_at[] = {0, 4, 8};
  const TypeRef fields[] = {predefined(MPI_INT), predefined(MPI_INT), predefined(MPI_DOUBLE)};
  auto adjacent = make_struct(3, lens, packed_at, fields);
  CHECK(layout_entries(adjacent->layout()) == 1);
  CHECK(adjacent->is_contiguous());
}
