/* Weft's 16-bit float extensions MPIX_C_FLOAT16 and MPIX_BFLOAT16 on host buffers: what the type
 * queries say, point-to-point, MPI_SUM and MPI_MAX in MPI_Allreduce and MPI_Reduce and MPI_SUM
 * in MPI_Accumulate, checked against a host computation; rounding to nearest even in
 * MPI_Reduce_local; MPI_ERR_OP for the ops the types do not take. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static uint32_t float_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

/* The 16-bit encoding of a float the type holds exactly (checked). */
static uint16_t exact_16(MPI_Datatype type, float f) {
  const uint32_t b = float_bits(f);
  if (f == 0) return (uint16_t)(b >> 16);
  if (type == MPIX_BFLOAT16) {
    CHECK((b & 0xffff) == 0);
    return (uint16_t)(b >> 16);
  }
  const int exponent = (int)((b >> 23) & 0xff) - 127 + 15;
  CHECK((b & 0x1fff) == 0 && exponent >= 1 && exponent <= 30);
  return (uint16_t)(((b >> 16) & 0x8000) | ((uint32_t)exponent << 10) | ((b >> 13) & 0x3ff));
}

/* The value of 16 bits of the type, from the format's definition. */
static float value_16(MPI_Datatype type, uint16_t h) {
  if (type == MPIX_BFLOAT16) {
    const uint32_t b = (uint32_t)h << 16;
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
  }
  const float sign = (h & 0x8000) ? -1.0f : 1.0f;
  const int exponent = (h >> 10) & 0x1f, fraction = h & 0x3ff;
  if (exponent == 0x1f) return fraction == 0 ? sign * INFINITY : NAN;
  if (exponent == 0) return sign * ldexpf((float)fraction, -24);
  return sign * ldexpf((float)(1024 + fraction), exponent - 25);
}

/* Rank r's element i for the sums: small multiples of 1/4 (binary16) or integers (bfloat16),
 * so every partial sum of up to 8 ranks is exact and the order of the additions does not
 * matter. */
static float sum_input(MPI_Datatype type, int r, long i) {
  if (type == MPIX_BFLOAT16) return (float)((i * 5 + r * 11) % 61 - 30);
  return (float)((i * 7 + r * 13) % 97 - 48) * 0.25f;
}

/* Rank r's element i for the maxima: any finite bit pattern but -0 (max(-0, +0) may give
 * either), from a hash every rank can compute. */
static uint16_t max_input(MPI_Datatype type, int r, long i) {
  uint32_t x = (uint32_t)(i * 2654435761u) ^ (uint32_t)(r * 40503u + 17u);
  x ^= x >> 15;
  x *= 2246822519u;
  x ^= x >> 13;
  uint16_t h = (uint16_t)x;
  const uint16_t exponent_mask = type == MPIX_BFLOAT16 ? 0x7f80 : 0x7c00;
  if ((h & exponent_mask) == exponent_mask) h &= (uint16_t)~0x4000; /* no inf or NaN */
  if (h == 0x8000) h = 0;
  return h;
}

static const char* type_name(MPI_Datatype type) {
  return type == MPIX_C_FLOAT16 ? "MPIX_C_FLOAT16" : "MPIX_BFLOAT16";
}

static void check_queries(MPI_Datatype type) {
  int size = 0, len = 0, ni, na, nd, combiner;
  MPI_Aint lb, extent, packed = 0;
  char name[MPI_MAX_OBJECT_NAME];
  CHECK_MPI(MPI_Type_size(type, &size));
  CHECK(size == 2);
  CHECK_MPI(MPI_Type_get_extent(type, &lb, &extent));
  CHECK(lb == 0 && extent == 2);
  CHECK_MPI(MPI_Type_get_name(type, name, &len));
  CHECK(strcmp(name, type_name(type)) == 0 && len == (int)strlen(name));
  CHECK_MPI(MPI_Type_get_envelope(type, &ni, &na, &nd, &combiner));
  CHECK(combiner == MPI_COMBINER_NAMED);
  CHECK_MPI(MPI_Pack_external_size("external32", 3, type, &packed));
  CHECK(packed == 6);
}

/* Each rank sends its neighbour 16-bit patterns, NaN and infinity included. */
static void check_ring(MPI_Datatype type, int rank, int left, int right) {
  uint16_t out[5] = {0x7fff, 0xfc00, 0x0001, 0x8000, (uint16_t)rank}, in[5] = {0};
  MPI_Status status;
  int count = 0;
  CHECK_MPI(MPI_Sendrecv(out, 5, type, right, 7, in, 5, type, left, 7, MPI_COMM_WORLD, &status));
  CHECK_MPI(MPI_Get_count(&status, type, &count));
  CHECK(count == 5);
  CHECK(memcmp(in, out, 8) == 0 && in[4] == (uint16_t)left);
}

