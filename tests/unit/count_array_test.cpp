// The one view of the int, MPI_Count and MPI_Aint arrays that the int and large-count (_c)
// collective entry points pass to the same checks.
#include "runtime/datatype/count_array.hpp"

#include <catch2/catch.hpp>

using weft::CountArray;

TEST_CASE("a count array reads ints, MPI_Counts and MPI_Aints at full width") {
  const int ints[] = {3, -1, 2147483647};
  const MPI_Count counts[] = {0, 3000000000LL, -7};
  const MPI_Aint aints[] = {-8, MPI_Aint(1) << 40};
  const CountArray a(ints), b(counts), c(aints);
  CHECK(a.data() == ints);
  CHECK(a[0] == 3);
  CHECK(a[1] == -1);
  CHECK(a[2] == 2147483647);
  CHECK(b.data() == counts);
  CHECK(b[1] == 3000000000LL);
  CHECK(b[2] == -7);
  CHECK(c.data() == aints);
  CHECK(c[0] == -8);
  CHECK(c[1] == (MPI_Count(1) << 40));
}

TEST_CASE("a null count array says so") {
  const CountArray none(nullptr);
  CHECK(none.data() == nullptr);
  const int* no_ints = nullptr;
  CHECK(CountArray(no_ints).data() == nullptr);
}
