/* The large-count (_c) datatype functions: every constructor's _c form builds the type its int
 * form builds (size, bounds, packed bytes, envelope), sizes and extents beyond INT_MAX (where
 * MPI_Type_size answers MPI_UNDEFINED), MPI_Pack_c/MPI_Unpack_c and the external32 forms round
 * trip, MPI_Reduce_local_c reduces like MPI_Reduce_local; argument errors name the _c function. */
#include <stdlib.h>

#include "expect_error.h"

static int rank, size;

enum { kWords = 256 };
static int source[kWords];

/* a and b (each committed here and freed) describe the same type: same size, bounds, envelope
 * and the same packed bytes from `source`; `want_size` is the size worked out by hand. */
static void same_type(MPI_Datatype a, MPI_Datatype b, MPI_Count want_size, const char* what) {
  check_context("%s: the _c form against the int form", what);
  CHECK_MPI(MPI_Type_commit(&a));
  CHECK_MPI(MPI_Type_commit(&b));
  MPI_Count sa = -1, lba = -1, exa = -1, tlba = -1, texa = -1;
  MPI_Aint lbb = -1, exb = -1, tlbb = -1, texb = -1;
  int sb = -1;
  CHECK_MPI(MPI_Type_size_c(a, &sa));
  CHECK_MPI(MPI_Type_size(b, &sb));
  CHECK(sa == want_size && sb == want_size);
  CHECK_MPI(MPI_Type_get_extent_c(a, &lba, &exa));
  CHECK_MPI(MPI_Type_get_extent(b, &lbb, &exb));
  CHECK(lba == lbb && exa == exb);
  CHECK_MPI(MPI_Type_get_true_extent_c(a, &tlba, &texa));
  CHECK_MPI(MPI_Type_get_true_extent(b, &tlbb, &texb));
  CHECK(tlba == tlbb && texa == texb);
  int ni[2], na[2], nt[2], comb[2];
  CHECK_MPI(MPI_Type_get_envelope(a, &ni[0], &na[0], &nt[0], &comb[0]));
  CHECK_MPI(MPI_Type_get_envelope(b, &ni[1], &na[1], &nt[1], &comb[1]));
  CHECK(ni[0] == ni[1] && na[0] == na[1] && nt[0] == nt[1] && comb[0] == comb[1]);
  int ints[2][32];
  MPI_Aint aints[2][32];
  MPI_Datatype types[2][4];
  CHECK(ni[0] <= 32 && na[0] <= 32 && nt[0] <= 4);
  CHECK_MPI(MPI_Type_get_contents(a, ni[0], na[0], nt[0], ints[0], aints[0], types[0]));
  CHECK_MPI(MPI_Type_get_contents(b, ni[1], na[1], nt[1], ints[1], aints[1], types[1]));
  check_ints(ints[0], ints[1], ni[0], "array_of_integers");
  for (int i = 0; i < na[0]; ++i) CHECK(aints[0][i] == aints[1][i]);
  /* two elements, packed through the int and the _c forms, give the same bytes */
  MPI_Count need = -1;
  int need_int = -1;
  CHECK_MPI(MPI_Pack_size_c(2, a, MPI_COMM_WORLD, &need));
  CHECK_MPI(MPI_Pack_size(2, b, MPI_COMM_WORLD, &need_int));
  CHECK(need == 2 * want_size && need_int == need);
  char pa[4096], pb[4096];
  CHECK(need <= (MPI_Count)sizeof pa);
  MPI_Count pos_a = 0;
  int pos_b = 0;
  CHECK_MPI(MPI_Pack_c(source + 64, 2, a, pa, sizeof pa, &pos_a, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Pack(source + 64, 2, b, pb, sizeof pb, &pos_b, MPI_COMM_WORLD));
  CHECK(pos_a == need && pos_b == need && memcmp(pa, pb, (size_t)need) == 0);
  CHECK_MPI(MPI_Type_free(&a));
  CHECK_MPI(MPI_Type_free(&b));
}

static void constructors(void) {
  MPI_Datatype a, b;
  CHECK_MPI(MPI_Type_contiguous_c(5, MPI_INT, &a));
  CHECK_MPI(MPI_Type_contiguous(5, MPI_INT, &b));
  same_type(a, b, 20, "MPI_Type_contiguous_c");
  CHECK_MPI(MPI_Type_vector_c(3, 2, 4, MPI_INT, &a));
  CHECK_MPI(MPI_Type_vector(3, 2, 4, MPI_INT, &b));
  same_type(a, b, 24, "MPI_Type_vector_c");
  CHECK_MPI(MPI_Type_create_hvector_c(3, 2, 20, MPI_INT, &a));
  CHECK_MPI(MPI_Type_create_hvector(3, 2, 20, MPI_INT, &b));
  same_type(a, b, 24, "MPI_Type_create_hvector_c");
  {
    const MPI_Count lens_c[3] = {2, 1, 3}, displs_c[3] = {5, 0, 9};
    const int lens[3] = {2, 1, 3}, displs[3] = {5, 0, 9};
    CHECK_MPI(MPI_Type_indexed_c(3, lens_c, displs_c, MPI_INT, &a));
    CHECK_MPI(MPI_Type_indexed(3, lens, displs, MPI_INT, &b));
    same_type(a, b, 24, "MPI_Type_indexed_c");
    const MPI_Count hdispls_c[3] = {8, 40, -4};
    const MPI_Aint hdispls[3] = {8, 40, -4};
    CHECK_MPI(MPI_Type_create_hindexed_c(3, lens_c, hdispls_c, MPI_INT, &a));
    CHECK_MPI(MPI_Type_create_hindexed(3, lens, hdispls, MPI_INT, &b));
    same_type(a, b, 24, "MPI_Type_create_hindexed_c");
    CHECK_MPI(MPI_Type_create_indexed_block_c(3, 2, displs_c, MPI_INT, &a));
    CHECK_MPI(MPI_Type_create_indexed_block(3, 2, displs, MPI_INT, &b));
    same_type(a, b, 24, "MPI_Type_create_indexed_block_c");
    const MPI_Count bdispls_c[2] = {0, 24};
    const MPI_Aint bdispls[2] = {0, 24};
    CHECK_MPI(MPI_Type_create_hindexed_block_c(2, 3, bdispls_c, MPI_INT, &a));
    CHECK_MPI(MPI_Type_create_hindexed_block(2, 3, bdispls, MPI_INT, &b));
    same_type(a, b, 24, "MPI_Type_create_hindexed_block_c");
  }
  {
    const MPI_Count lens_c[2] = {1, 2}, displs_c[2] = {0, 8};
    const int lens[2] = {1, 2};
    const MPI_Aint displs[2] = {0, 8};
    const MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE};
    CHECK_MPI(MPI_Type_create_struct_c(2, lens_c, displs_c, types, &a));
    CHECK_MPI(MPI_Type_create_struct(2, lens, displs, types, &b));
    same_type(a, b, 20, "MPI_Type_create_struct_c");
  }
  {
    const MPI_Count sizes_c[2] = {6, 5}, subsizes_c[2] = {2, 3}, starts_c[2] = {1, 2};
    const int sizes[2] = {6, 5}, subsizes[2] = {2, 3}, starts[2] = {1, 2};
    CHECK_MPI(
        MPI_Type_create_subarray_c(2, sizes_c, subsizes_c, starts_c, MPI_ORDER_C, MPI_INT, &a));
    CHECK_MPI(MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &b));
    same_type(a, b, 24, "MPI_Type_create_subarray_c");
  }
  {
    /* this rank's block of 3 × size ints, and its cyclic share of 2 × size + 1 ints */
    const MPI_Count gsizes_c[1] = {3 * size}, cyclic_c[1] = {2 * size + 1};
    const int gsizes[1] = {3 * size}, cyclic[1] = {2 * size + 1};
    const int block[1] = {MPI_DISTRIBUTE_BLOCK}, cycle[1] = {MPI_DISTRIBUTE_CYCLIC};
    const int dflt[1] = {MPI_DISTRIBUTE_DFLT_DARG}, procs[1] = {size};
    CHECK_MPI(MPI_Type_create_darray_c(size, rank, 1, gsizes_c, block, dflt, procs, MPI_ORDER_C,
                                       MPI_INT, &a));
    CHECK_MPI(MPI_Type_create_darray(size, rank, 1, gsizes, block, dflt, procs, MPI_ORDER_C,
                                     MPI_INT, &b));
    same_type(a, b, 12, "MPI_Type_create_darray_c (block)");
    CHECK_MPI(MPI_Type_create_darray_c(size, rank, 1, cyclic_c, cycle, dflt, procs, MPI_ORDER_C,
                                       MPI_INT, &a));
    CHECK_MPI(MPI_Type_create_darray(size, rank, 1, cyclic, cycle, dflt, procs, MPI_ORDER_C,
                                     MPI_INT, &b));
    same_type(a, b, rank == 0 ? 12 : 8, "MPI_Type_create_darray_c (cyclic)");
  }
  CHECK_MPI(MPI_Type_create_resized_c(MPI_INT, -4, 16, &a));
  CHECK_MPI(MPI_Type_create_resized(MPI_INT, -4, 16, &b));
  same_type(a, b, 4, "MPI_Type_create_resized_c");
}

