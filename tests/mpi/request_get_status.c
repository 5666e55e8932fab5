/* MPI 4.1 §3.7.6: MPI_Request_get_status_any, _all and _some report complete requests like
 * MPI_Testany/all/some but leave every request as it is: not freed, a persistent one still active,
 * so that Wait/Test completes it afterwards with the same status. Ranks work in pairs (2k, 2k+1);
 * a rank without a partner plays both sides itself. A receive stays incomplete until its sender
 * is told to send. */
#include "expect_error.h"

enum { kGo = 100, kTruncated = 101 };

static int partner;

/* Tells the partner to send message `tag` now (its `int` value: mix3(rank, tag, 0)). */
static void send_on_request(int rank, int tag) {
  CHECK_MPI(MPI_Send(&tag, 1, MPI_INT, partner, kGo, MPI_COMM_WORLD));
  int asked = -1;
  CHECK_MPI(MPI_Recv(&asked, 1, MPI_INT, partner, kGo, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  const int value = mix3(rank, asked, 0);
  CHECK_MPI(MPI_Send(&value, 1, MPI_INT, partner, asked, MPI_COMM_WORLD));
}

static void check_status(const MPI_Status* st, int tag) {
  int count = -1;
  CHECK_MPI(MPI_Get_count(st, MPI_INT, &count));
  CHECK(st->MPI_SOURCE == partner && st->MPI_TAG == tag && count == 1);
}

static void check_empty(const MPI_Status* st) {
  CHECK(st->MPI_SOURCE == MPI_ANY_SOURCE && st->MPI_TAG == MPI_ANY_TAG);
}

/* Polls get_status_some until `want` of the requests are complete. */
static int some_complete(int n, MPI_Request* reqs, int want, int* indices, MPI_Status* sts) {
  int outcount = 0;
  for (int tries = 0; outcount < want; ++tries) {
    CHECK_MPI(MPI_Request_get_status_some(n, reqs, &outcount, indices, sts));
    CHECK(outcount != MPI_UNDEFINED && outcount <= want && tries < 10000000);
  }
  return outcount;
}

static void any_and_all(int rank) {
  check_context("MPI_Request_get_status_any/_all leave the requests in place");
  int in[2] = {-1, -1};
  MPI_Request reqs[3] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  CHECK_MPI(MPI_Irecv(&in[0], 1, MPI_INT, partner, 0, MPI_COMM_WORLD, &reqs[0]));
  CHECK_MPI(MPI_Recv_init(&in[1], 1, MPI_INT, partner, 1, MPI_COMM_WORLD, &reqs[2]));
  int index = -5, flag = -5;
  MPI_Status st, sts[3];
  CHECK_MPI(MPI_Request_get_status_any(3, reqs, &index, &flag, &st));
  CHECK(flag == 0 && index == MPI_UNDEFINED); /* the partner has not sent yet */
  CHECK_MPI(MPI_Request_get_status_all(3, reqs, &flag, sts));
  CHECK(flag == 0);
  send_on_request(rank, 0);
  do CHECK_MPI(MPI_Request_get_status_any(3, reqs, &index, &flag, &st));
  while (!flag);
  CHECK(index == 0 && reqs[0] != MPI_REQUEST_NULL && in[0] == mix3(partner, 0, 0));
  check_status(&st, 0);
  /* All active ones (reqs[0]) are complete: null and inactive persistent ones give empty
   * statuses; nothing changes, so asking again gives the same. */
  for (int again = 0; again < 2; ++again) {
    CHECK_MPI(MPI_Request_get_status_all(3, reqs, &flag, sts));
    CHECK(flag == 1 && reqs[0] != MPI_REQUEST_NULL && reqs[2] != MPI_REQUEST_NULL);
    check_status(&sts[0], 0);
    check_empty(&sts[1]);
    check_empty(&sts[2]);
  }
  CHECK_MPI(MPI_Wait(&reqs[0], &st)); /* Wait still completes it, with the same status */
  CHECK(reqs[0] == MPI_REQUEST_NULL);
  check_status(&st, 0);

  check_context("a started persistent receive stays active after get_status_any");
  CHECK_MPI(MPI_Start(&reqs[2]));
  send_on_request(rank, 1);
  do CHECK_MPI(MPI_Request_get_status_any(3, reqs, &index, &flag, &st));
  while (!flag);
  CHECK(index == 2 && in[1] == mix3(partner, 1, 0));
  check_status(&st, 1);
  EXPECT_ERROR(MPI_Start(&reqs[2]), MPI_ERR_REQUEST, "MPI_Start", "already active");
  CHECK_MPI(MPI_Wait(&reqs[2], &st));
  check_status(&st, 1);
  CHECK(reqs[2] != MPI_REQUEST_NULL); /* inactive now: no request is active any more */
  CHECK_MPI(MPI_Request_get_status_any(3, reqs, &index, &flag, &st));
  CHECK(flag == 1 && index == MPI_UNDEFINED);
  check_empty(&st);
  CHECK_MPI(MPI_Request_free(&reqs[2]));
}

static void some(int rank) {
  check_context("MPI_Request_get_status_some reports the complete ones, and keeps them");
  enum { kRecvs = 3 };
  int in[kRecvs], indices[kRecvs];
  MPI_Request reqs[kRecvs];
  MPI_Status sts[kRecvs];
  for (int i = 0; i < kRecvs; ++i)
    CHECK_MPI(MPI_Irecv(&in[i], 1, MPI_INT, partner, 10 + i, MPI_COMM_WORLD, &reqs[i]));
  send_on_request(rank, 10);
  send_on_request(rank, 12);
  CHECK(some_complete(kRecvs, reqs, 2, indices, sts) == 2);
  CHECK(indices[0] == 0 && indices[1] == 2);
  check_status(&sts[0], 10);
  check_status(&sts[1], 12);
  for (int i = 0; i < kRecvs; ++i) CHECK(reqs[i] != MPI_REQUEST_NULL);
  send_on_request(rank, 11);
  CHECK(some_complete(kRecvs, reqs, 3, indices, sts) == 3);
  CHECK_MPI(MPI_Waitall(kRecvs, reqs, sts));
  for (int i = 0; i < kRecvs; ++i) {
    check_status(&sts[i], 10 + i);
    CHECK(in[i] == mix3(partner, 10 + i, 0));
  }
  int outcount = -5;
  CHECK_MPI(MPI_Request_get_status_some(kRecvs, reqs, &outcount, indices, sts));
  CHECK(outcount == MPI_UNDEFINED); /* all null now */
}

/* A failed request: get_status_all reports MPI_ERR_IN_STATUS with the error in its status; the
 * request is still there for MPI_Wait, which reports the error itself. */
static void failed(int rank) {
  check_context("a truncated receive under MPI_Request_get_status_all");
  char small = 0;
  MPI_Request req;
  CHECK_MPI(MPI_Irecv(&small, 1, MPI_CHAR, partner, kTruncated, MPI_COMM_WORLD, &req));
  const int big[2] = {rank, rank};
  CHECK_MPI(MPI_Send(big, 2, MPI_INT, partner, kTruncated, MPI_COMM_WORLD));
  MPI_Status st;
  int flag = 0, rc = MPI_SUCCESS;
  while (!flag) rc = MPI_Request_get_status_all(1, &req, &flag, &st);
  CHECK(error_class(rc) == MPI_ERR_IN_STATUS && error_class(st.MPI_ERROR) == MPI_ERR_TRUNCATE);
  CHECK(req != MPI_REQUEST_NULL);
  CHECK(error_class(MPI_Wait(&req, MPI_STATUS_IGNORE)) == MPI_ERR_TRUNCATE);
  CHECK(req == MPI_REQUEST_NULL);
}

static void errors(void) {
  check_context("error paths");
  MPI_Request req = MPI_REQUEST_NULL;
  int index, flag, outcount;
  MPI_Status st;
  EXPECT_ERROR(MPI_Request_get_status_any(-1, &req, &index, &flag, &st), MPI_ERR_COUNT,
               "MPI_Request_get_status_any", "count=-1");
  EXPECT_ERROR(MPI_Request_get_status_any(1, NULL, &index, &flag, &st), MPI_ERR_ARG,
               "MPI_Request_get_status_any", "array_of_requests=NULL");
  EXPECT_ERROR(MPI_Request_get_status_any(1, &req, NULL, &flag, &st), MPI_ERR_ARG,
               "MPI_Request_get_status_any", "index=NULL");
  EXPECT_ERROR(MPI_Request_get_status_all(1, &req, NULL, &st), MPI_ERR_ARG,
               "MPI_Request_get_status_all", "flag=NULL");
  EXPECT_ERROR(MPI_Request_get_status_some(1, &req, NULL, &index, &st), MPI_ERR_ARG,
               "MPI_Request_get_status_some", "outcount=NULL");
  EXPECT_ERROR(MPI_Request_get_status_some(-3, &req, &outcount, &index, &st), MPI_ERR_COUNT,
               "MPI_Request_get_status_some", "count=-3");
  CHECK_MPI(MPI_Request_get_status_any(0, NULL, &index, &flag, MPI_STATUS_IGNORE));
  CHECK(index == MPI_UNDEFINED && flag == 1);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  int rank, size;
  world_ring(&rank, &size, NULL, NULL);
  partner = (rank ^ 1) < size ? (rank ^ 1) : rank;
  any_and_all(rank);
  some(rank);
  failed(rank);
  errors();
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
