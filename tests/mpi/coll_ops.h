/* Reference reductions for the tests/mpi reduction programs: for every predefined op and the
 * types it is defined on, the input each rank contributes (reproducible from rank and salt) and
 * the exact result over a range of ranks, computed locally in rank order. Inputs are chosen so
 * that every result is exact: small integers and halves for floating point, modular wrap-around
 * only for unsigned types. */
#ifndef WEFT_TESTS_COLL_OPS_H
#define WEFT_TESTS_COLL_OPS_H
#include <complex.h>
#include <stdint.h>
#include <stdlib.h>

#include "coll_check.h"

/* Which predefined ops a case is defined on, as bits (1 << op index in kOps). */
enum {
  OPB_MAX = 1 << 0,
  OPB_MIN = 1 << 1,
  OPB_SUM = 1 << 2,
  OPB_PROD = 1 << 3,
  OPB_LAND = 1 << 4,
  OPB_LOR = 1 << 5,
  OPB_LXOR = 1 << 6,
  OPB_BAND = 1 << 7,
  OPB_BOR = 1 << 8,
  OPB_BXOR = 1 << 9,
  OPB_MAXLOC = 1 << 10,
  OPB_MINLOC = 1 << 11,
  OPS_ARITH = OPB_MAX | OPB_MIN | OPB_SUM | OPB_PROD,
  OPS_LOGICAL = OPB_LAND | OPB_LOR | OPB_LXOR,
  OPS_BITWISE = OPB_BAND | OPB_BOR | OPB_BXOR,
  OPS_C_INTEGER = OPS_ARITH | OPS_LOGICAL | OPS_BITWISE,
  OPS_MULTI_LANGUAGE = OPS_ARITH | OPS_BITWISE, /* MPI_AINT, MPI_OFFSET, MPI_COUNT */
  OPS_FLOAT = OPS_ARITH,
  OPS_COMPLEX = OPB_SUM | OPB_PROD,
  OPS_PAIR = OPB_MAXLOC | OPB_MINLOC,
};
static const MPI_Op kOps[] = {MPI_MAX,  MPI_MIN,  MPI_SUM, MPI_PROD, MPI_LAND,   MPI_LOR,
                              MPI_LXOR, MPI_BAND, MPI_BOR, MPI_BXOR, MPI_MAXLOC, MPI_MINLOC};
enum { NUM_OPS = sizeof kOps / sizeof kOps[0] };
static const char* const kOpNames[] = {"MPI_MAX",  "MPI_MIN",  "MPI_SUM",    "MPI_PROD",
                                       "MPI_LAND", "MPI_LOR",  "MPI_LXOR",   "MPI_BAND",
                                       "MPI_BOR",  "MPI_BXOR", "MPI_MAXLOC", "MPI_MINLOC"};
static inline __attribute__((unused)) const char* op_name(MPI_Op op) {
  for (int k = 0; k < NUM_OPS; ++k)
    if (kOps[k] == op) return kOpNames[k];
  return op == MPI_REPLACE ? "MPI_REPLACE" : op == MPI_NO_OP ? "MPI_NO_OP" : "user op";
}

/* The raw input of element i at `rank` for `op` (cast to the element type by the caller). */
static inline unsigned long long wide_pattern(int rank, long i, int salt) {
  const unsigned long long hi = (unsigned long long)mix3(rank, (int)i, salt);
  const unsigned long long lo = (unsigned long long)mix3(rank, (int)i, salt + 101);
  return hi << 33 ^ lo << 3 ^ (unsigned long long)mix3(i, rank, salt);
}
static inline unsigned long long int_input(MPI_Op op, int is_signed, int rank, int size, long i,
                                           int salt) {
  const int p = mix3(rank, (int)i, salt);
  switch (op) {
    case MPI_SUM: /* small for signed types (no overflow), wrapping for unsigned */
      return is_signed ? (unsigned long long)(long long)(p % 11 - 5) : wide_pattern(rank, i, salt);
    case MPI_PROD: /* a product of +-1 and at most one 2 for signed; odd and wrapping unsigned */
      if (!is_signed) return wide_pattern(rank, i, salt) | 1;
      return (unsigned long long)(long long)((p % 3 == 0 ? -1 : 1) * (rank == i % size ? 2 : 1));
    case MPI_LAND:
    case MPI_LOR:
    case MPI_LXOR: /* mostly true, of several values */
      return p % 6 == 0 ? 0 : (unsigned long long)(p % 5 + 1);
    default:
      return wide_pattern(rank, i, salt); /* full range: max, min, bitwise */
  }
}
static inline double float_input(MPI_Op op, int rank, int size, long i, int salt) {
  const int p = mix3(rank, (int)i, salt);
  switch (op) {
    case MPI_SUM:
      return (p % 41 - 20) * 0.25;
    case MPI_PROD:
      if (rank == i % size) return 2;
      if (rank == (i + 1) % size) return 0.5;
      return p % 3 == 0 ? -1 : 1;
    default:
      return (p % 2001 - 1000) * 0.125;
  }
}
static inline double complex complex_input(MPI_Op op, int rank, int size, long i, int salt) {
  const int p = mix3(rank, (int)i, salt), q = mix3(rank, (int)i, salt + 5);
  if (op != MPI_PROD) return (p % 21 - 10) + (q % 21 - 10) * I;
  if (rank == i % size) return 1 + I;
  const double complex units[4] = {1, -1, I, -I};
  return units[p % 4];
}

