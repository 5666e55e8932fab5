/* The small calls MPI 4.1 added, on real data: the status fields through MPI_Status_get/set_source,
 * _tag and _error (after a real receive, and as a generalized request's query fills them);
 * MPI_Type_get_value_index giving the predefined pair types, which MPI_MAXLOC then reduces across
 * the ranks; MPI_Get_version and the MPI_VERSION macros saying 4.1; the MPI_ERR_ERRHANDLER class.
 * Every rank receives from its left neighbour. */
#include <float.h>

#include "expect_error.h"

static void status_fields(int rank, int left, int right) {
  check_context("MPI_Status_get_source/_tag/_error after a receive from rank %d", left);
  const int out = mix3(rank, 7, 0);
  int in = -1;
  MPI_Status st;
  CHECK_MPI(MPI_Sendrecv(&out, 1, MPI_INT, right, 40 + rank, &in, 1, MPI_INT, left, MPI_ANY_TAG,
                         MPI_COMM_WORLD, &st));
  int source = -9, tag = -9, error = -9, count = -1;
  CHECK_MPI(MPI_Status_get_source(&st, &source));
  CHECK_MPI(MPI_Status_get_tag(&st, &tag));
  CHECK_MPI(MPI_Status_get_error(&st, &error));
  CHECK(source == left && tag == 40 + left && in == mix3(left, 7, 0));
  CHECK(source == st.MPI_SOURCE && tag == st.MPI_TAG && error == st.MPI_ERROR);

  check_context("MPI_Status_set_source/_tag/_error change those fields only");
  CHECK_MPI(MPI_Status_set_source(&st, 12345));
  CHECK_MPI(MPI_Status_set_tag(&st, 678));
  CHECK_MPI(MPI_Status_set_error(&st, MPI_ERR_TRUNCATE));
  CHECK(st.MPI_SOURCE == 12345 && st.MPI_TAG == 678 && st.MPI_ERROR == MPI_ERR_TRUNCATE);
  CHECK_MPI(MPI_Status_get_error(&st, &error));
  CHECK(error == MPI_ERR_TRUNCATE);
  CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count)); /* the byte count is untouched */
  CHECK(count == 1);
  int cancelled = -1;
  CHECK_MPI(MPI_Test_cancelled(&st, &cancelled));
  CHECK(cancelled == 0);
}

/* A generalized request whose query function fills the status through the MPI 4.1 setters. */
static int query(void* extra, MPI_Status* st) {
  const int rank = *(int*)extra;
  MPI_Status_set_source(st, rank);
  MPI_Status_set_tag(st, 99);
  MPI_Status_set_error(st, MPI_SUCCESS);
  MPI_Status_set_elements(st, MPI_BYTE, 3);
  MPI_Status_set_cancelled(st, 0);
  return MPI_SUCCESS;
}
static int free_state(void* extra) {
  (void)extra;
  return MPI_SUCCESS;
}
static int cancel_state(void* extra, int complete) {
  (void)extra;
  (void)complete;
  return MPI_SUCCESS;
}

static void generalized(int rank) {
  check_context("a generalized request's query function sets the fields");
  MPI_Request req;
  CHECK_MPI(MPI_Grequest_start(query, free_state, cancel_state, &rank, &req));
  CHECK_MPI(MPI_Grequest_complete(req));
  MPI_Status st;
  CHECK_MPI(MPI_Wait(&req, &st));
  int source = -1, tag = -1, count = -1;
  CHECK_MPI(MPI_Status_get_source(&st, &source));
  CHECK_MPI(MPI_Status_get_tag(&st, &tag));
  CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &count));
  CHECK(source == rank && tag == 99 && count == 3);
}

/* MPI_MAXLOC over the pair type MPI_Type_get_value_index gives: the largest value and, on a tie,
 * the smallest index, the same on every rank. */
