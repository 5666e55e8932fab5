/* The predefined pair types (MPI 4.0 §6.9.4) are the C structs {value; int}: their size is the
 * sum of the two fields (MPI_DOUBLE_INT: 12), their extent the struct's sizeof (16), so only the
 * data travels and the struct padding of a receive buffer is never written. Checked here: sizes,
 * extents and true extents, send/receive of MPI_DOUBLE_INT arrays with MPI_Get_count and
 * MPI_Get_elements, pack/unpack, and MAXLOC/MINLOC reductions (allreduce, reduce, scan,
 * reduce_local) with the padding of every output preset to a sentinel. */
#include <stddef.h>
#include <stdlib.h>

#include "check.h"

enum { SENTINEL = 0xA5 };

struct double_int {
  double v;
  int i;
};
struct short_int {
  short v;
  int i;
};
struct long_double_int {
  long double v;
  int i;
};
struct float_int {
  float v;
  int i;
};
struct long_int {
  long v;
  int i;
};
struct two_int {
  int v;
  int i;
};

static int rank, size;

/* The padding of the struct: between the value and the index, and after the index. A long
 * double's own unused bytes are part of its data (MPI_LONG_DOUBLE's size is its sizeof). */
static int is_padding(size_t byte, size_t value_size, size_t index_offset) {
  return (byte >= value_size && byte < index_offset) || byte >= index_offset + sizeof(int);
}

/* Size: the two fields; extent: the struct; true extent: up to the end of the index. */
static void check_geometry(MPI_Datatype type, const char* name, size_t value_size,
                           size_t index_offset, size_t extent) {
  check_context("size and extent of %s", name);
  int sz = 0, combiner = -1, ni = -1, na = -1, nt = -1;
  MPI_Aint lb = -1, ext = -1, true_lb = -1, true_ext = -1;
  CHECK_MPI(MPI_Type_size(type, &sz));
  CHECK_MPI(MPI_Type_get_extent(type, &lb, &ext));
  CHECK_MPI(MPI_Type_get_true_extent(type, &true_lb, &true_ext));
  CHECK_MPI(MPI_Type_get_envelope(type, &ni, &na, &nt, &combiner));
  CHECK(sz == (int)(value_size + sizeof(int)));
  CHECK(lb == 0 && ext == (MPI_Aint)extent);
  CHECK(true_lb == 0 && true_ext == (MPI_Aint)(index_offset + sizeof(int)));
  CHECK(combiner == MPI_COMBINER_NAMED && ni == 0 && na == 0 && nt == 0);
}