struct type_case {
  const char* name;
  MPI_Datatype type;
  size_t size; /* bytes of one element in C */
  int ops;     /* OPB_* bits of the predefined ops defined on it */
  void (*fill)(MPI_Op op, void* buf, long n, int rank, int size, int salt);
  void (*ref)(MPI_Op op, const void* in, void* inout, long n); /* inout = in op inout */
  long (*differ)(const void* a, const void* b, long n);        /* first differing index or -1 */
};

#define DEFINE_DIFFER(id, T, EQ)                                    \
  static long differ_##id(const void* a_, const void* b_, long n) { \
    const T* a = (const T*)a_;                                      \
    const T* b = (const T*)b_;                                      \
    for (long i = 0; i < n; ++i)                                    \
      if (!(EQ(a[i], b[i]))) return i;                              \
    return -1;                                                      \
  }
#define PLAIN_EQ(x, y) ((x) == (y))
#define PAIR_EQ(x, y) ((x).v == (y).v && (x).i == (y).i)

/* The ops other than max and min on an integer's bits widened to 64 (the caller narrows the
 * result back: modular for sums and products, 0/1 for the logical ops). */
static inline unsigned long long int_combine(MPI_Op op, unsigned long long x,
                                             unsigned long long y) {
  switch (op) {
    case MPI_SUM:
      return x + y;
    case MPI_PROD:
      return x * y;
    case MPI_LAND:
      return x && y;
    case MPI_LOR:
      return x || y;
    case MPI_LXOR:
      return !x != !y;
    case MPI_BAND:
      return x & y;
    case MPI_BOR:
      return x | y;
    default:
      return x ^ y; /* MPI_BXOR */
  }
}
#define DEFINE_INT_CASE(id, T, is_signed)                                                         \
  static void fill_##id(MPI_Op op, void* buf, long n, int rank, int size, int salt) {             \
    for (long i = 0; i < n; ++i) ((T*)buf)[i] = (T)int_input(op, is_signed, rank, size, i, salt); \
  }                                                                                               \
  static void ref_##id(MPI_Op op, const void* in, void* inout, long n) {                          \
    const T* a = (const T*)in;                                                                    \
    T* b = (T*)inout;                                                                             \
    for (long i = 0; i < n; ++i) {                                                                \
      const T x = a[i], y = b[i];                                                                 \
      b[i] = op == MPI_MAX   ? (x > y ? x : y)                                                    \
             : op == MPI_MIN ? (x < y ? x : y)                                                    \
                             : (T)int_combine(op, (unsigned long long)x, (unsigned long long)y);  \
    }                                                                                             \
  }                                                                                               \
  DEFINE_DIFFER(id, T, PLAIN_EQ)

#define DEFINE_FLOAT_CASE(id, T)                                                         \
  static void fill_##id(MPI_Op op, void* buf, long n, int rank, int size, int salt) {    \
    for (long i = 0; i < n; ++i) ((T*)buf)[i] = (T)float_input(op, rank, size, i, salt); \
  }                                                                                      \
  static void ref_##id(MPI_Op op, const void* in, void* inout, long n) {                 \
    const T* a = (const T*)in;                                                           \
    T* b = (T*)inout;                                                                    \
    for (long i = 0; i < n; ++i) {                                                       \
      const T x = a[i], y = b[i];                                                        \
      b[i] = op == MPI_MAX   ? (x > y ? x : y)                                           \
             : op == MPI_MIN ? (x < y ? x : y)                                           \
             : op == MPI_SUM ? x + y                                                     \
                             : x * y;                                                    \
    }                                                                                    \
  }                                                                                      \
  DEFINE_DIFFER(id, T, PLAIN_EQ)

