/* Bad arguments to collectives under MPI_ERRORS_RETURN: the standard error class, a message that
 * names the function, and nothing left behind (every rank makes the same bad call, each detects
 * it locally, and the collectives after it still line up). */
#include <stdlib.h>

#include "check.h"

static int rank, size;

static void expect(int rc, int cls, const char* function, const char* fragment) {
  if (rc == MPI_SUCCESS || error_class(rc) != cls) {
    fprintf(stderr, "rank %d: %s returned %d (class %d), expected class %d (%s)\n", rank, function,
            rc, rc == MPI_SUCCESS ? 0 : error_class(rc), cls, check_context_);
    CHECK(rc != MPI_SUCCESS && error_class(rc) == cls);
  }
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  CHECK(MPI_Error_string(rc, text, &len) == MPI_SUCCESS && len > 0 && (int)strlen(text) == len);
  if (strstr(text, function) == NULL || (fragment && strstr(text, fragment) == NULL)) {
    fprintf(stderr, "rank %d: error string '%s' lacks '%s' or '%s'\n", rank, text, function,
            fragment ? fragment : "");
    CHECK(0);
  }
}

/* After each group of errors: the collectives still work and line up. */
static void still_works(const char* after) {
  check_context("collectives after %s", after);
  int v = rank + 1, sum = 0, all[64] = {0};
  CHECK_MPI(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  CHECK(sum == size * (size + 1) / 2);
  if (size <= 64) {
    CHECK_MPI(MPI_Allgather(&v, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD));
    for (int r = 0; r < size; ++r) CHECK(all[r] == r + 1);
  }
  int b = rank == size - 1 ? 42 : 0;
  CHECK(MPI_Bcast(&b, 1, MPI_INT, size - 1, MPI_COMM_WORLD) == MPI_SUCCESS && b == 42);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  world_ring(&rank, &size, NULL, NULL);
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
  MPI_Comm w = MPI_COMM_WORLD;
  MPI_Info info = MPI_INFO_NULL;
  MPI_Request req = MPI_REQUEST_NULL;
  int buf[64] = {0}, out[64] = {0}, big[1024] = {0};
  int* counts = calloc((size_t)size, sizeof(int));
  int* displs = calloc((size_t)size, sizeof(int));
  CHECK(counts && displs);
  char root_text[32];
  snprintf(root_text, sizeof root_text, "root=%d", size + 3);

  /* A root outside the communicator, in every form of every rooted collective. */
  check_context("invalid roots");
  expect(MPI_Bcast(buf, 1, MPI_INT, size + 3, w), MPI_ERR_ROOT, "MPI_Bcast", root_text);
  expect(MPI_Bcast(buf, 1, MPI_INT, -1, w), MPI_ERR_ROOT, "MPI_Bcast", "root=-1");
  expect(MPI_Ibcast(buf, 1, MPI_INT, size + 3, w, &req), MPI_ERR_ROOT, "MPI_Ibcast", root_text);
  expect(MPI_Bcast_init(buf, 1, MPI_INT, size + 3, w, info, &req), MPI_ERR_ROOT, "MPI_Bcast_init",
         root_text);
  CHECK(req == MPI_REQUEST_NULL);
  expect(MPI_Reduce(buf, out, 1, MPI_INT, MPI_SUM, size + 3, w), MPI_ERR_ROOT, "MPI_Reduce",
         root_text);
  expect(MPI_Ireduce(buf, out, 1, MPI_INT, MPI_SUM, -2, w, &req), MPI_ERR_ROOT, "MPI_Ireduce",
         "root=-2");
  expect(MPI_Gather(buf, 1, MPI_INT, big, 1, MPI_INT, size + 3, w), MPI_ERR_ROOT, "MPI_Gather",
         root_text);
  expect(MPI_Gatherv_init(buf, 0, MPI_INT, big, counts, displs, MPI_INT, size + 3, w, info, &req),
         MPI_ERR_ROOT, "MPI_Gatherv_init", root_text);
  expect(MPI_Scatter(buf, 1, MPI_INT, out, 1, MPI_INT, size + 3, w), MPI_ERR_ROOT, "MPI_Scatter",
         root_text);
  expect(MPI_Iscatterv(buf, counts, displs, MPI_INT, out, 0, MPI_INT, -1, w, &req), MPI_ERR_ROOT,
         "MPI_Iscatterv", "root=-1");
  still_works("invalid roots");

  /* Ops not defined on the type, and no op at all. */
  check_context("invalid ops");
  _Bool flags[4] = {0};
  _Bool flags_out[4];
  double d[4] = {0}, d_out[4];
  expect(MPI_Allreduce(flags, flags_out, 4, MPI_C_BOOL, MPI_SUM, w), MPI_ERR_OP, "MPI_Allreduce",
         NULL);
  expect(MPI_Allreduce(d, d_out, 4, MPI_DOUBLE, MPI_BAND, w), MPI_ERR_OP, "MPI_Allreduce", NULL);
  expect(MPI_Allreduce(d, d_out, 4, MPI_DOUBLE, MPI_LXOR, w), MPI_ERR_OP, "MPI_Allreduce", NULL);
  expect(MPI_Iallreduce(buf, out, 4, MPI_INT, MPI_MAXLOC, w, &req), MPI_ERR_OP, "MPI_Iallreduce",
         NULL);
  expect(MPI_Reduce(d, d_out, 2, MPI_C_DOUBLE_COMPLEX, MPI_MAX, 0, w), MPI_ERR_OP, "MPI_Reduce",
         NULL);
  expect(MPI_Scan(buf, out, 4, MPI_BYTE, MPI_SUM, w), MPI_ERR_OP, "MPI_Scan", NULL);
  expect(MPI_Exscan_init(buf, out, 4, MPI_INT, MPI_OP_NULL, w, info, &req), MPI_ERR_OP,
         "MPI_Exscan_init", NULL);
  expect(MPI_Reduce_scatter_block(buf, out, 1, MPI_2INT, MPI_PROD, w), MPI_ERR_OP,
         "MPI_Reduce_scatter_block", NULL);
  expect(MPI_Allreduce(buf, out, 4, MPI_INT, (MPI_Op)999, w), MPI_ERR_OP, "MPI_Allreduce", NULL);
  expect(MPI_Reduce_local(flags, flags_out, 4, MPI_C_BOOL, MPI_SUM), MPI_ERR_OP, "MPI_Reduce_local",
         NULL);
  expect(MPI_Op_free(&(MPI_Op){MPI_SUM}), MPI_ERR_OP, "MPI_Op_free", NULL);
  still_works("invalid ops");

  /* Negative counts. */
  check_context("negative counts");
  expect(MPI_Bcast(buf, -1, MPI_INT, 0, w), MPI_ERR_COUNT, "MPI_Bcast", "-1");
  expect(MPI_Allreduce(buf, out, -2, MPI_INT, MPI_SUM, w), MPI_ERR_COUNT, "MPI_Allreduce", "-2");
  expect(MPI_Iallgather(buf, -3, MPI_INT, big, 1, MPI_INT, w, &req), MPI_ERR_COUNT,
         "MPI_Iallgather", "-3");
  expect(MPI_Alltoall(buf, 1, MPI_INT, big, -4, MPI_INT, w), MPI_ERR_COUNT, "MPI_Alltoall", "-4");
  expect(MPI_Reduce_scatter_block(buf, out, -5, MPI_INT, MPI_SUM, w), MPI_ERR_COUNT,
         "MPI_Reduce_scatter_block", "-5");
  for (int r = 0; r < size; ++r) counts[r] = r == size - 1 ? -6 : 1;
  expect(MPI_Reduce_scatter(big, out, counts, MPI_INT, MPI_SUM, w), MPI_ERR_COUNT,
         "MPI_Reduce_scatter", "-6");
  expect(MPI_Allgatherv(buf, 1, MPI_INT, big, counts, displs, MPI_INT, w), MPI_ERR_COUNT,
         "MPI_Allgatherv", "-6");
  expect(
      MPI_Alltoallv_init(buf, counts, displs, MPI_INT, big, counts, displs, MPI_INT, w, info, &req),
      MPI_ERR_COUNT, "MPI_Alltoallv_init", "-6");
  expect(MPI_Scan(buf, out, -7, MPI_INT, MPI_SUM, w), MPI_ERR_COUNT, "MPI_Scan", "-7");
  expect(MPI_Reduce_local(buf, out, -8, MPI_INT, MPI_SUM), MPI_ERR_COUNT, "MPI_Reduce_local", "-8");
  for (int r = 0; r < size; ++r) counts[r] = 0;
  still_works("negative counts");

  /* NULL buffers with data, MPI_IN_PLACE where it is not allowed, sendbuf == recvbuf. */
  check_context("bad buffers");
  expect(MPI_Bcast(NULL, 3, MPI_INT, 0, w), MPI_ERR_BUFFER, "MPI_Bcast", "NULL");
  expect(MPI_Allreduce(NULL, out, 3, MPI_INT, MPI_SUM, w), MPI_ERR_BUFFER, "MPI_Allreduce", "NULL");
  expect(MPI_Allreduce(buf, NULL, 3, MPI_INT, MPI_SUM, w), MPI_ERR_BUFFER, "MPI_Allreduce", "NULL");
  expect(MPI_Allgather(buf, 1, MPI_INT, NULL, 1, MPI_INT, w), MPI_ERR_BUFFER, "MPI_Allgather",
         "NULL");
  expect(MPI_Bcast(MPI_IN_PLACE, 3, MPI_INT, 0, w), MPI_ERR_BUFFER, "MPI_Bcast", "MPI_IN_PLACE");
  expect(MPI_Allgather(buf, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, w), MPI_ERR_BUFFER,
         "MPI_Allgather", "MPI_IN_PLACE");
  expect(MPI_Alltoall(buf, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, w), MPI_ERR_BUFFER, "MPI_Alltoall",
         "MPI_IN_PLACE");
  expect(MPI_Allreduce(buf, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, w), MPI_ERR_BUFFER, "MPI_Allreduce",
         "MPI_IN_PLACE");
  expect(MPI_Iscan(buf, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, w, &req), MPI_ERR_BUFFER, "MPI_Iscan",
         "MPI_IN_PLACE");
  expect(MPI_Allreduce(buf, buf, 4, MPI_INT, MPI_SUM, w), MPI_ERR_BUFFER, "MPI_Allreduce", NULL);
  expect(MPI_Exscan(buf, buf, 4, MPI_INT, MPI_SUM, w), MPI_ERR_BUFFER, "MPI_Exscan", NULL);
  expect(MPI_Reduce_scatter_block(big, big, 1, MPI_INT, MPI_SUM, w), MPI_ERR_BUFFER,
         "MPI_Reduce_scatter_block", NULL);
  if (size == 1) { /* the root's own checks; with more ranks the others would not fail */
    expect(MPI_Reduce(buf, buf, 4, MPI_INT, MPI_SUM, 0, w), MPI_ERR_BUFFER, "MPI_Reduce", NULL);
    expect(MPI_Scatter(buf, 1, MPI_INT, buf + 1, 2, MPI_INT, 0, w), MPI_ERR_TRUNCATE, "MPI_Scatter",
           NULL);
    expect(MPI_Gather(buf, 2, MPI_INT, big, 1, MPI_INT, 0, w), MPI_ERR_TRUNCATE, "MPI_Gather",
           NULL);
  }
  still_works("bad buffers");

  /* No datatype. */
  check_context("MPI_DATATYPE_NULL");
  expect(MPI_Bcast(buf, 1, MPI_DATATYPE_NULL, 0, w), MPI_ERR_TYPE, "MPI_Bcast", NULL);
  expect(MPI_Allreduce(buf, out, 1, MPI_DATATYPE_NULL, MPI_SUM, w), MPI_ERR_TYPE, "MPI_Allreduce",
         NULL);
  expect(MPI_Allgather(buf, 1, MPI_INT, big, 1, MPI_DATATYPE_NULL, w), MPI_ERR_TYPE,
         "MPI_Allgather", NULL);
  MPI_Datatype* types = malloc((size_t)size * sizeof(MPI_Datatype));
  CHECK(types);
  for (int r = 0; r < size; ++r) {
    types[r] = r == size - 1 ? MPI_DATATYPE_NULL : MPI_INT;
    counts[r] = 1;
    displs[r] = r * (int)sizeof(int);
  }
  expect(MPI_Alltoallw(buf, counts, displs, types, big, counts, displs, types, w), MPI_ERR_TYPE,
         "MPI_Alltoallw", NULL);
  still_works("MPI_DATATYPE_NULL");

  /* Bad communicators. */
  check_context("bad communicators");
  expect(MPI_Barrier(MPI_COMM_NULL), MPI_ERR_COMM, "MPI_Barrier", "MPI_COMM_NULL");
  expect(MPI_Ibarrier(MPI_COMM_NULL, &req), MPI_ERR_COMM, "MPI_Ibarrier", NULL);
  expect(MPI_Bcast(buf, 1, MPI_INT, 0, MPI_COMM_NULL), MPI_ERR_COMM, "MPI_Bcast", NULL);
  expect(MPI_Allreduce_init(buf, out, 1, MPI_INT, MPI_SUM, (MPI_Comm)777, info, &req), MPI_ERR_COMM,
         "MPI_Allreduce_init", "777");
  expect(MPI_Alltoall(buf, 1, MPI_INT, big, 1, MPI_INT, MPI_COMM_NULL), MPI_ERR_COMM,
         "MPI_Alltoall", NULL);
  still_works("bad communicators");

  /* A call whose own send and receive sides disagree. */
  check_context("send and receive sides of different sizes");
  expect(MPI_Allgather(buf, 3, MPI_INT, big, 2, MPI_INT, w), MPI_ERR_TRUNCATE, "MPI_Allgather",
         NULL);
  expect(MPI_Allgather(buf, 1, MPI_DOUBLE, big, 1, MPI_INT, w), MPI_ERR_TRUNCATE, "MPI_Allgather",
         NULL);
  expect(MPI_Ialltoall(buf, 2, MPI_INT, big, 3, MPI_INT, w, &req), MPI_ERR_TRUNCATE,
         "MPI_Ialltoall", NULL);
  for (int r = 0; r < size; ++r) counts[r] = 1;
  for (int r = 0; r < size; ++r) displs[r] = r;
  expect(MPI_Allgatherv(buf, 2, MPI_INT, big, counts, displs, MPI_INT, w), MPI_ERR_TRUNCATE,
         "MPI_Allgatherv", NULL);
  int* counts2 = calloc((size_t)size, sizeof(int));
  CHECK(counts2);
  for (int r = 0; r < size; ++r) counts2[r] = r == rank ? 2 : 1;
  expect(MPI_Alltoallv(big, counts2, displs, MPI_INT, big + 512, counts, displs, MPI_INT, w),
         MPI_ERR_TRUNCATE, "MPI_Alltoallv", NULL);
  free(counts2);
  still_works("send and receive sides of different sizes");

  /* Requests: no place to put one, starting an active one, starting nothing. */
  check_context("bad requests");
  expect(MPI_Ibcast(buf, 1, MPI_INT, 0, w, NULL), MPI_ERR_ARG, "MPI_Ibcast", NULL);
  expect(MPI_Iallreduce(buf, out, 1, MPI_INT, MPI_SUM, w, NULL), MPI_ERR_ARG, "MPI_Iallreduce",
         NULL);
  expect(MPI_Allreduce_init(buf, out, 1, MPI_INT, MPI_SUM, w, info, NULL), MPI_ERR_ARG,
         "MPI_Allreduce_init", NULL);
  expect(MPI_Ibarrier(w, NULL), MPI_ERR_ARG, "MPI_Ibarrier", NULL);
  MPI_Request p;
  for (int i = 0; i < 4; ++i) buf[i] = rank + i;
  CHECK_MPI(MPI_Allreduce_init(buf, out, 4, MPI_INT, MPI_SUM, w, info, &p));
  CHECK_MPI(MPI_Start(&p));
  expect(MPI_Start(&p), MPI_ERR_REQUEST, "MPI_Start", NULL); /* still active */
  CHECK_MPI(MPI_Wait(&p, MPI_STATUS_IGNORE));
  for (int i = 0; i < 4; ++i) CHECK(out[i] == size * (size - 1) / 2 + size * i);
  MPI_Request null_request = MPI_REQUEST_NULL;
  expect(MPI_Start(&null_request), MPI_ERR_REQUEST, "MPI_Start", NULL);
  CHECK_MPI(MPI_Ibarrier(w, &req));
  expect(MPI_Start(&req), MPI_ERR_REQUEST, "MPI_Start", NULL); /* not a persistent request */
  CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS && req == MPI_REQUEST_NULL);
  CHECK(MPI_Request_free(&p) == MPI_SUCCESS && p == MPI_REQUEST_NULL);
  still_works("bad requests");

  /* The errors were returned, not fatal. */
  MPI_Errhandler handler;
  CHECK(MPI_Comm_get_errhandler(w, &handler) == MPI_SUCCESS && handler == MPI_ERRORS_RETURN);
  free(counts);
  free(displs);
  free(types);
  MPI_Finalize();
  return 0;
}