/* Sizes and extents no int holds: the types are descriptions only, nothing that large moves. */
static void beyond_int(void) {
  check_context("types beyond INT_MAX bytes");
  const MPI_Count big = 3000000000LL;
  MPI_Datatype t;
  CHECK_MPI(MPI_Type_contiguous_c(big, MPI_BYTE, &t));
  CHECK_MPI(MPI_Type_commit(&t));
  MPI_Count s = -1, lb = -1, extent = -1;
  int s_int = 0;
  CHECK_MPI(MPI_Type_size_c(t, &s));
  CHECK(s == big);
  CHECK_MPI(MPI_Type_size(t, &s_int));
  CHECK(s_int == MPI_UNDEFINED);
  CHECK_MPI(MPI_Type_get_extent_c(t, &lb, &extent));
  CHECK(lb == 0 && extent == big);
  CHECK_MPI(MPI_Type_get_true_extent_c(t, &lb, &extent));
  CHECK(lb == 0 && extent == big);
  CHECK_MPI(MPI_Pack_size_c(2, t, MPI_COMM_WORLD, &s));
  CHECK(s == 2 * big);
  CHECK_MPI(MPI_Pack_external_size_c("external32", 1, t, &s));
  CHECK(s == big);
  EXPECT_ERROR(MPI_Pack_size(1, t, MPI_COMM_WORLD, &s_int), MPI_ERR_COUNT, "MPI_Pack_size",
               "3000000000");
  int ni, na, nt, combiner;
  EXPECT_ERROR(MPI_Type_get_envelope(t, &ni, &na, &nt, &combiner), MPI_ERR_VALUE_TOO_LARGE,
               "MPI_Type_get_envelope", "large-count");
  CHECK_MPI(MPI_Type_free(&t));
  /* a stride of 3e9 ints between two ints: an extent of 12e9 + 4 bytes, a size of 8 */
  CHECK_MPI(MPI_Type_vector_c(2, 1, big, MPI_INT, &t));
  CHECK_MPI(MPI_Type_size_c(t, &s));
  CHECK_MPI(MPI_Type_get_extent_c(t, &lb, &extent));
  CHECK(s == 8 && lb == 0 && extent == 4 * big + 4);
  CHECK_MPI(MPI_Type_size(t, &s_int));
  CHECK(s_int == 8);
  MPI_Aint lb_a = -1, extent_a = -1;
  CHECK_MPI(MPI_Type_get_extent(t, &lb_a, &extent_a)); /* MPI_Aint holds it */
  CHECK(extent_a == 4 * big + 4);
  CHECK_MPI(MPI_Type_free(&t));
  /* an hvector stride of -5e9 bytes: the lower bound lies below it */
  CHECK_MPI(MPI_Type_create_hvector_c(2, 1, -5000000000LL, MPI_DOUBLE, &t));
  CHECK_MPI(MPI_Type_get_extent_c(t, &lb, &extent));
  CHECK(lb == -5000000000LL && extent == 5000000008LL);
  CHECK_MPI(MPI_Type_free(&t));
}