/* The bytes of element e of a pair array: value v and index i; padding left at SENTINEL. */
#define DEFINE_PAIR(id, S, V)                                                                    \
  static void fill_##id(S* p, long n, int r, int salt) {                                         \
    memset(p, 0, (size_t)n * sizeof(S));                                                         \
    for (long e = 0; e < n; ++e) {                                                               \
      p[e].v = (V)(mix3(r, (int)e, salt) % 3);                                                   \
      p[e].i = mix3(r, (int)e, salt + 1) % 50 + 100 * ((r * 5 + (int)e) % 3);                    \
    }                                                                                            \
  }                                                                                              \
  /* The MAXLOC (or MINLOC) of ranks lo..hi-1, element-wise. */                                  \
  static void expect_##id(S* want, long n, int lo, int hi, int salt, int max) {                  \
    S* x = malloc((size_t)n * sizeof(S));                                                        \
    CHECK(x != NULL);                                                                            \
    fill_##id(want, n, lo, salt);                                                                \
    for (int r = lo + 1; r < hi; ++r) {                                                          \
      fill_##id(x, n, r, salt);                                                                  \
      for (long e = 0; e < n; ++e) {                                                             \
        const int better = max ? x[e].v > want[e].v : x[e].v < want[e].v;                        \
        if (better || (x[e].v == want[e].v && x[e].i < want[e].i)) want[e] = x[e];               \
      }                                                                                          \
    }                                                                                            \
    free(x);                                                                                     \
  }                                                                                              \
  static void check_##id(const S* got, const S* want, long n, const char* what) {                \
    const unsigned char* bytes = (const unsigned char*)got;                                      \
    for (long e = 0; e < n; ++e) {                                                               \
      if (got[e].v != want[e].v || got[e].i != want[e].i) {                                      \
        fprintf(stderr, "rank %d: %s[%ld] is (%g, %d), expected (%g, %d) (%s)\n", rank, what, e, \
                (double)got[e].v, got[e].i, (double)want[e].v, want[e].i, check_context_);       \
        CHECK(0);                                                                                \
      }                                                                                          \
      for (size_t b = 0; b < sizeof(S); ++b) {                                                   \
        if (is_padding(b, sizeof(V), offsetof(S, i)))                                            \
          CHECK(bytes[(size_t)e * sizeof(S) + b] == SENTINEL);                                   \
      }                                                                                          \
    }                                                                                            \
  }                                                                                              \
  /* An output buffer: all SENTINEL, padding included. */                                        \
  static S* output_##id(long n) {                                                                \
    S* p = malloc((size_t)n * sizeof(S));                                                        \
    CHECK(p != NULL);                                                                            \
    memset(p, SENTINEL, (size_t)n * sizeof(S));                                                  \
    return p;                                                                                    \
  }                                                                                              \
  static void reductions_##id(MPI_Datatype type, long n, int salt) {                             \
    S* in = malloc((size_t)n * sizeof(S));                                                       \
    S* want = malloc((size_t)n * sizeof(S));                                                     \
    S* out = output_##id(n);                                                                     \
    CHECK(in != NULL && want != NULL);                                                           \
    fill_##id(in, n, rank, salt);                                                                \
    for (int max = 0; max < 2; ++max) {                                                          \
      const MPI_Op op = max ? MPI_MAXLOC : MPI_MINLOC;                                           \
      const char* op_name = max ? "MPI_MAXLOC" : "MPI_MINLOC";                                   \
      check_context("MPI_Allreduce %s of %ld %s", op_name, n, #S);                               \
      memset(out, SENTINEL, (size_t)n * sizeof(S));                                              \
      CHECK_MPI(MPI_Allreduce(in, out, (int)n, type, op, MPI_COMM_WORLD));                       \
      expect_##id(want, n, 0, size, salt, max);                                                  \
      check_##id(out, want, n, "recvbuf");                                                       \
                                                                                                 \
      check_context("MPI_Reduce %s of %ld %s to root %d", op_name, n, #S, size - 1);             \
      memset(out, SENTINEL, (size_t)n * sizeof(S));                                              \
      CHECK_MPI(MPI_Reduce(in, out, (int)n, type, op, size - 1, MPI_COMM_WORLD));                \
      if (rank == size - 1) check_##id(out, want, n, "recvbuf");                                 \
                                                                                                 \
      check_context("MPI_Scan %s of %ld %s", op_name, n, #S);                                    \
      memset(out, SENTINEL, (size_t)n * sizeof(S));                                              \
      CHECK_MPI(MPI_Scan(in, out, (int)n, type, op, MPI_COMM_WORLD));                            \
      expect_##id(want, n, 0, rank + 1, salt, max);                                              \
      check_##id(out, want, n, "recvbuf");                                                       \
                                                                                                 \
      check_context("MPI_Reduce_local %s of %ld %s", op_name, n, #S);                            \
      S* other = output_##id(n);                                                                 \
      fill_##id(want, n, rank + 1, salt); /* another rank's input, padding set to SENTINEL */    \
      for (long e = 0; e < n; ++e) {                                                             \
        other[e].v = want[e].v;                                                                  \
        other[e].i = want[e].i;                                                                  \
      }                                                                                          \
      CHECK_MPI(MPI_Reduce_local(in, other, (int)n, type, op));                                  \
      expect_##id(want, n, rank, rank + 2, salt, max);                                           \
      check_##id(other, want, n, "inoutbuf");                                                    \
      free(other);                                                                               \
    }                                                                                            \
    free(in);                                                                                    \
    free(want);                                                                                  \
    free(out);                                                                                   \
  }

DEFINE_PAIR(double_int, struct double_int, double)
DEFINE_PAIR(short_int, struct short_int, short)
DEFINE_PAIR(long_double_int, struct long_double_int, long double)

/* MPI_DOUBLE_INT arrays around the ring: 12 bytes per element travel, the receiver's structs
 * get value and index, their padding stays. */
static void send_receive(long n, int salt) {
  const int right = (rank + 1) % size, left = (rank - 1 + size) % size;
  check_context("MPI_Sendrecv of %ld MPI_DOUBLE_INT to rank %d", n, right);
  struct double_int* out = malloc((size_t)n * sizeof *out);
  struct double_int* in = output_double_int(n + 1); /* one more than arrives */
  struct double_int* want = malloc((size_t)(n + 1) * sizeof *want);
  CHECK(out != NULL && want != NULL);
  fill_double_int(out, n, rank, salt);
  MPI_Status st;
  CHECK_MPI(MPI_Sendrecv(out, (int)n, MPI_DOUBLE_INT, right, 7, in, (int)n + 1, MPI_DOUBLE_INT,
                         left, 7, MPI_COMM_WORLD, &st));
  fill_double_int(want, n, left, salt);
  check_double_int(in, want, n, "recvbuf");
  const unsigned char* past = (const unsigned char*)&in[n];
  for (size_t b = 0; b < sizeof in[n]; ++b) CHECK(past[b] == SENTINEL);
  int count = -1, bytes = -1, elements = -1;
  CHECK_MPI(MPI_Get_count(&st, MPI_DOUBLE_INT, &count));
  CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &bytes));
  CHECK_MPI(MPI_Get_elements(&st, MPI_DOUBLE_INT, &elements));
  CHECK(count == (int)n && bytes == (int)(n * 12) && elements == (int)(2 * n));

  /* A message that ends after the double of an element: no whole count, one more element. */
  check_context("MPI_Get_count/elements of %ld MPI_DOUBLE_INT and a double", n);
  MPI_Request req;
  CHECK_MPI(MPI_Isend(out, (int)(n * 12 + 8), MPI_BYTE, right, 8, MPI_COMM_WORLD, &req));
  CHECK_MPI(MPI_Recv(in, (int)n + 1, MPI_DOUBLE_INT, left, 8, MPI_COMM_WORLD, &st));
  CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Get_count(&st, MPI_DOUBLE_INT, &count));
  CHECK_MPI(MPI_Get_elements(&st, MPI_DOUBLE_INT, &elements));
  CHECK(count == MPI_UNDEFINED && elements == (int)(2 * n + 1));
  free(out);
  free(in);
  free(want);
}

