/* Generalized requests (MPI 4.1 §13.2): MPI_Grequest_start/complete with query, free and cancel
 * callbacks called exactly as the standard says, in every Wait/Test form, MPI_Request_get_status,
 * MPI_Request_free and MPI_Cancel; completion from another thread; callback errors. */
#include <pthread.h>
#include <time.h>

#include "expect_error.h"

/* What the callbacks saw of one request; `log` records their order ('q', 'f', 'c'). */
typedef struct {
  int id;
  int queries, frees, cancels, last_cancel_complete;
  int query_error; /* returned by query_fn */
  int cancelled;   /* what query_fn reports */
  char log[32];
  int nlog;
} State;

static void note(State* s, char what) {
  if (s->nlog < (int)sizeof s->log - 1) s->log[s->nlog++] = what;
}

static int query_fn(void* extra, MPI_Status* status) {
  State* s = extra;
  note(s, 'q');
  ++s->queries;
  status->MPI_SOURCE = 100 + s->id;
  status->MPI_TAG = 200 + s->id;
  MPI_Status_set_elements(status, MPI_INT, 3 + s->id);
  MPI_Status_set_cancelled(status, s->cancelled);
  return s->query_error;
}
static int free_fn(void* extra) {
  State* s = extra;
  note(s, 'f');
  ++s->frees;
  return MPI_SUCCESS;
}
static int cancel_fn(void* extra, int complete) {
  State* s = extra;
  note(s, 'c');
  ++s->cancels;
  s->last_cancel_complete = complete;
  if (!complete) s->cancelled = 1;
  return MPI_SUCCESS;
}

static MPI_Request start(State* s, int id) {
  memset(s, 0, sizeof *s);
  s->id = id;
  MPI_Request r = MPI_REQUEST_NULL;
  CHECK_MPI(MPI_Grequest_start(query_fn, free_fn, cancel_fn, s, &r));
  CHECK(r != MPI_REQUEST_NULL);
  return r;
}

/* The status query_fn filled for request `id`. */
static void check_status(const MPI_Status* st, int id) {
  int count = -1, cancelled = -1;
  CHECK(st->MPI_SOURCE == 100 + id && st->MPI_TAG == 200 + id);
  CHECK_MPI(MPI_Get_count(st, MPI_INT, &count));
  CHECK(count == 3 + id);
  CHECK_MPI(MPI_Test_cancelled(st, &cancelled));
  CHECK(cancelled == 0);
}

static void busy_work(void) {
  volatile double x = 0;
  for (int i = 0; i < 100000; ++i) x += i * 0.5;
}

static void wait_and_test(void) {
  check_context("MPI_Test before and after MPI_Grequest_complete, then MPI_Wait");
  State s;
  MPI_Request r = start(&s, 1);
  int flag = 1;
  MPI_Status st;
  CHECK_MPI(MPI_Test(&r, &flag, &st));
  CHECK(flag == 0 && r != MPI_REQUEST_NULL && s.queries == 0);
  busy_work();
  CHECK_MPI(MPI_Grequest_complete(r));
  CHECK(s.queries == 0 && s.frees == 0); /* nothing is called before the request is completed */
  CHECK_MPI(MPI_Test(&r, &flag, &st));
  CHECK(flag == 1 && r == MPI_REQUEST_NULL);
  check_status(&st, 1);
  CHECK(strcmp(s.log, "qf") == 0);

  r = start(&s, 2);
  CHECK_MPI(MPI_Grequest_complete(r));
  CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE)); /* query_fn still gets a status to fill */
  CHECK(r == MPI_REQUEST_NULL && strcmp(s.log, "qf") == 0);
}

static void* complete_later(void* arg) {
  struct timespec pause = {0, 20 * 1000 * 1000};
  nanosleep(&pause, NULL);
  MPI_Grequest_complete(*(MPI_Request*)arg);
  return NULL;
}

static void from_another_thread(void) {
  check_context("MPI_Wait returns once another thread calls MPI_Grequest_complete");
  State s;
  MPI_Request r = start(&s, 3);
  MPI_Request copy = r;
  pthread_t thread;
  CHECK(pthread_create(&thread, NULL, complete_later, &copy) == 0);
  MPI_Status st;
  CHECK_MPI(MPI_Wait(&r, &st));
  CHECK(pthread_join(thread, NULL) == 0);
  check_status(&st, 3);
  CHECK(strcmp(s.log, "qf") == 0);
}

/* Waitall/Waitany/Waitsome/Testall/Testany/Testsome on generalized requests mixed with a
 * receive from this rank itself. */
