/* MPI_Type_create_f90_integer/real/complex: the sized type a Fortran KIND maps to (its size
 * and use in a message), the envelope and contents naming the combiner and (p, r), the same
 * handle for the same arguments, and the errors: no such kind, freeing the type. */
#include "check.h"
#include "expect_error.h"

static void expect_f90(MPI_Datatype t, int combiner, int p, int r, int bytes) {
  int size = -1, ni = -1, na = -1, nt = -1, comb = -1;
  CHECK_MPI(MPI_Type_size(t, &size));
  CHECK(size == bytes);
  CHECK_MPI(MPI_Type_get_envelope(t, &ni, &na, &nt, &comb));
  CHECK(comb == combiner && na == 0 && nt == 0);
  int ints[2] = {-9, -9};
  CHECK(ni == (combiner == MPI_COMBINER_F90_INTEGER ? 1 : 2));
  CHECK_MPI(MPI_Type_get_contents(t, 2, 0, 0, ints, NULL, NULL));
  if (combiner == MPI_COMBINER_F90_INTEGER) {
    CHECK(ints[0] == r);
  } else {
    CHECK(ints[0] == p && ints[1] == r);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  int rank, size, left, right;
  world_ring(&rank, &size, &left, &right);

  check_context("the kinds gfortran has");
  MPI_Datatype i1, i4, i8, i16, r4, r8, r16, c8, c16, again;
  CHECK_MPI(MPI_Type_create_f90_integer(2, &i1));
  CHECK_MPI(MPI_Type_create_f90_integer(9, &i4));
  CHECK_MPI(MPI_Type_create_f90_integer(15, &i8));
  CHECK_MPI(MPI_Type_create_f90_integer(38, &i16));
  expect_f90(i1, MPI_COMBINER_F90_INTEGER, 0, 2, 1);
  expect_f90(i4, MPI_COMBINER_F90_INTEGER, 0, 9, 4);
  expect_f90(i8, MPI_COMBINER_F90_INTEGER, 0, 15, 8);
  expect_f90(i16, MPI_COMBINER_F90_INTEGER, 0, 38, 16);
  CHECK_MPI(MPI_Type_create_f90_real(6, MPI_UNDEFINED, &r4));
  CHECK_MPI(MPI_Type_create_f90_real(10, 100, &r8));
  CHECK_MPI(MPI_Type_create_f90_real(MPI_UNDEFINED, 1000, &r16));
  expect_f90(r4, MPI_COMBINER_F90_REAL, 6, MPI_UNDEFINED, 4);
  expect_f90(r8, MPI_COMBINER_F90_REAL, 10, 100, 8);
  expect_f90(r16, MPI_COMBINER_F90_REAL, MPI_UNDEFINED, 1000, 16);
  CHECK_MPI(MPI_Type_create_f90_complex(5, 30, &c8));
  CHECK_MPI(MPI_Type_create_f90_complex(15, 307, &c16));
  expect_f90(c8, MPI_COMBINER_F90_COMPLEX, 5, 30, 8);
  expect_f90(c16, MPI_COMBINER_F90_COMPLEX, 15, 307, 16);

  check_context("the same arguments give the same handle");
  CHECK_MPI(MPI_Type_create_f90_real(10, 100, &again));
  CHECK(again == r8);

  check_context("a message of f90 reals around the ring, summed by MPI_Allreduce");
  double out[3] = {rank, rank + 0.5, -rank}, in[3] = {0, 0, 0};
  CHECK_MPI(MPI_Sendrecv(out, 3, r8, right, 1, in, 3, r8, left, 1, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE));
  CHECK(in[0] == left && in[1] == left + 0.5 && in[2] == -left);
  double sum = 0, one = 1;
  CHECK_MPI(MPI_Allreduce(&one, &sum, 1, r8, MPI_SUM, MPI_COMM_WORLD));
  CHECK(sum == size);

  check_context("errors");
  EXPECT_ERROR(MPI_Type_create_f90_integer(39, &again), MPI_ERR_ARG,
               "MPI_Type_create_f90_integer", "r=39");
  EXPECT_ERROR(MPI_Type_create_f90_real(34, 10, &again), MPI_ERR_ARG, "MPI_Type_create_f90_real",
               "p=34");
  EXPECT_ERROR(MPI_Type_create_f90_complex(MPI_UNDEFINED, MPI_UNDEFINED, &again), MPI_ERR_ARG,
               "MPI_Type_create_f90_complex", "p=");
  MPI_Datatype keep = r8;
  EXPECT_ERROR(MPI_Type_free(&keep), MPI_ERR_TYPE, "MPI_Type_free", "predefined");
  CHECK(keep == r8);

  MPI_Finalize();
  return 0;
}