/* MPI_Pack/MPI_Unpack of MPI_SHORT_INT: 6 bytes each, the padding of the unpacked structs kept. */
static void pack_unpack(long n, int salt) {
  check_context("MPI_Pack/MPI_Unpack of %ld MPI_SHORT_INT", n);
  struct short_int* src = malloc((size_t)n * sizeof *src);
  struct short_int* back = output_short_int(n);
  CHECK(src != NULL);
  fill_short_int(src, n, rank, salt);
  int packed_size = -1, position = 0;
  CHECK_MPI(MPI_Pack_size((int)n, MPI_SHORT_INT, MPI_COMM_WORLD, &packed_size));
  CHECK(packed_size >= (int)(n * 6));
  unsigned char* packed = malloc((size_t)packed_size);
  CHECK(packed != NULL);
  CHECK_MPI(MPI_Pack(src, (int)n, MPI_SHORT_INT, packed, packed_size, &position, MPI_COMM_WORLD));
  CHECK(position == (int)(n * 6));
  position = 0;
  CHECK_MPI(
      MPI_Unpack(packed, packed_size, &position, back, (int)n, MPI_SHORT_INT, MPI_COMM_WORLD));
  CHECK(position == (int)(n * 6));
  check_short_int(back, src, n, "outbuf");
  free(src);
  free(back);
  free(packed);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  world_ring(&rank, &size, NULL, NULL);
  errors_return();
#define GEOMETRY(type, S, V) check_geometry(type, #type, sizeof(V), offsetof(S, i), sizeof(S))
  GEOMETRY(MPI_FLOAT_INT, struct float_int, float);
  GEOMETRY(MPI_DOUBLE_INT, struct double_int, double);
  GEOMETRY(MPI_LONG_INT, struct long_int, long);
  GEOMETRY(MPI_2INT, struct two_int, int);
  GEOMETRY(MPI_SHORT_INT, struct short_int, short);
  GEOMETRY(MPI_LONG_DOUBLE_INT, struct long_double_int, long double);
  int salt = 1;
  for (long n = 1; n <= 4097; n = n * 8 + 1) {
    send_receive(n, salt++);
    pack_unpack(n, salt++);
    reductions_double_int(MPI_DOUBLE_INT, n, salt++);
    reductions_short_int(MPI_SHORT_INT, n, salt++);
    reductions_long_double_int(MPI_LONG_DOUBLE_INT, n, salt++);
  }
  MPI_Finalize();
  return 0;
}