static void several(void) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  State s[3];
  MPI_Request r[4];
  MPI_Status st[4];
  int value = 0, sent = 42 + rank, flag = -1, index = -1, outcount = -1, indices[4];

  check_context("MPI_Testall, then MPI_Waitall");
  for (int i = 0; i < 3; ++i) r[i] = start(&s[i], i);
  CHECK_MPI(MPI_Irecv(&value, 1, MPI_INT, 0, 7, MPI_COMM_SELF, &r[3]));
  CHECK_MPI(MPI_Testall(4, r, &flag, st));
  CHECK(flag == 0 && s[0].queries == 0);
  for (int i = 0; i < 3; ++i) CHECK_MPI(MPI_Grequest_complete(r[i]));
  CHECK_MPI(MPI_Send(&sent, 1, MPI_INT, 0, 7, MPI_COMM_SELF));
  CHECK_MPI(MPI_Waitall(4, r, st));
  for (int i = 0; i < 3; ++i) {
    check_status(&st[i], i);
    CHECK(strcmp(s[i].log, "qf") == 0 && r[i] == MPI_REQUEST_NULL);
  }
  CHECK(value == sent && st[3].MPI_TAG == 7);

  check_context("MPI_Waitany and MPI_Testany pick the completed one");
  for (int i = 0; i < 3; ++i) r[i] = start(&s[i], i);
  CHECK_MPI(MPI_Testany(3, r, &index, &flag, st));
  CHECK(flag == 0 && index == MPI_UNDEFINED);
  CHECK_MPI(MPI_Grequest_complete(r[1]));
  CHECK_MPI(MPI_Waitany(3, r, &index, st));
  CHECK(index == 1 && r[1] == MPI_REQUEST_NULL);
  check_status(&st[0], 1);
  CHECK(s[0].queries == 0 && s[2].queries == 0 && strcmp(s[1].log, "qf") == 0);
  CHECK_MPI(MPI_Grequest_complete(r[2]));
  CHECK_MPI(MPI_Testany(3, r, &index, &flag, st));
  CHECK(flag == 1 && index == 2);
  check_status(&st[0], 2);

  check_context("MPI_Testsome and MPI_Waitsome");
  r[1] = start(&s[1], 1);
  r[2] = start(&s[2], 2);
  CHECK_MPI(MPI_Testsome(3, r, &outcount, indices, st));
  CHECK(outcount == 0);
  CHECK_MPI(MPI_Grequest_complete(r[0]));
  CHECK_MPI(MPI_Grequest_complete(r[2]));
  CHECK_MPI(MPI_Waitsome(3, r, &outcount, indices, st));
  CHECK(outcount == 2 && indices[0] == 0 && indices[1] == 2);
  check_status(&st[0], 0);
  check_status(&st[1], 2);
  CHECK_MPI(MPI_Grequest_complete(r[1]));
  CHECK_MPI(MPI_Testsome(3, r, &outcount, indices, st));
  CHECK(outcount == 1 && indices[0] == 1 && strcmp(s[1].log, "qf") == 0);
}

static void get_status_and_free(void) {
  State s;
  MPI_Status st;
  int flag = -1;
  check_context("MPI_Request_get_status calls query_fn, not free_fn; the request stays");
  MPI_Request r = start(&s, 4);
  CHECK_MPI(MPI_Request_get_status(r, &flag, &st));
  CHECK(flag == 0 && s.queries == 0);
  CHECK_MPI(MPI_Grequest_complete(r));
  CHECK_MPI(MPI_Request_get_status(r, &flag, &st));
  CHECK(flag == 1 && r != MPI_REQUEST_NULL && strcmp(s.log, "q") == 0);
  check_status(&st, 4);
  CHECK_MPI(MPI_Wait(&r, &st));
  CHECK(strcmp(s.log, "qqf") == 0);

  check_context("MPI_Request_free before MPI_Grequest_complete: free_fn at the completion");
  r = start(&s, 5);
  MPI_Request handle = r;
  CHECK_MPI(MPI_Request_free(&r));
  CHECK(r == MPI_REQUEST_NULL && s.nlog == 0);
  CHECK_MPI(MPI_Grequest_complete(handle));
  CHECK(strcmp(s.log, "f") == 0);

  check_context("MPI_Request_free after MPI_Grequest_complete: free_fn at once, no query_fn");
  r = start(&s, 6);
  CHECK_MPI(MPI_Grequest_complete(r));
  CHECK(s.nlog == 0);
  CHECK_MPI(MPI_Request_free(&r));
  CHECK(strcmp(s.log, "f") == 0);
}