static void check_sum(MPI_Datatype type, int rank, int size, long n) {
  uint16_t* in = malloc((size_t)n * 2);
  uint16_t* out = malloc((size_t)n * 2);
  for (long i = 0; i < n; ++i) in[i] = exact_16(type, sum_input(type, rank, i));
  check_context("MPI_Allreduce(MPI_SUM, %s, count %ld)", type_name(type), n);
  CHECK_MPI(MPI_Allreduce(in, out, (int)n, type, MPI_SUM, MPI_COMM_WORLD));
  for (long i = 0; i < n; ++i) {
    float want = 0;
    for (int r = 0; r < size; ++r) want += sum_input(type, r, i);
    CHECK(out[i] == exact_16(type, want));
  }
  const int root = size - 1;
  check_context("MPI_Reduce(MPI_SUM, %s, count %ld, root %d)", type_name(type), n, root);
  memset(out, 0, (size_t)n * 2);
  CHECK_MPI(MPI_Reduce(in, out, (int)n, type, MPI_SUM, root, MPI_COMM_WORLD));
  if (rank == root) {
    for (long i = 0; i < n; ++i) {
      float want = 0;
      for (int r = 0; r < size; ++r) want += sum_input(type, r, i);
      CHECK(out[i] == exact_16(type, want));
    }
  }
  free(in);
  free(out);
}

static void check_max(MPI_Datatype type, int rank, int size, long n) {
  uint16_t* buf = malloc((size_t)n * 2);
  for (long i = 0; i < n; ++i) buf[i] = max_input(type, rank, i);
  check_context("MPI_Allreduce(MPI_IN_PLACE, MPI_MAX, %s, count %ld)", type_name(type), n);
  CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, buf, (int)n, type, MPI_MAX, MPI_COMM_WORLD));
  for (long i = 0; i < n; ++i) {
    uint16_t want = max_input(type, 0, i);
    for (int r = 1; r < size; ++r) {
      const uint16_t h = max_input(type, r, i);
      if (value_16(type, h) > value_16(type, want)) want = h;
    }
    CHECK(buf[i] == want);
  }
  free(buf);
}

/* MPI_Accumulate with MPI_SUM from every rank into rank 0's window. */
static void check_accumulate(MPI_Datatype type, int rank, int size) {
  enum { kCount = 64 };
  uint16_t target[kCount] = {0}, in[kCount];
  for (int i = 0; i < kCount; ++i) in[i] = exact_16(type, sum_input(type, rank, i));
  MPI_Win win;
  check_context("MPI_Accumulate(MPI_SUM, %s)", type_name(type));
  CHECK_MPI(MPI_Win_create(target, sizeof target, 2, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
  CHECK_MPI(MPI_Win_fence(0, win));
  CHECK_MPI(MPI_Accumulate(in, kCount, type, 0, 0, kCount, type, MPI_SUM, win));
  CHECK_MPI(MPI_Win_fence(0, win));
  if (rank == 0) {
    for (int i = 0; i < kCount; ++i) {
      float want = 0;
      for (int r = 0; r < size; ++r) want += sum_input(type, r, i);
      CHECK(target[i] == exact_16(type, want));
    }
  }
  CHECK_MPI(MPI_Win_free(&win));
}

/* One addition, rounded to nearest even: the exact sum lies halfway between two neighbours. */
static void check_rounding(MPI_Datatype type) {
  const float ulp = type == MPIX_BFLOAT16 ? 0x1p-7f : 0x1p-10f;
  const uint16_t in[2] = {exact_16(type, 0.5f * ulp), exact_16(type, 0.5f * ulp)};
  uint16_t inout[2] = {exact_16(type, 1.0f), exact_16(type, 1.0f + ulp)};
  check_context("MPI_Reduce_local(MPI_SUM, %s) at a tie", type_name(type));
  CHECK_MPI(MPI_Reduce_local(in, inout, 2, type, MPI_SUM));
  CHECK(inout[0] == exact_16(type, 1.0f));             /* 1 + ulp/2: to the even 1 */
  CHECK(inout[1] == exact_16(type, 1.0f + 2 * ulp));   /* 1 + 3ulp/2: to the even 1 + 2ulp */
}

static void check_refused_ops(MPI_Datatype type) {
  uint16_t a = 0, b = 0;
  check_context("MPI_LAND and MPI_MAXLOC on %s", type_name(type));
  CHECK(error_class(MPI_Allreduce(&a, &b, 1, type, MPI_LAND, MPI_COMM_WORLD)) == MPI_ERR_OP);
  CHECK(error_class(MPI_Reduce_local(&a, &b, 1, type, MPI_MAXLOC)) == MPI_ERR_OP);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  int rank, size, left, right;
  world_ring(&rank, &size, &left, &right);
  const MPI_Datatype types[2] = {MPIX_C_FLOAT16, MPIX_BFLOAT16};
  const long counts[3] = {1, 1000, 300000};
  for (int t = 0; t < 2; ++t) {
    check_queries(types[t]);
    check_ring(types[t], rank, left, right);
    for (int c = 0; c < 3; ++c) {
      check_sum(types[t], rank, size, counts[c]);
      check_max(types[t], rank, size, counts[c]);
    }
    check_accumulate(types[t], rank, size);
    check_rounding(types[t]);
    check_refused_ops(types[t]);
  }
  MPI_Finalize();
  if (rank == 0) printf("half_types: ok\n");
  return 0;
}
