/* Sessions without MPI_Init (MPI 4.1 §11.3): two sessions at once, their process sets and the
 * sets' info, groups from mpi://WORLD and mpi://SELF, communicators made from them (tags keep
 * them apart) carrying point-to-point and collectives, a session error handler, and what
 * happens once the last session is finalized. */
#include <stdlib.h>

#include "expect_error.h"

static int handler_calls = 0;
static MPI_Session handler_session = MPI_SESSION_NULL;
static void on_session_error(MPI_Session* session, int* code, ...) {
  ++handler_calls;
  handler_session = *session;
  (void)code;
}

/* The communicator of process set `pset` of session `s`, made with string tag `tag`. */
static MPI_Comm comm_of_pset(MPI_Session s, const char* pset, const char* tag) {
  MPI_Group group;
  CHECK_MPI(MPI_Group_from_session_pset(s, pset, &group));
  MPI_Comm comm;
  CHECK_MPI(MPI_Comm_create_from_group(group, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &comm));
  MPI_Group_free(&group);
  return comm;
}

static void check_psets(MPI_Session s, int world_size) {
  check_context("process sets and their info");
  int n = 0;
  CHECK_MPI(MPI_Session_get_num_psets(s, MPI_INFO_NULL, &n));
  CHECK(n >= 2);
  int found_world = 0, found_self = 0;
  for (int i = 0; i < n; ++i) {
    int len = 0;
    CHECK_MPI(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, NULL)); /* length only */
    char name[MPI_MAX_PSET_NAME_LEN];
    CHECK(len > 1 && len <= MPI_MAX_PSET_NAME_LEN);
    int full = len;
    CHECK_MPI(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &full, name));
    CHECK(full == len && (int)strlen(name) == len - 1);
    MPI_Info info;
    CHECK_MPI(MPI_Session_get_pset_info(s, name, &info));
    char value[64];
    int flag = 0;
    CHECK_MPI(MPI_Info_get(info, "mpi_size", sizeof value - 1, value, &flag));
    CHECK(flag);
    if (strcmp(name, "mpi://WORLD") == 0) {
      found_world = 1;
      CHECK(atoi(value) == world_size);
    } else if (strcmp(name, "mpi://SELF") == 0) {
      found_self = 1;
      CHECK(atoi(value) == 1);
    }
    MPI_Info_free(&info);
  }
  CHECK(found_world && found_self);
  /* A short buffer gets a truncated, terminated name and the full length. */
  char shortname[5];
  int len = (int)sizeof shortname;
  CHECK_MPI(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 0, &len, shortname));
  CHECK(strlen(shortname) == 4 && len > 5);
}

/* Ring traffic and an allreduce on two session communicators at once, with the same user tag:
 * each message must arrive on its own communicator. */
static void use_two(MPI_Comm a, MPI_Comm b) {
  check_context("two session communicators at once");
  int rank, size;
  MPI_Comm_rank(a, &rank);
  MPI_Comm_size(a, &size);
  int rb = -1, sb = -1;
  MPI_Comm_rank(b, &rb);
  MPI_Comm_size(b, &sb);
  CHECK(rb == rank && sb == size);
  const int right = (rank + 1) % size, left = (rank - 1 + size) % size;
  int out_a = 1000 + rank, out_b = 2000 + rank, in_a = -1, in_b = -1;
  MPI_Request req[4];
  CHECK_MPI(MPI_Irecv(&in_b, 1, MPI_INT, left, 5, b, &req[0]));
  CHECK_MPI(MPI_Irecv(&in_a, 1, MPI_INT, left, 5, a, &req[1]));
  CHECK_MPI(MPI_Isend(&out_a, 1, MPI_INT, right, 5, a, &req[2]));
  CHECK_MPI(MPI_Isend(&out_b, 1, MPI_INT, right, 5, b, &req[3]));
  CHECK_MPI(MPI_Waitall(4, req, MPI_STATUSES_IGNORE));
  CHECK(in_a == 1000 + left && in_b == 2000 + left);
  int sum_a = 0, sum_b = 0, one = 1;
  CHECK_MPI(MPI_Allreduce(&rank, &sum_a, 1, MPI_INT, MPI_SUM, a));
  CHECK_MPI(MPI_Allreduce(&one, &sum_b, 1, MPI_INT, MPI_SUM, b));
  CHECK(sum_a == size * (size - 1) / 2 && sum_b == size);
}