static void cancel(void) {
  State s;
  MPI_Status st;
  int cancelled = -1;
  check_context("MPI_Cancel before completion: cancel_fn(complete=0), query_fn says cancelled");
  MPI_Request r = start(&s, 7);
  CHECK_MPI(MPI_Cancel(&r));
  CHECK(s.cancels == 1 && s.last_cancel_complete == 0);
  CHECK_MPI(MPI_Grequest_complete(r));
  CHECK_MPI(MPI_Wait(&r, &st));
  CHECK_MPI(MPI_Test_cancelled(&st, &cancelled));
  CHECK(cancelled == 1 && strcmp(s.log, "cqf") == 0);

  check_context("MPI_Cancel after MPI_Grequest_complete: cancel_fn(complete=1)");
  r = start(&s, 8);
  CHECK_MPI(MPI_Grequest_complete(r));
  CHECK_MPI(MPI_Cancel(&r));
  CHECK(s.cancels == 1 && s.last_cancel_complete == 1);
  CHECK_MPI(MPI_Wait(&r, &st));
  CHECK_MPI(MPI_Test_cancelled(&st, &cancelled));
  CHECK(cancelled == 0 && strcmp(s.log, "cqf") == 0);
}

static void errors(void) {
  State s;
  MPI_Request r = MPI_REQUEST_NULL, pair[2];
  MPI_Status st[2];
  check_context("error paths");
  EXPECT_ERROR(MPI_Grequest_start(NULL, free_fn, cancel_fn, &s, &r), MPI_ERR_ARG,
               "MPI_Grequest_start", "query_fn=NULL");
  EXPECT_ERROR(MPI_Grequest_complete(MPI_REQUEST_NULL), MPI_ERR_REQUEST, "MPI_Grequest_complete",
               "MPI_REQUEST_NULL");
  int value = 0;
  CHECK_MPI(MPI_Irecv(&value, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_SELF, &r));
  EXPECT_ERROR(MPI_Grequest_complete(r), MPI_ERR_REQUEST, "MPI_Grequest_complete",
               "not a generalized request");
  CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));

  r = start(&s, 9);
  CHECK_MPI(MPI_Grequest_complete(r));
  EXPECT_ERROR(MPI_Grequest_complete(r), MPI_ERR_REQUEST, "MPI_Grequest_complete",
               "complete already");
  s.query_error = MPI_ERR_OTHER;
  EXPECT_ERROR(MPI_Wait(&r, MPI_STATUS_IGNORE), MPI_ERR_OTHER, "MPI_Wait", "query_fn");
  CHECK(r == MPI_REQUEST_NULL && strcmp(s.log, "qf") == 0); /* freed all the same */

  check_context("a query_fn error in MPI_Waitall: MPI_ERR_IN_STATUS, the error in its status");
  State ok;
  pair[0] = start(&ok, 0);
  pair[1] = start(&s, 1);
  s.query_error = MPI_ERR_OTHER;
  CHECK_MPI(MPI_Grequest_complete(pair[0]));
  CHECK_MPI(MPI_Grequest_complete(pair[1]));
  EXPECT_ERROR(MPI_Waitall(2, pair, st), MPI_ERR_IN_STATUS, "MPI_Waitall", "query_fn");
  CHECK(st[0].MPI_ERROR == MPI_SUCCESS && error_class(st[1].MPI_ERROR) == MPI_ERR_OTHER);
  CHECK(pair[0] == MPI_REQUEST_NULL && pair[1] == MPI_REQUEST_NULL);
}

static void large_count_elements(void) {
  check_context("MPI_Status_set_elements_x and _c");
  MPI_Status st;
  MPI_Count n = -1;
  CHECK_MPI(MPI_Status_set_elements_c(&st, MPI_DOUBLE, 5));
  CHECK_MPI(MPI_Get_elements_c(&st, MPI_DOUBLE, &n));
  CHECK(n == 5);
  CHECK_MPI(MPI_Status_set_elements_x(&st, MPI_INT, 9));
  CHECK_MPI(MPI_Get_elements_x(&st, MPI_INT, &n));
  CHECK(n == 9);
  EXPECT_ERROR(MPI_Status_set_elements_c(&st, MPI_INT, -2), MPI_ERR_COUNT,
               "MPI_Status_set_elements_c", "count=-2");
}

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  errors_return();
  wait_and_test();
  from_another_thread();
  several();
  get_status_and_free();
  cancel();
  errors();
  large_count_elements();
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