/* Whether int k of a buffer is data of the first `elements` elements of every_third below (ten
 * ints three apart: an extent of 28 ints). */
static int in_every_third(int k, int elements) { return k < 28 * elements && k % 28 % 3 == 0; }

static void pack_round_trip(void) {
  check_context("MPI_Pack_c/MPI_Unpack_c and the external32 forms round trip");
  MPI_Datatype every_third;
  CHECK_MPI(MPI_Type_vector_c(10, 1, 3, MPI_INT, &every_third));
  CHECK_MPI(MPI_Type_commit(&every_third));
  char packed[1024];
  const int header = 1000 + rank;
  MPI_Count position = 0;
  CHECK_MPI(MPI_Pack_c(&header, 1, MPI_INT, packed, sizeof packed, &position, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Pack_c(source, 3, every_third, packed, sizeof packed, &position, MPI_COMM_WORLD));
  CHECK(position == 4 + 3 * 40);
  int out[90], got_header = -1;
  for (int k = 0; k < 90; ++k) out[k] = -1;
  MPI_Count in = 0;
  CHECK_MPI(MPI_Unpack_c(packed, position, &in, &got_header, 1, MPI_INT, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Unpack_c(packed, position, &in, out, 3, every_third, MPI_COMM_WORLD));
  CHECK(in == position && got_header == header);
  for (int k = 0; k < 90; ++k) CHECK(out[k] == (in_every_third(k, 3) ? source[k] : -1));

  /* external32 is big-endian: the same bytes as the int form writes, and back again */
  char ext_c[512], ext[512];
  MPI_Count at_c = 0;
  MPI_Aint at = 0;
  CHECK_MPI(MPI_Pack_external_c("external32", source, 2, every_third, ext_c, sizeof ext_c, &at_c));
  CHECK_MPI(MPI_Pack_external("external32", source, 2, every_third, ext, sizeof ext, &at));
  CHECK(at_c == 80 && at == 80 && memcmp(ext, ext_c, 80) == 0);
  CHECK((unsigned char)ext_c[3] == (unsigned)(source[0] & 0xff));
  for (int k = 0; k < 90; ++k) out[k] = -1;
  at_c = 0;
  CHECK_MPI(MPI_Unpack_external_c("external32", ext_c, 80, &at_c, out, 2, every_third));
  CHECK(at_c == 80);
  for (int k = 0; k < 90; ++k) CHECK(out[k] == (in_every_third(k, 2) ? source[k] : -1));
  MPI_Count ext_size = -1;
  CHECK_MPI(MPI_Pack_external_size_c("external32", 2, every_third, &ext_size));
  CHECK(ext_size == 80);
  CHECK_MPI(MPI_Type_free(&every_third));
}

static void reduce_local(void) {
  check_context("MPI_Reduce_local_c");
  enum { n = 12 };
  int in[n], inout[n], want[n];
  for (int k = 0; k < n; ++k) {
    in[k] = source[k] + rank;
    inout[k] = want[k] = source[k + 100];
  }
  CHECK_MPI(MPI_Reduce_local(in, want, n, MPI_INT, MPI_SUM));
  CHECK_MPI(MPI_Reduce_local_c(in, inout, n, MPI_INT, MPI_SUM));
  check_ints(inout, want, n, "MPI_Reduce_local_c(MPI_SUM)");
  /* through a strided type: the gaps stay as they were */
  double a[2 * n], b[2 * n];
  for (int k = 0; k < 2 * n; ++k) {
    a[k] = k % 5;
    b[k] = 2 - k % 3;
  }
  MPI_Datatype pairs;
  CHECK_MPI(MPI_Type_vector_c(n, 1, 2, MPI_DOUBLE, &pairs));
  CHECK_MPI(MPI_Type_commit(&pairs));
  CHECK_MPI(MPI_Reduce_local_c(a, b, 1, pairs, MPI_MAX));
  for (int k = 0; k < 2 * n; ++k)
    CHECK(b[k] == (k % 2 == 0 ? (k % 5 > 2 - k % 3 ? k % 5 : 2 - k % 3) : 2 - k % 3));
  CHECK_MPI(MPI_Type_free(&pairs));
}

static void errors(void) {
  check_context("argument errors of the _c datatype functions");
  MPI_Datatype t = MPI_DATATYPE_NULL;
  const MPI_Count lens[2] = {1, -2}, displs[2] = {0, 4};
  EXPECT_ERROR(MPI_Type_contiguous_c(-1, MPI_INT, &t), MPI_ERR_COUNT, "MPI_Type_contiguous_c",
               "count=-1");
  EXPECT_ERROR(MPI_Type_vector_c(2, -3000000000LL, 1, MPI_INT, &t), MPI_ERR_COUNT,
               "MPI_Type_vector_c", "blocklength=-3000000000");
  EXPECT_ERROR(MPI_Type_create_hvector_c(2, 1, 8, MPI_DATATYPE_NULL, &t), MPI_ERR_TYPE,
               "MPI_Type_create_hvector_c", "oldtype");
  EXPECT_ERROR(MPI_Type_indexed_c(2, lens, displs, MPI_INT, &t), MPI_ERR_COUNT,
               "MPI_Type_indexed_c", "array_of_blocklengths[1]=-2");
  EXPECT_ERROR(MPI_Type_create_hindexed_c(2, lens, NULL, MPI_INT, &t), MPI_ERR_ARG,
               "MPI_Type_create_hindexed_c", "array_of_displacements=NULL");
  EXPECT_ERROR(MPI_Type_create_indexed_block_c(2, -1, displs, MPI_INT, &t), MPI_ERR_COUNT,
               "MPI_Type_create_indexed_block_c", "blocklength=-1");
  EXPECT_ERROR(MPI_Type_create_hindexed_block_c(2, 1, displs, MPI_INT, NULL), MPI_ERR_ARG,
               "MPI_Type_create_hindexed_block_c", "newtype=NULL");
  EXPECT_ERROR(MPI_Type_create_struct_c(2, displs, displs, NULL, &t), MPI_ERR_ARG,
               "MPI_Type_create_struct_c", "array_of_types=NULL");
  const MPI_Count sizes[1] = {4}, subsizes[1] = {7}, starts[1] = {0};
  EXPECT_ERROR(MPI_Type_create_subarray_c(1, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &t),
               MPI_ERR_ARG, "MPI_Type_create_subarray_c", "array_of_subsizes[0]=7");
  const int block[1] = {MPI_DISTRIBUTE_BLOCK}, dflt[1] = {MPI_DISTRIBUTE_DFLT_DARG};
  const int procs[1] = {size};
  const MPI_Count gsizes[1] = {-10};
  EXPECT_ERROR(
      MPI_Type_create_darray_c(size, rank, 1, gsizes, block, dflt, procs, MPI_ORDER_C, MPI_INT, &t),
      MPI_ERR_ARG, "MPI_Type_create_darray_c", "array_of_gsizes[0]=-10");
  EXPECT_ERROR(MPI_Type_create_resized_c(MPI_DATATYPE_NULL, 0, 8, &t), MPI_ERR_TYPE,
               "MPI_Type_create_resized_c", "oldtype");
  CHECK(t == MPI_DATATYPE_NULL);
  MPI_Count c = 0, c2 = 0;
  EXPECT_ERROR(MPI_Type_size_c(MPI_INT, NULL), MPI_ERR_ARG, "MPI_Type_size_c", "size=NULL");
  EXPECT_ERROR(MPI_Type_get_extent_c(MPI_DATATYPE_NULL, &c, &c2), MPI_ERR_TYPE,
               "MPI_Type_get_extent_c", "datatype=MPI_DATATYPE_NULL");
  EXPECT_ERROR(MPI_Type_get_true_extent_c(MPI_INT, &c, NULL), MPI_ERR_ARG,
               "MPI_Type_get_true_extent_c", "true_extent=NULL");
  char packed[64];
  int ints[4] = {1, 2, 3, 4};
  MPI_Count position = 0;
  EXPECT_ERROR(MPI_Pack_c(ints, -4, MPI_INT, packed, 64, &position, MPI_COMM_WORLD), MPI_ERR_COUNT,
               "MPI_Pack_c", "incount=-4");
  EXPECT_ERROR(MPI_Pack_c(ints, 4, MPI_INT, packed, 10, &position, MPI_COMM_WORLD),
               MPI_ERR_TRUNCATE, "MPI_Pack_c", "outsize=10");
  position = 70;
  EXPECT_ERROR(MPI_Unpack_c(packed, 64, &position, ints, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_ARG,
               "MPI_Unpack_c", "position=70");
  EXPECT_ERROR(MPI_Pack_size_c(1, MPI_INT, MPI_COMM_NULL, &c), MPI_ERR_COMM, "MPI_Pack_size_c",
               "comm");
  position = 0;
  EXPECT_ERROR(MPI_Pack_external_c("native", ints, 1, MPI_INT, packed, 64, &position), MPI_ERR_ARG,
               "MPI_Pack_external_c", "datarep=\"native\"");
  EXPECT_ERROR(MPI_Unpack_external_c("external32", packed, 64, &position, ints, -1, MPI_INT),
               MPI_ERR_COUNT, "MPI_Unpack_external_c", "outcount=-1");
  EXPECT_ERROR(MPI_Pack_external_size_c("external32", 1, MPI_INT, NULL), MPI_ERR_ARG,
               "MPI_Pack_external_size_c", "size=NULL");
  EXPECT_ERROR(MPI_Reduce_local_c(ints, ints, -2, MPI_INT, MPI_SUM), MPI_ERR_COUNT,
               "MPI_Reduce_local_c", "count=-2");
  EXPECT_ERROR(MPI_Reduce_local_c(NULL, ints, 4, MPI_INT, MPI_SUM), MPI_ERR_BUFFER,
               "MPI_Reduce_local_c", "inbuf");
  EXPECT_ERROR(MPI_Reduce_local_c(ints, ints, 4, MPI_DATATYPE_NULL, MPI_SUM), MPI_ERR_TYPE,
               "MPI_Reduce_local_c", "datatype");
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int k = 0; k < kWords; ++k) source[k] = mix3(k, 7, 11) % 100000;
  constructors();
  beyond_int();
  pack_round_trip();
  reduce_local();
  errors();
  MPI_Finalize();
  return 0;
}