#define DEFINE_COMPLEX_CASE(id, T)                                                         \
  static void fill_##id(MPI_Op op, void* buf, long n, int rank, int size, int salt) {      \
    for (long i = 0; i < n; ++i) ((T*)buf)[i] = (T)complex_input(op, rank, size, i, salt); \
  }                                                                                        \
  static void ref_##id(MPI_Op op, const void* in, void* inout, long n) {                   \
    const T* a = (const T*)in;                                                             \
    T* b = (T*)inout;                                                                      \
    for (long i = 0; i < n; ++i) b[i] = op == MPI_SUM ? a[i] + b[i] : a[i] * b[i];         \
  }                                                                                        \
  DEFINE_DIFFER(id, T, PLAIN_EQ)

/* value-index pairs for MPI_MAXLOC / MPI_MINLOC; values tie often, indices are not in rank
 * order, so a tie must be resolved by the smaller index, not by the lower rank. */
#define DEFINE_PAIR_CASE(id, V)                                                       \
  struct pair_##id {                                                                  \
    V v;                                                                              \
    int i;                                                                            \
  };                                                                                  \
  static void fill_##id(MPI_Op op, void* buf, long n, int rank, int size, int salt) { \
    (void)op;                                                                         \
    (void)size;                                                                       \
    struct pair_##id* p = (struct pair_##id*)buf;                                     \
    for (long i = 0; i < n; ++i) {                                                    \
      memset(&p[i], 0, sizeof p[i]);                                                  \
      p[i].v = (V)(mix3(rank, (int)i, salt) % 4 - 1);                                 \
      p[i].i = mix3(rank, (int)i, salt + 9) % 1000 - 300;                             \
    }                                                                                 \
  }                                                                                   \
  static void ref_##id(MPI_Op op, const void* in, void* inout, long n) {              \
    const struct pair_##id* a = (const struct pair_##id*)in;                          \
    struct pair_##id* b = (struct pair_##id*)inout;                                   \
    for (long i = 0; i < n; ++i) {                                                    \
      const int a_wins = op == MPI_MAXLOC ? a[i].v > b[i].v : a[i].v < b[i].v;        \
      if (a_wins)                                                                     \
        b[i] = a[i];                                                                  \
      else if (a[i].v == b[i].v && a[i].i < b[i].i)                                   \
        b[i].i = a[i].i;                                                              \
    }                                                                                 \
  }                                                                                   \
  DEFINE_DIFFER(id, struct pair_##id, PAIR_EQ)

/* Logical values: C's _Bool. */
static void fill_bool(MPI_Op op, void* buf, long n, int rank, int size, int salt) {
  for (long i = 0; i < n; ++i) ((_Bool*)buf)[i] = int_input(op, 0, rank, size, i, salt) != 0;
}
static void ref_bool(MPI_Op op, const void* in, void* inout, long n) {
  const _Bool* a = (const _Bool*)in;
  _Bool* b = (_Bool*)inout;
  for (long i = 0; i < n; ++i)
    b[i] = op == MPI_LAND ? (a[i] && b[i]) : op == MPI_LOR ? (a[i] || b[i]) : (a[i] != b[i]);
}
DEFINE_DIFFER(bool, _Bool, PLAIN_EQ)

DEFINE_INT_CASE(schar, signed char, 1)
DEFINE_INT_CASE(uchar, unsigned char, 0)
DEFINE_INT_CASE(short, short, 1)
DEFINE_INT_CASE(ushort, unsigned short, 0)
DEFINE_INT_CASE(int, int, 1)
DEFINE_INT_CASE(uint, unsigned, 0)
DEFINE_INT_CASE(long, long, 1)
DEFINE_INT_CASE(ulong, unsigned long, 0)
DEFINE_INT_CASE(llong, long long, 1)
DEFINE_INT_CASE(ullong, unsigned long long, 0)
DEFINE_INT_CASE(i8, int8_t, 1)
DEFINE_INT_CASE(u8, uint8_t, 0)
DEFINE_INT_CASE(i16, int16_t, 1)
DEFINE_INT_CASE(u16, uint16_t, 0)
DEFINE_INT_CASE(i32, int32_t, 1)
DEFINE_INT_CASE(u32, uint32_t, 0)
DEFINE_INT_CASE(i64, int64_t, 1)
DEFINE_INT_CASE(u64, uint64_t, 0)
DEFINE_INT_CASE(aint, MPI_Aint, 1)
DEFINE_INT_CASE(offset, MPI_Offset, 1)
DEFINE_INT_CASE(count, MPI_Count, 1)
DEFINE_INT_CASE(byte, unsigned char, 0)
DEFINE_FLOAT_CASE(float, float)
DEFINE_FLOAT_CASE(double, double)
DEFINE_FLOAT_CASE(ldouble, long double)
DEFINE_COMPLEX_CASE(fcomplex, float complex)
DEFINE_COMPLEX_CASE(dcomplex, double complex)
DEFINE_COMPLEX_CASE(ldcomplex, long double complex)
DEFINE_PAIR_CASE(2int, int)
DEFINE_PAIR_CASE(float_int, float)
DEFINE_PAIR_CASE(double_int, double)
DEFINE_PAIR_CASE(long_int, long)
DEFINE_PAIR_CASE(short_int, short)
DEFINE_PAIR_CASE(ldouble_int, long double)

#define TYPE_CASE(mpi, id, T, ops) \
  { #mpi, mpi, sizeof(T), ops, fill_##id, ref_##id, differ_##id }
static const struct type_case kTypeCases[] = {
    TYPE_CASE(MPI_SIGNED_CHAR, schar, signed char, OPS_C_INTEGER),
    TYPE_CASE(MPI_UNSIGNED_CHAR, uchar, unsigned char, OPS_C_INTEGER),
    TYPE_CASE(MPI_SHORT, short, short, OPS_C_INTEGER),
    TYPE_CASE(MPI_UNSIGNED_SHORT, ushort, unsigned short, OPS_C_INTEGER),
    TYPE_CASE(MPI_INT, int, int, OPS_C_INTEGER),
    TYPE_CASE(MPI_UNSIGNED, uint, unsigned, OPS_C_INTEGER),
    TYPE_CASE(MPI_LONG, long, long, OPS_C_INTEGER),
    TYPE_CASE(MPI_UNSIGNED_LONG, ulong, unsigned long, OPS_C_INTEGER),
    TYPE_CASE(MPI_LONG_LONG, llong, long long, OPS_C_INTEGER),
    TYPE_CASE(MPI_UNSIGNED_LONG_LONG, ullong, unsigned long long, OPS_C_INTEGER),
    TYPE_CASE(MPI_INT8_T, i8, int8_t, OPS_C_INTEGER),
    TYPE_CASE(MPI_UINT8_T, u8, uint8_t, OPS_C_INTEGER),
    TYPE_CASE(MPI_INT16_T, i16, int16_t, OPS_C_INTEGER),
    TYPE_CASE(MPI_UINT16_T, u16, uint16_t, OPS_C_INTEGER),
    TYPE_CASE(MPI_INT32_T, i32, int32_t, OPS_C_INTEGER),
    TYPE_CASE(MPI_UINT32_T, u32, uint32_t, OPS_C_INTEGER),
    TYPE_CASE(MPI_INT64_T, i64, int64_t, OPS_C_INTEGER),
    TYPE_CASE(MPI_UINT64_T, u64, uint64_t, OPS_C_INTEGER),
    TYPE_CASE(MPI_AINT, aint, MPI_Aint, OPS_MULTI_LANGUAGE),
    TYPE_CASE(MPI_OFFSET, offset, MPI_Offset, OPS_MULTI_LANGUAGE),
    TYPE_CASE(MPI_COUNT, count, MPI_Count, OPS_MULTI_LANGUAGE),
    TYPE_CASE(MPI_BYTE, byte, unsigned char, OPS_BITWISE),
    TYPE_CASE(MPI_C_BOOL, bool, _Bool, OPS_LOGICAL),
    TYPE_CASE(MPI_FLOAT, float, float, OPS_FLOAT),
    TYPE_CASE(MPI_DOUBLE, double, double, OPS_FLOAT),
    TYPE_CASE(MPI_LONG_DOUBLE, ldouble, long double, OPS_FLOAT),
    TYPE_CASE(MPI_C_FLOAT_COMPLEX, fcomplex, float complex, OPS_COMPLEX),
    TYPE_CASE(MPI_C_DOUBLE_COMPLEX, dcomplex, double complex, OPS_COMPLEX),
    TYPE_CASE(MPI_C_LONG_DOUBLE_COMPLEX, ldcomplex, long double complex, OPS_COMPLEX),
    TYPE_CASE(MPI_2INT, 2int, struct pair_2int, OPS_PAIR),
    TYPE_CASE(MPI_FLOAT_INT, float_int, struct pair_float_int, OPS_PAIR),
    TYPE_CASE(MPI_DOUBLE_INT, double_int, struct pair_double_int, OPS_PAIR),
    TYPE_CASE(MPI_LONG_INT, long_int, struct pair_long_int, OPS_PAIR),
    TYPE_CASE(MPI_SHORT_INT, short_int, struct pair_short_int, OPS_PAIR),
    TYPE_CASE(MPI_LONG_DOUBLE_INT, ldouble_int, struct pair_ldouble_int, OPS_PAIR),
};
enum { NUM_TYPE_CASES = sizeof kTypeCases / sizeof kTypeCases[0] };

static inline __attribute__((unused)) const struct type_case* type_case(MPI_Datatype type) {
  for (int k = 0; k < NUM_TYPE_CASES; ++k)
    if (kTypeCases[k].type == type) return &kTypeCases[k];
  return NULL;
}
static inline __attribute__((unused)) int op_defined(const struct type_case* tc, MPI_Op op) {
  if (op == MPI_REPLACE || op == MPI_NO_OP) return 1;
  for (int k = 0; k < NUM_OPS; ++k)
    if (kOps[k] == op) return (tc->ops >> k) & 1;
  return 0;
}

/* This rank's input. For MPI_REPLACE and MPI_NO_OP any values do: those of MPI_BXOR. */
static inline void op_input(const struct type_case* tc, MPI_Op op, void* buf, long n, int rank,
                            int size, int salt) {
  tc->fill(op == MPI_REPLACE || op == MPI_NO_OP ? MPI_BXOR : op, buf, n, rank, size, salt);
}
/* x_lo op x_lo+1 op ... op x_hi-1 (hi > lo), evaluated right to left, into `out`. */
static inline void op_expected(const struct type_case* tc, MPI_Op op, void* out, long n, int lo,
                               int hi, int size, int salt) {
  if (op == MPI_NO_OP) hi = lo + 1;
  if (op == MPI_REPLACE) lo = hi - 1;
  op_input(tc, op, out, n, hi - 1, size, salt);
  if (hi - lo < 2) return;
  void* tmp = malloc((size_t)(n > 0 ? n : 1) * tc->size);
  CHECK(tmp != NULL);
  for (int r = hi - 2; r >= lo; --r) {
    op_input(tc, op, tmp, n, r, size, salt);
    tc->ref(op, tmp, out, n);
  }
  free(tmp);
}
/* Stops the job unless got[0..n) equals want[0..n) element by element. */
static inline void op_check(const struct type_case* tc, const void* got, const void* want, long n,
                            const char* what) {
  const long i = tc->differ(got, want, n);
  if (i >= 0) {
    int rank = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    fprintf(stderr, "rank %d: %s: element %ld of %ld (%s) differs from the expected result (%s)\n",
            rank, what, i, n, tc->name, check_context_);
    const unsigned char* g = (const unsigned char*)got + (size_t)i * tc->size;
    const unsigned char* w = (const unsigned char*)want + (size_t)i * tc->size;
    fprintf(stderr, "  got bytes     ");
    for (size_t b = 0; b < tc->size; ++b) fprintf(stderr, "%02x", g[b]);
    fprintf(stderr, "\n  expected bytes ");
    for (size_t b = 0; b < tc->size; ++b) fprintf(stderr, "%02x", w[b]);
    fprintf(stderr, "\n");
    CHECK(i < 0);
  }
}

/* User-defined ops and MPI_REPLACE/MPI_NO_OP in `which` collective: "reduce", "allreduce",
 * "reduce_scatter" (both forms), "scan" or "exscan" (coll_userop.c). */
void userop_tests(const char* which);

/* Guard bytes after a result buffer: filled before a call, checked after it. */
enum { GUARD_BYTES = 64 };
static inline void guard_set(void* end) { memset(end, 0xA5, GUARD_BYTES); }
static inline void guard_check(const void* end, const char* what) {
  const unsigned char* g = (const unsigned char*)end;
  for (int b = 0; b < GUARD_BYTES; ++b) {
    if (g[b] != 0xA5) {
      fprintf(stderr, "%s: written past its end (byte %d of the guard) (%s)\n", what, b,
              check_context_);
      CHECK(g[b] == 0xA5);
    }
  }
}
#endif
