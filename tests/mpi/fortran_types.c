/* The optional Fortran datatypes usable from C (MPI 4.1 §19.1.16, §3.2.2): their sizes and
 * names, MPI_REAL2/MPI_COMPLEX4 null (no C type of that size), reductions on them like on their C
 * counterparts; MPI_Op_create_c's large-count user function in a reduction. */
#include <complex.h>

#include "expect_error.h"

static void sizes_and_names(void) {
  check_context("sizes and names of the Fortran types");
  const struct {
    MPI_Datatype type;
    int size;
    const char* name;
  } expected[] = {
      {MPI_CHARACTER, 1, "MPI_CHARACTER"},
      {MPI_INTEGER, 4, "MPI_INTEGER"},
      {MPI_REAL, 4, "MPI_REAL"},
      {MPI_DOUBLE_PRECISION, 8, "MPI_DOUBLE_PRECISION"},
      {MPI_LOGICAL, 4, "MPI_LOGICAL"},
      {MPI_COMPLEX, 8, "MPI_COMPLEX"},
      {MPI_DOUBLE_COMPLEX, 16, "MPI_DOUBLE_COMPLEX"},
      {MPI_INTEGER1, 1, "MPI_INTEGER1"},
      {MPI_INTEGER2, 2, "MPI_INTEGER2"},
      {MPI_INTEGER4, 4, "MPI_INTEGER4"},
      {MPI_INTEGER8, 8, "MPI_INTEGER8"},
      {MPI_INTEGER16, 16, "MPI_INTEGER16"},
      {MPI_REAL4, 4, "MPI_REAL4"},
      {MPI_REAL8, 8, "MPI_REAL8"},
      {MPI_REAL16, 16, "MPI_REAL16"},
      {MPI_COMPLEX8, 8, "MPI_COMPLEX8"},
      {MPI_COMPLEX16, 16, "MPI_COMPLEX16"},
      {MPI_COMPLEX32, 32, "MPI_COMPLEX32"},
      {MPI_LB, 0, "MPI_LB"},
      {MPI_UB, 0, "MPI_UB"},
  };
  for (size_t i = 0; i < sizeof expected / sizeof expected[0]; ++i) {
    int size = -1, len = 0;
    char name[MPI_MAX_OBJECT_NAME];
    CHECK_MPI(MPI_Type_size(expected[i].type, &size));
    CHECK_MPI(MPI_Type_get_name(expected[i].type, name, &len));
    if (size != expected[i].size || strcmp(name, expected[i].name) != 0)
      fprintf(stderr, "%s: size %d name %s\n", expected[i].name, size, name);
    CHECK(size == expected[i].size && strcmp(name, expected[i].name) == 0);
  }
  CHECK(MPI_REAL2 == MPI_DATATYPE_NULL && MPI_COMPLEX4 == MPI_DATATYPE_NULL);
  MPI_Datatype matched = MPI_DATATYPE_NULL;
  CHECK_MPI(MPI_Type_match_size(MPI_TYPECLASS_COMPLEX, 32, &matched));
  CHECK(matched == MPI_COMPLEX32);
  CHECK_MPI(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 16, &matched));
  CHECK(matched == MPI_INTEGER16);
}

