/* Datatype errors under MPI_ERRORS_RETURN: the right class, and (under Weft) a message naming the
 * function, the argument and the value: uncommitted and freed types in communication, bad
 * constructor arguments, freeing a predefined type, MPI_Unpack/MPI_Pack overflow, bad datarep. */
#include "check.h"

static void expect(int rc, int cls, const char* function, const char* fragment) {
  if (rc == MPI_SUCCESS)
    fprintf(stderr, "%s (%s) succeeded, expected error class %d\n", function, fragment, cls);
  CHECK(rc != MPI_SUCCESS);
  if (error_class(rc) != cls) {
    fprintf(stderr, "%s: got class %d, expected %d\n", function, error_class(rc), cls);
    CHECK(0);
  }
#ifdef WEFT_MPI
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  if (strstr(text, function) == NULL || strstr(text, fragment) == NULL) {
    fprintf(stderr, "error string '%s' lacks '%s' or '%s'\n", text, function, fragment);
    CHECK(0);
  }
#else
  (void)fragment;
#endif
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  int rank, size, left, right;
  world_ring(&rank, &size, &left, &right);
  int buf[16] = {0};
  MPI_Datatype t, other;

  check_context("communication with an uncommitted type");
  CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_INT, &t));
  expect(MPI_Send(buf, 1, t, right, 0, MPI_COMM_WORLD), MPI_ERR_TYPE, "MPI_Send", "not committed");
  expect(MPI_Irecv(buf, 1, t, left, 0, MPI_COMM_WORLD, &(MPI_Request){0}), MPI_ERR_TYPE,
         "MPI_Irecv", "datatype=");
  expect(MPI_Sendrecv(buf, 1, MPI_INT, right, 0, buf, 1, t, left, 0, MPI_COMM_WORLD,
                      MPI_STATUS_IGNORE),
         MPI_ERR_TYPE, "MPI_Sendrecv", "recvtype=");
  int position = 0;
  char packed[64];
  expect(MPI_Pack(buf, 1, t, packed, 64, &position, MPI_COMM_WORLD), MPI_ERR_TYPE, "MPI_Pack",
         "not committed");

  check_context("communication with a freed type");
  CHECK_MPI(MPI_Type_commit(&t));
  MPI_Datatype stale = t;
  CHECK_MPI(MPI_Type_free(&t));
  CHECK(t == MPI_DATATYPE_NULL);
#ifdef WEFT_MPI
  /* Weft's handles are checked by value, and a freed one goes to the next new type only, so
   * here, with none made since, a stale one is an error. */
  expect(MPI_Send(buf, 1, stale, right, 0, MPI_COMM_WORLD), MPI_ERR_TYPE, "MPI_Send", "freed");
  expect(MPI_Type_free(&stale), MPI_ERR_TYPE, "MPI_Type_free", "datatype=");
#endif

  check_context("bad constructor arguments");
  expect(MPI_Type_vector(-1, 1, 2, MPI_INT, &t), MPI_ERR_COUNT, "MPI_Type_vector", "count=-1");
  expect(MPI_Type_vector(2, -3, 2, MPI_INT, &t), MPI_ERR_COUNT, "MPI_Type_vector",
         "blocklength=-3");
  expect(MPI_Type_contiguous(2, MPI_DATATYPE_NULL, &t), MPI_ERR_TYPE, "MPI_Type_contiguous",
         "oldtype=MPI_DATATYPE_NULL");
  const int lens[2] = {1, -1}, displs[2] = {0, 4};
  expect(MPI_Type_indexed(2, lens, displs, MPI_INT, &t), MPI_ERR_COUNT, "MPI_Type_indexed",
         "array_of_blocklengths[1]=-1");
  const MPI_Aint at[2] = {0, 8};
  const MPI_Datatype types[2] = {MPI_INT, MPI_DATATYPE_NULL};
  const int ones[2] = {1, 1};
  expect(MPI_Type_create_struct(2, ones, at, types, &t), MPI_ERR_TYPE, "MPI_Type_create_struct",
         "array_of_types[1]=MPI_DATATYPE_NULL");
  const int sizes[2] = {4, 4}, subsizes[2] = {2, 5}, starts[2] = {0, 0};
  expect(MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &t),
         MPI_ERR_ARG, "MPI_Type_create_subarray", "array_of_subsizes[1]=5");
  const int g[1] = {8}, d[1] = {MPI_DISTRIBUTE_BLOCK}, a[1] = {MPI_DISTRIBUTE_DFLT_DARG},
            p[1] = {3};
  expect(MPI_Type_create_darray(2, 0, 1, g, d, a, p, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
         "MPI_Type_create_darray", "size=2");
  expect(MPI_Type_contiguous(1, MPI_INT, NULL), MPI_ERR_ARG, "MPI_Type_contiguous", "newtype");

  check_context("predefined types cannot be freed or decoded");
  MPI_Datatype predefined = MPI_INT;
  expect(MPI_Type_free(&predefined), MPI_ERR_TYPE, "MPI_Type_free", "MPI_INT");
  CHECK(predefined == MPI_INT);
  int ints[4];
  MPI_Aint aints[4];
  MPI_Datatype dts[4];
  expect(MPI_Type_get_contents(MPI_DOUBLE, 4, 4, 4, ints, aints, dts), MPI_ERR_TYPE,
         "MPI_Type_get_contents", "MPI_DOUBLE");

  check_context("MPI_Unpack and MPI_Pack overflow");
  CHECK_MPI(MPI_Type_contiguous(4, MPI_INT, &other));
  CHECK_MPI(MPI_Type_commit(&other));
  position = 0;
  CHECK_MPI(MPI_Pack(buf, 1, other, packed, 64, &position, MPI_COMM_WORLD));
  CHECK(position == 16);
  position = 0;
  expect(MPI_Unpack(packed, 16, &position, buf, 2, other, MPI_COMM_WORLD), MPI_ERR_TRUNCATE,
         "MPI_Unpack", "insize=16");
  position = 60;
  expect(MPI_Pack(buf, 1, other, packed, 64, &position, MPI_COMM_WORLD), MPI_ERR_TRUNCATE,
         "MPI_Pack", "outsize=64");
  position = 0;
  expect(MPI_Unpack(packed, 16, &position, buf, -1, other, MPI_COMM_WORLD), MPI_ERR_COUNT,
         "MPI_Unpack", "outcount=-1");
  MPI_Aint ext_position = 0;
  expect(MPI_Pack_external("native", buf, 1, MPI_INT, packed, 64, &ext_position), MPI_ERR_ARG,
         "MPI_Pack_external", "datarep=\"native\"");
  expect(MPI_Type_match_size(MPI_TYPECLASS_REAL, 3, &t), MPI_ERR_ARG, "MPI_Type_match_size",
         "size=3");
  CHECK_MPI(MPI_Type_free(&other));

  /* Everything still works after the errors. */
  int v = rank;
  CHECK_MPI(MPI_Sendrecv_replace(&v, 1, MPI_INT, right, 1, left, 1, MPI_COMM_WORLD,
                                 MPI_STATUS_IGNORE));
  CHECK(v == left);
  MPI_Finalize();
  return 0;
}
