// Two-phase I/O's file domains (io/file_domains.hpp): they tile the call's range in order, split
// it evenly without an alignment, and with one put every boundary on a multiple of it, so that
// no stripe has bytes in two domains, while staying within one stripe of the even split.
#include "io/file_domains.hpp"

#include <catch2/catch.hpp>
#include <vector>

using weft::io::domain_bounds;

namespace {

// Bounds start at lo, end at hi and never go backwards.
void check_tiling(const std::vector<MPI_Offset>& b, MPI_Offset lo, MPI_Offset hi, int n) {
  REQUIRE(b.size() == size_t(n) + 1);
  CHECK(b.front() == lo);
  CHECK(b.back() == hi);
  for (size_t i = 1; i < b.size(); ++i) CHECK(b[i - 1] <= b[i]);
}

// The domains that hold bytes of stripe [s × align, (s + 1) × align) (empty ones hold none).
int domains_in_stripe(const std::vector<MPI_Offset>& b, MPI_Offset s, MPI_Offset align) {
  int n = 0;
  for (size_t i = 0; i + 1 < b.size(); ++i)
    if (b[i] < b[i + 1] && b[i] < (s + 1) * align && b[i + 1] > s * align) ++n;
  return n;
}

}  // namespace

TEST_CASE("file domains without an alignment split the range evenly", "[io]") {
  for (int n : {1, 2, 3, 7, 8}) {
    for (MPI_Offset span : {0, 1, 5, 4096, 1000003}) {
      const MPI_Offset lo = 12345;
      const auto b = domain_bounds(lo, lo + span, n, 0);
      check_tiling(b, lo, lo + span, n);
      for (size_t i = 0; i + 1 < b.size(); ++i) {
        const MPI_Offset width = b[i + 1] - b[i];
        CHECK(width >= span / n);
        CHECK(width <= (span + n - 1) / n);
      }
    }
  }
  CHECK(domain_bounds(0, 100, 4, 1) == std::vector<MPI_Offset>{0, 25, 50, 75, 100});
}

TEST_CASE("aligned file domains share no stripe and stay near the even split", "[io]") {
  for (MPI_Offset align : {3, 4096, 1 << 20}) {
    for (int n : {2, 3, 4, 8}) {
      for (MPI_Offset lo : {MPI_Offset(0), MPI_Offset(100), align - 1, 5 * align + 7}) {
        for (MPI_Offset span : {align / 2, align, 3 * align + 11, 40 * align + 3}) {
          const MPI_Offset hi = lo + span;
          const auto b = domain_bounds(lo, hi, n, align);
          check_tiling(b, lo, hi, n);
          for (size_t i = 1; i + 1 < b.size(); ++i) {
            if (b[i] > lo && b[i] < hi) CHECK(b[i] % align == 0);
            const MPI_Offset even = lo + span * MPI_Offset(i) / n;
            CHECK(b[i] >= even - align);
            CHECK(b[i] <= even + align);
          }
          for (MPI_Offset s = lo / align; s * align < hi; ++s)
            CHECK(domains_in_stripe(b, s, align) == 1);
        }
      }
    }
  }
}

TEST_CASE("file domains of a huge file do not overflow", "[io]") {
  const MPI_Offset hi = MPI_Offset(1) << 61;
  const auto b = domain_bounds(0, hi, 7, MPI_Offset(1) << 20);
  check_tiling(b, 0, hi, 7);
  CHECK(b[1] % (MPI_Offset(1) << 20) == 0);
  CHECK(b[1] > hi / 7 - (1 << 20));
}