static void reductions(int rank, int size) {
  const int n = 3;
  check_context("MPI_Allreduce MPI_SUM on MPI_INTEGER, MPI_INTEGER8 and MPI_INTEGER16");
  int32_t i4[3], i4_sum[3];
  int64_t i8[3], i8_sum[3];
  __int128 i16[3], i16_sum[3], i16_max[3];
  for (int k = 0; k < n; ++k) {
    i4[k] = rank + k;
    i8[k] = (int64_t)rank << 33;
    i16[k] = ((__int128)(rank + 1) << 70) + k;
  }
  CHECK_MPI(MPI_Allreduce(i4, i4_sum, n, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Allreduce(i8, i8_sum, n, MPI_INTEGER8, MPI_SUM, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Allreduce(i16, i16_sum, n, MPI_INTEGER16, MPI_SUM, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Allreduce(i16, i16_max, n, MPI_INTEGER16, MPI_MAX, MPI_COMM_WORLD));
  const long ranks_sum = (long)size * (size - 1) / 2;
  for (int k = 0; k < n; ++k) {
    CHECK(i4_sum[k] == ranks_sum + (long)size * k);
    CHECK(i8_sum[k] == ranks_sum << 33);
    CHECK(i16_sum[k] == (((__int128)(ranks_sum + size)) << 70) + (__int128)size * k);
    CHECK(i16_max[k] == ((__int128)size << 70) + k);
  }

  check_context("MPI_SUM on MPI_REAL, MPI_DOUBLE_PRECISION, MPI_COMPLEX8 and MPI_COMPLEX16");
  float r4 = (float)rank, r4_sum = 0;
  double r8 = rank * 0.5, r8_sum = 0;
  float complex c8 = rank + 2.0f * rank * I, c8_sum = 0;
  double complex c16 = 1.0 - rank * I, c16_sum = 0;
  CHECK_MPI(MPI_Allreduce(&r4, &r4_sum, 1, MPI_REAL, MPI_SUM, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Allreduce(&r8, &r8_sum, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Allreduce(&c8, &c8_sum, 1, MPI_COMPLEX8, MPI_SUM, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Allreduce(&c16, &c16_sum, 1, MPI_COMPLEX16, MPI_SUM, MPI_COMM_WORLD));
  CHECK(r4_sum == (float)ranks_sum && r8_sum == ranks_sum * 0.5);
  CHECK(crealf(c8_sum) == (float)ranks_sum && cimagf(c8_sum) == 2.0f * ranks_sum);
  CHECK(creal(c16_sum) == size && cimag(c16_sum) == -(double)ranks_sum);

  check_context("MPI_LAND on MPI_LOGICAL; MPI_MAX on MPI_COMPLEX16 is undefined");
  int32_t logical = rank != 1, all = -1;
  CHECK_MPI(MPI_Allreduce(&logical, &all, 1, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD));
  CHECK(all == (size == 1));
  EXPECT_ERROR(MPI_Allreduce(&c16, &c16_sum, 1, MPI_COMPLEX16, MPI_MAX, MPI_COMM_WORLD), MPI_ERR_OP,
               "MPI_Allreduce", "MPI_COMPLEX16");
}

/* A large-count user function: inout[i] += in[i], noting the largest length it was given. */
static MPI_Count largest_len = 0;
static void sum_c(void* in, void* inout, MPI_Count* len, MPI_Datatype* type) {
  CHECK(*type == MPI_LONG_LONG);
  if (*len > largest_len) largest_len = *len;
  const long long* a = in;
  long long* b = inout;
  for (MPI_Count i = 0; i < *len; ++i) b[i] = a[i] + b[i];
}

static void op_create_c(int rank, int size) {
  check_context("MPI_Op_create_c");
  enum { n = 1000 };
  static long long values[n], sums[n];
  for (int i = 0; i < n; ++i) values[i] = (long long)rank * n + i;
  MPI_Op op = MPI_OP_NULL;
  CHECK_MPI(MPI_Op_create_c(sum_c, 1, &op));
  int commute = -1;
  CHECK_MPI(MPI_Op_commutative(op, &commute));
  CHECK(commute == 1);
  CHECK_MPI(MPI_Allreduce(values, sums, n, MPI_LONG_LONG, op, MPI_COMM_WORLD));
  for (int i = 0; i < n; ++i)
    CHECK(sums[i] == (long long)n * size * (size - 1) / 2 + (long long)size * i);
  CHECK(size == 1 || (largest_len > 0 && largest_len <= n));
  long long inout[n];
  for (int i = 0; i < n; ++i) inout[i] = 1;
  CHECK_MPI(MPI_Reduce_local_c(values, inout, n, MPI_LONG_LONG, op));
  for (int i = 0; i < n; ++i) CHECK(inout[i] == values[i] + 1);
  CHECK_MPI(MPI_Op_free(&op));
  EXPECT_ERROR(MPI_Op_create_c(NULL, 1, &op), MPI_ERR_ARG, "MPI_Op_create_c", "user_fn=NULL");
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  int rank, size;
  world_ring(&rank, &size, NULL, NULL);
  sizes_and_names();
  reductions(rank, size);
  op_create_c(rank, size);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
