/* Datatype queries through the C API: envelopes and contents of every combiner (derived
 * contents come back as new handles to free), names of predefined and derived types, extents
 * and their _x forms, MPI_Type_match_size, MPI_Type_dup keeping attributes. */
#include "check.h"

static void check_envelope(MPI_Datatype t, int combiner, int ni, int na, int nd) {
  int got_ni = -1, got_na = -1, got_nd = -1, got = -1;
  CHECK_MPI(MPI_Type_get_envelope(t, &got_ni, &got_na, &got_nd, &got));
  CHECK(got == combiner && got_ni == ni && got_na == na && got_nd == nd);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  int ints[32];
  MPI_Aint aints[8];
  MPI_Datatype types[8];

  check_context("predefined: NAMED, MPI names, committing them is allowed");
  check_envelope(MPI_INT, MPI_COMBINER_NAMED, 0, 0, 0);
  char name[MPI_MAX_OBJECT_NAME];
  int len = 0;
  CHECK_MPI(MPI_Type_get_name(MPI_DOUBLE, name, &len));
  CHECK(strcmp(name, "MPI_DOUBLE") == 0 && len == 10);
  MPI_Datatype d = MPI_DOUBLE;
  CHECK_MPI(MPI_Type_commit(&d));

  check_context("vector: integers and the old type");
  MPI_Datatype vec;
  CHECK_MPI(MPI_Type_vector(3, 2, 5, MPI_FLOAT, &vec));
  check_envelope(vec, MPI_COMBINER_VECTOR, 3, 0, 1);
  CHECK_MPI(MPI_Type_get_contents(vec, 32, 8, 8, ints, aints, types));
  CHECK(ints[0] == 3 && ints[1] == 2 && ints[2] == 5 && types[0] == MPI_FLOAT);
  CHECK_MPI(MPI_Type_get_name(vec, name, &len));
  CHECK(len == 0 && name[0] == '\0');
  CHECK_MPI(MPI_Type_set_name(vec, "three pairs"));
  CHECK_MPI(MPI_Type_get_name(vec, name, &len));
  CHECK(strcmp(name, "three pairs") == 0 && len == 11);

  check_context("struct: a derived part comes back as a new handle");
  const int lens[2] = {1, 2};
  const MPI_Aint displs[2] = {0, 64};
  const MPI_Datatype parts[2] = {vec, MPI_CHAR};
  MPI_Datatype rec;
  CHECK_MPI(MPI_Type_create_struct(2, lens, displs, parts, &rec));
  check_envelope(rec, MPI_COMBINER_STRUCT, 3, 2, 2);
  CHECK_MPI(MPI_Type_get_contents(rec, 32, 8, 8, ints, aints, types));
  CHECK(ints[0] == 2 && ints[1] == 1 && ints[2] == 2 && aints[0] == 0 && aints[1] == 64);
  CHECK(types[1] == MPI_CHAR);
  check_envelope(types[0], MPI_COMBINER_VECTOR, 3, 0, 1);
  int size = 0;
  CHECK_MPI(MPI_Type_size(types[0], &size));
  CHECK(size == 24);
  CHECK_MPI(MPI_Type_free(&types[0]));
  MPI_Count size_x = 0, lb_x = -1, extent_x = 0;
  CHECK_MPI(MPI_Type_size_x(rec, &size_x));
  CHECK(size_x == 26);
  CHECK_MPI(MPI_Type_get_extent_x(rec, &lb_x, &extent_x));
  CHECK(lb_x == 0 && extent_x == 68); /* 66 rounded up to the floats' alignment of 4 */
  CHECK_MPI(MPI_Type_get_true_extent_x(rec, &lb_x, &extent_x));
  CHECK(lb_x == 0 && extent_x == 66);

  check_context("subarray, darray, resized, dup and the hvector/hindexed families");
  const int sizes[3] = {4, 5, 6}, subsizes[3] = {2, 2, 2}, starts[3] = {1, 1, 1};
  MPI_Datatype sub;
  CHECK_MPI(MPI_Type_create_subarray(3, sizes, subsizes, starts, MPI_ORDER_FORTRAN, MPI_INT, &sub));
  check_envelope(sub, MPI_COMBINER_SUBARRAY, 11, 0, 1);
  CHECK_MPI(MPI_Type_get_contents(sub, 32, 8, 8, ints, aints, types));
  CHECK(ints[0] == 3 && ints[4] == 2 && ints[10] == MPI_ORDER_FORTRAN);
  const int g[2] = {6, 6}, dist[2] = {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_BLOCK};
  const int dargs[2] = {2, MPI_DISTRIBUTE_DFLT_DARG}, ps[2] = {1, 1};
  MPI_Datatype dar;
  CHECK_MPI(MPI_Type_create_darray(1, 0, 2, g, dist, dargs, ps, MPI_ORDER_C, MPI_INT, &dar));
  check_envelope(dar, MPI_COMBINER_DARRAY, 12, 0, 1);
  CHECK_MPI(MPI_Type_size(dar, &size));
  CHECK(size == 36 * 4);
  MPI_Datatype res;
  CHECK_MPI(MPI_Type_create_resized(MPI_INT, -8, 32, &res));
  check_envelope(res, MPI_COMBINER_RESIZED, 0, 2, 1);
  CHECK_MPI(MPI_Type_get_contents(res, 0, 8, 8, ints, aints, types));
  CHECK(aints[0] == -8 && aints[1] == 32 && types[0] == MPI_INT);
  MPI_Aint lb = 0, extent = 0;
  CHECK_MPI(MPI_Type_get_extent(res, &lb, &extent));
  CHECK(lb == -8 && extent == 32);
  CHECK_MPI(MPI_Type_get_true_extent(res, &lb, &extent));
  CHECK(lb == 0 && extent == 4);
  MPI_Datatype dup;
  CHECK_MPI(MPI_Type_dup(MPI_INT, &dup));
  check_envelope(dup, MPI_COMBINER_DUP, 0, 0, 1);
  MPI_Datatype hv, hi, hib, ib;
  CHECK_MPI(MPI_Type_create_hvector(2, 1, 16, MPI_INT, &hv));
  check_envelope(hv, MPI_COMBINER_HVECTOR, 2, 1, 1);
  const int two[2] = {1, 1};
  CHECK_MPI(MPI_Type_create_hindexed(2, two, displs, MPI_INT, &hi));
  check_envelope(hi, MPI_COMBINER_HINDEXED, 3, 2, 1);
  CHECK_MPI(MPI_Type_create_hindexed_block(2, 3, displs, MPI_INT, &hib));
  check_envelope(hib, MPI_COMBINER_HINDEXED_BLOCK, 2, 2, 1);
  const int at[2] = {0, 7};
  CHECK_MPI(MPI_Type_create_indexed_block(2, 3, at, MPI_INT, &ib));
  check_envelope(ib, MPI_COMBINER_INDEXED_BLOCK, 4, 0, 1);

  check_context("MPI_Type_match_size");
  MPI_Datatype matched;
  CHECK_MPI(MPI_Type_match_size(MPI_TYPECLASS_REAL, 8, &matched));
  CHECK_MPI(MPI_Type_size(matched, &size));
  CHECK(size == 8);
  CHECK_MPI(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 4, &matched));
  CHECK_MPI(MPI_Type_size(matched, &size));
  CHECK(size == 4);
  CHECK_MPI(MPI_Type_match_size(MPI_TYPECLASS_COMPLEX, 16, &matched));
  CHECK_MPI(MPI_Type_size(matched, &size));
  CHECK(size == 16);

  check_context("MPI_Type_dup copies attributes");
  int keyval = MPI_KEYVAL_INVALID;
  CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &keyval, NULL));
  static int payload = 7;
  CHECK_MPI(MPI_Type_set_attr(vec, keyval, &payload));
  MPI_Datatype vec2;
  CHECK_MPI(MPI_Type_dup(vec, &vec2));
  int* found = NULL;
  int flag = 0;
  CHECK_MPI(MPI_Type_get_attr(vec2, keyval, &found, &flag));
  CHECK(flag && found == &payload);
  CHECK_MPI(MPI_Type_free(&vec2));
  CHECK_MPI(MPI_Type_free_keyval(&keyval));

  MPI_Datatype all[] = {vec, rec, sub, dar, res, dup, hv, hi, hib, ib};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) CHECK_MPI(MPI_Type_free(&all[i]));
  MPI_Finalize();
  return 0;
}