static void value_index(int rank, int size) {
  check_context("MPI_Type_get_value_index gives the predefined pair types");
  const MPI_Datatype values[] = {MPI_FLOAT,  MPI_DOUBLE,      MPI_LONG, MPI_INT,
                                 MPI_SHORT,  MPI_LONG_DOUBLE, MPI_REAL, MPI_DOUBLE_PRECISION,
                                 MPI_INTEGER};
  const MPI_Datatype indices[] = {MPI_INT,    MPI_INT, MPI_INT,  MPI_INT,
                                  MPI_INT,    MPI_INT, MPI_REAL, MPI_DOUBLE_PRECISION,
                                  MPI_INTEGER};
  const MPI_Datatype pairs[] = {MPI_FLOAT_INT, MPI_DOUBLE_INT,        MPI_LONG_INT,
                                MPI_2INT,      MPI_SHORT_INT,         MPI_LONG_DOUBLE_INT,
                                MPI_2REAL,     MPI_2DOUBLE_PRECISION, MPI_2INTEGER};
  for (int i = 0; i < (int)(sizeof pairs / sizeof pairs[0]); ++i) {
    MPI_Datatype pair = MPI_DATATYPE_NULL;
    CHECK_MPI(MPI_Type_get_value_index(values[i], indices[i], &pair));
    CHECK(pair == pairs[i]);
  }
  check_context("pairs that are not predefined give MPI_DATATYPE_NULL");
  MPI_Datatype pair = MPI_INT;
  CHECK_MPI(MPI_Type_get_value_index(MPI_DOUBLE, MPI_INT64_T, &pair));
  CHECK(pair == MPI_DATATYPE_NULL);
  CHECK_MPI(MPI_Type_get_value_index(MPI_FLOAT, MPI_FLOAT, &pair)); /* C float, not REAL */
  CHECK(pair == MPI_DATATYPE_NULL);
  CHECK_MPI(MPI_Type_get_value_index(MPI_INT, MPI_DOUBLE, &pair));
  CHECK(pair == MPI_DATATYPE_NULL);

  check_context("MPI_MAXLOC and MPI_MINLOC over the pair type of (MPI_DOUBLE, MPI_INT)");
  CHECK_MPI(MPI_Type_get_value_index(MPI_DOUBLE, MPI_INT, &pair));
  struct {
    double value;
    int index;
  } mine = {(double)(rank % 3), rank}, max = {-DBL_MAX, -1}, min = {DBL_MAX, -1};
  CHECK_MPI(MPI_Allreduce(&mine, &max, 1, pair, MPI_MAXLOC, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Allreduce(&mine, &min, 1, pair, MPI_MINLOC, MPI_COMM_WORLD));
  const int top = size >= 3 ? 2 : size - 1; /* the largest rank % 3, first reached at rank `top` */
  CHECK(max.value == (double)top && max.index == top);
  CHECK(min.value == 0.0 && min.index == 0);

  check_context("MPI_Type_get_value_index error paths");
  EXPECT_ERROR(MPI_Type_get_value_index(MPI_DATATYPE_NULL, MPI_INT, &pair), MPI_ERR_TYPE,
               "MPI_Type_get_value_index", "value_type=MPI_DATATYPE_NULL");
  EXPECT_ERROR(MPI_Type_get_value_index(MPI_INT, 4242, &pair), MPI_ERR_TYPE,
               "MPI_Type_get_value_index", "index_type=4242");
  EXPECT_ERROR(MPI_Type_get_value_index(MPI_INT, MPI_INT, NULL), MPI_ERR_ARG,
               "MPI_Type_get_value_index", "pair_type=NULL");
}

static void version_and_classes(void) {
  check_context("MPI 4.1: the version and its new error class");
  int version = 0, subversion = -1;
  CHECK_MPI(MPI_Get_version(&version, &subversion));
  CHECK(version == 4 && subversion == 1 && MPI_VERSION == 4 && MPI_SUBVERSION == 1);
  EXPECT_ERROR(MPI_Comm_set_errhandler(MPI_COMM_WORLD, 31337), MPI_ERR_ERRHANDLER,
               "MPI_Comm_set_errhandler", "errhandler=31337");
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  CHECK_MPI(MPI_Error_string(MPI_ERR_ERRHANDLER, text, &len));
  CHECK(strstr(text, "MPI_ERR_ERRHANDLER") != NULL);
  CHECK(MPI_ERR_ERRHANDLER < MPI_ERR_LASTCODE && error_class(MPI_ERR_ERRHANDLER) == 61);

  check_context("status call error paths");
  int value = 0;
  EXPECT_ERROR(MPI_Status_get_source(MPI_STATUS_IGNORE, &value), MPI_ERR_ARG,
               "MPI_Status_get_source", "status=NULL");
  EXPECT_ERROR(MPI_Status_set_tag(MPI_STATUS_IGNORE, 3), MPI_ERR_ARG, "MPI_Status_set_tag",
               "status=NULL");
  MPI_Status st;
  EXPECT_ERROR(MPI_Status_get_error(&st, NULL), MPI_ERR_ARG, "MPI_Status_get_error", "error=NULL");
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  int rank, size, left, right;
  world_ring(&rank, &size, &left, &right);
  status_fields(rank, left, right);
  generalized(rank);
  value_index(rank, size);
  version_and_classes();
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