int main(void) {
  int flag = 1;
  MPI_Initialized(&flag);
  CHECK(flag == 0);
  const char* env_size = getenv("WEFT_SIZE");
  const int world_size = env_size ? atoi(env_size) : 1;

  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "thread_level", "MPI_THREAD_FUNNELED");
  MPI_Session s1 = MPI_SESSION_NULL, s2 = MPI_SESSION_NULL;
  CHECK_MPI(MPI_Session_init(info, MPI_ERRORS_RETURN, &s1));
  MPI_Info_free(&info);
  CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s2));
  CHECK(s1 != MPI_SESSION_NULL && s2 != MPI_SESSION_NULL && s1 != s2);
  MPI_Initialized(&flag);
  CHECK(flag == 0); /* sessions are not the world model */
  CHECK(MPI_Session_f2c(MPI_Session_c2f(s2)) == s2);

  MPI_Info used;
  CHECK_MPI(MPI_Session_get_info(s1, &used));
  char level[64];
  CHECK_MPI(MPI_Info_get(used, "thread_level", sizeof level - 1, level, &flag));
  CHECK(flag && strncmp(level, "MPI_THREAD_", 11) == 0);
  MPI_Info_free(&used);

  check_psets(s1, world_size);
  MPI_Comm a = comm_of_pset(s1, "mpi://WORLD", "org.weft.test.a");
  MPI_Comm b = comm_of_pset(s2, "mpi://WORLD", "org.weft.test.b");
  int size = 0;
  MPI_Comm_size(a, &size);
  CHECK(size == world_size);
  use_two(a, b);
  MPI_Comm self = comm_of_pset(s2, "mpi://SELF", "org.weft.test.self");
  MPI_Comm_size(self, &size);
  CHECK(size == 1);
  int got = -1, mine = 42;
  CHECK_MPI(MPI_Sendrecv(&mine, 1, MPI_INT, 0, 0, &got, 1, MPI_INT, 0, 0, self, MPI_STATUS_IGNORE));
  CHECK(got == 42);

  check_context("session errors and handlers");
  MPI_Group g;
  EXPECT_ERROR(MPI_Group_from_session_pset(s1, "mpi://NOWHERE", &g), MPI_ERR_ARG,
               "MPI_Group_from_session_pset", "mpi://NOWHERE");
  int len = 0;
  EXPECT_ERROR(MPI_Session_get_nth_pset(s1, MPI_INFO_NULL, 7, &len, NULL), MPI_ERR_ARG,
               "MPI_Session_get_nth_pset", "n=7");
  MPI_Errhandler eh, got_eh;
  CHECK_MPI(MPI_Session_create_errhandler(on_session_error, &eh));
  CHECK_MPI(MPI_Session_set_errhandler(s2, eh));
  CHECK_MPI(MPI_Session_get_errhandler(s2, &got_eh));
  CHECK(got_eh == eh);
  MPI_Errhandler_free(&got_eh);
  const int rc = MPI_Group_from_session_pset(s2, "mpi://NOWHERE", &g);
  CHECK(rc != MPI_SUCCESS && error_class(rc) == MPI_ERR_ARG);
  CHECK(handler_calls == 1 && handler_session == s2);
  CHECK_MPI(MPI_Session_call_errhandler(s2, MPI_ERR_OTHER));
  CHECK(handler_calls == 2);
  EXPECT_ERROR(MPI_Session_call_errhandler(s1, -5), MPI_ERR_ARG, "MPI_Session_call_errhandler",
               "errorcode=-5");
  MPI_Errhandler_free(&eh); /* the session keeps its reference */
  CHECK_MPI(MPI_Session_call_errhandler(s2, MPI_ERR_OTHER));
  CHECK(handler_calls == 3);

  MPI_Comm_free(&a);
  MPI_Comm_free(&b);
  MPI_Comm_free(&self);
  /* One session finalized: the other still works. */
  CHECK_MPI(MPI_Session_finalize(&s1));
  CHECK(s1 == MPI_SESSION_NULL);
  MPI_Comm c = comm_of_pset(s2, "mpi://WORLD", "org.weft.test.c");
  MPI_Comm d = comm_of_pset(s2, "mpi://WORLD", "org.weft.test.d");
  use_two(c, d);
  MPI_Comm_free(&c);
  MPI_Comm_free(&d);
  CHECK_MPI(MPI_Session_finalize(&s2));

  /* The last user is gone: Weft cannot start again, and says so. */
  MPI_Finalized(&flag);
  CHECK(flag == 0); /* the world model was never used */
  MPI_Session again;
  const int restart = MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &again);
  if (restart == MPI_SUCCESS || error_class(restart) != MPI_ERR_OTHER) {
    fprintf(stderr, "MPI_Session_init after the last finalize returned %d\n", restart);
    return 1;
  }
  if (getenv("WEFT_RANK") == NULL || atoi(getenv("WEFT_RANK")) == 0) printf("session: ok\n");
  return 0;
}
