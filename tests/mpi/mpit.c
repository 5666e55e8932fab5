/* MPI_T: control variables from the WEFT_* settings (read, written before and after MPI_Init),
 * performance variables (exact pt2pt counts, a forced collective algorithm's calls, the blocked
 * time timer), sessions, handles, categories, error codes, and MPI_T outside MPI_Init/Finalize.
 * Run with WEFT_SPIN_US=777 in the environment. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

/* Outside MPI_Init/MPI_Finalize CHECK cannot name the rank or abort the job. */
#define T_CHECK(cond)                                                              \
  do {                                                                             \
    if (!(cond)) {                                                                 \
      fprintf(stderr, "T_CHECK failed at %s:%d: %s\n", __FILE__, __LINE__, #cond); \
      exit(1);                                                                     \
    }                                                                              \
  } while (0)

static const char* const kSettings[] = {"WEFT_SPIN_US",           "WEFT_YIELD",
                                        "WEFT_POLL_MS",           "WEFT_TUNING_FILE",
                                        "WEFT_BCAST_ALGORITHM",   "WEFT_ALLREDUCE_ALGORITHM",
                                        "WEFT_CHECK_COLLECTIVES", "WEFT_RMA_PATH",
                                        "WEFT_ASYNC_PROGRESS",    "WEFT_STATE_SIGNAL"};

static int cvar_index(const char* name) {
  int index = -1;
  T_CHECK(MPI_T_cvar_get_index(name, &index) == MPI_SUCCESS);
  return index;
}

static MPI_T_cvar_handle cvar_handle(const char* name, int* count) {
  MPI_T_cvar_handle h = MPI_T_CVAR_HANDLE_NULL;
  T_CHECK(MPI_T_cvar_handle_alloc(cvar_index(name), NULL, &h, count) == MPI_SUCCESS);
  return h;
}

static void check_cvars_listed(void) {
  int num = 0;
  T_CHECK(MPI_T_cvar_get_num(&num) == MPI_SUCCESS && num >= 10);
  for (size_t s = 0; s < sizeof kSettings / sizeof kSettings[0]; ++s) {
    int found = 0;
    for (int i = 0; i < num; ++i) {
      char name[128], desc[2048];
      int name_len = sizeof name, desc_len = sizeof desc, verbosity, bind, scope;
      MPI_Datatype type;
      MPI_T_enum enumtype;
      T_CHECK(MPI_T_cvar_get_info(i, name, &name_len, &verbosity, &type, &enumtype, desc, &desc_len,
                                  &bind, &scope) == MPI_SUCCESS);
      T_CHECK(strncmp(name, "WEFT_", 5) == 0 && name_len == (int)strlen(name) + 1);
      T_CHECK(bind == MPI_T_BIND_NO_OBJECT && enumtype == MPI_T_ENUM_NULL);
      if (strcmp(name, kSettings[s]) != 0) continue;
      found = 1;
      T_CHECK(desc_len > 20 && (type == MPI_INT || type == MPI_CHAR));
    }
    if (!found) fprintf(stderr, "no control variable %s\n", kSettings[s]);
    T_CHECK(found);
  }
  /* Lengths only. */
  int name_len = 0;
  T_CHECK(MPI_T_cvar_get_info(cvar_index("WEFT_SPIN_US"), NULL, &name_len, NULL, NULL, NULL, NULL,
                              NULL, NULL, NULL) == MPI_SUCCESS &&
          name_len == (int)strlen("WEFT_SPIN_US") + 1);
}

/* Before MPI_Init: the environment's value, and a write the library then uses. */
static void before_init(void) {
  int count = 0, value = 0;
  MPI_T_cvar_handle spin = cvar_handle("WEFT_SPIN_US", &count);
  T_CHECK(count == 1 && MPI_T_cvar_read(spin, &value) == MPI_SUCCESS && value == 777);
  MPI_T_cvar_handle bcast = cvar_handle("WEFT_BCAST_ALGORITHM", &count);
  T_CHECK(count > 16);
  T_CHECK(MPI_T_cvar_write(bcast, "linear") == MPI_SUCCESS);
  char text[1024];
  T_CHECK(MPI_T_cvar_read(bcast, text) == MPI_SUCCESS && strcmp(text, "linear") == 0);
  T_CHECK(MPI_T_cvar_handle_free(&bcast) == MPI_SUCCESS && bcast == MPI_T_CVAR_HANDLE_NULL);
  T_CHECK(MPI_T_cvar_handle_free(&spin) == MPI_SUCCESS);
}

static MPI_T_pvar_handle pvar(MPI_T_pvar_session session, const char* name, int var_class) {
  int index = -1, count = 0;
  MPI_T_pvar_handle h = MPI_T_PVAR_HANDLE_NULL;
  CHECK(MPI_T_pvar_get_index(name, var_class, &index) == MPI_SUCCESS);
  CHECK(MPI_T_pvar_handle_alloc(session, index, NULL, &h, &count) == MPI_SUCCESS && count == 1);
  return h;
}

static unsigned long long read_ull(MPI_T_pvar_session session, MPI_T_pvar_handle h) {
  unsigned long long v = ~0ull;
  CHECK(MPI_T_pvar_read(session, h, &v) == MPI_SUCCESS);
  return v;
}

static void check_after_init_writes(void) {
  int count = 0, value = 1;
  MPI_T_cvar_handle spin = cvar_handle("WEFT_SPIN_US", &count);
  CHECK(MPI_T_cvar_write(spin, &value) == MPI_T_ERR_CVAR_SET_NEVER);
  MPI_T_cvar_handle path = cvar_handle("WEFT_RMA_PATH", &count);
  CHECK(MPI_T_cvar_write(path, "messages") == MPI_SUCCESS);
  char text[1024];
  CHECK(MPI_T_cvar_read(path, text) == MPI_SUCCESS && strcmp(text, "messages") == 0);
  MPI_T_cvar_handle sig = cvar_handle("WEFT_STATE_SIGNAL", &count);
  CHECK(MPI_T_cvar_write(sig, "10") == MPI_T_ERR_CVAR_SET_NEVER);
  MPI_T_cvar_handle_free(&spin);
  MPI_T_cvar_handle_free(&path);
  MPI_T_cvar_handle_free(&sig);
}

static void check_pvars(int rank, int size) {
  MPI_T_pvar_session session;
  CHECK(MPI_T_pvar_session_create(&session) == MPI_SUCCESS);
  MPI_T_pvar_handle sent = pvar(session, "pt2pt_messages_sent", MPI_T_PVAR_CLASS_COUNTER);
  MPI_T_pvar_handle bytes = pvar(session, "pt2pt_bytes_sent", MPI_T_PVAR_CLASS_COUNTER);
  MPI_T_pvar_handle received = pvar(session, "pt2pt_messages_received", MPI_T_PVAR_CLASS_COUNTER);
  CHECK(read_ull(session, sent) == 0 && read_ull(session, bytes) == 0);
  CHECK(MPI_T_pvar_start(session, sent) == MPI_T_ERR_PVAR_NO_STARTSTOP);

  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  double out[5] = {1, 2, 3, 4, 5}, in[5];
  for (int i = 0; i < 5; ++i)
    CHECK_MPI(MPI_Sendrecv(&out[i], 1, MPI_DOUBLE, right, i, &in[i], 1, MPI_DOUBLE, left, i,
                           MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Send(out, 5, MPI_DOUBLE, MPI_PROC_NULL, 0, MPI_COMM_WORLD));  // not counted
  CHECK(read_ull(session, sent) == 5 && read_ull(session, bytes) == 40);
  CHECK(read_ull(session, received) == 5);
  unsigned long long v = 0;
  CHECK(MPI_T_pvar_readreset(session, sent, &v) == MPI_SUCCESS && v == 5);
  CHECK(read_ull(session, sent) == 0);
  v = 100;
  CHECK(MPI_T_pvar_write(session, bytes, &v) == MPI_SUCCESS && read_ull(session, bytes) == 100);
  CHECK(MPI_T_pvar_reset(session, MPI_T_PVAR_ALL_HANDLES) == MPI_SUCCESS);
  CHECK(read_ull(session, bytes) == 0 && read_ull(session, received) == 0);

  /* WEFT_BCAST_ALGORITHM=linear, written before MPI_Init. The first blocking collective on a
   * communicator learns its node region with one broadcast of its own: done before counting. */
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  MPI_T_pvar_handle linear = pvar(session, "coll_bcast_linear_calls", MPI_T_PVAR_CLASS_COUNTER);
  MPI_T_pvar_handle binomial = pvar(session, "coll_bcast_binomial_calls", MPI_T_PVAR_CLASS_COUNTER);
  MPI_Request r;
  for (int i = 0; i < 3; ++i) CHECK_MPI(MPI_Bcast(out, 5, MPI_DOUBLE, 0, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Ibcast(out, 5, MPI_DOUBLE, 0, MPI_COMM_WORLD, &r));
  CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
  CHECK(read_ull(session, linear) == 4 && read_ull(session, binomial) == 0);

  /* The blocked-time timer: stopped when allocated, grows while started and a receive waits. */
  MPI_T_pvar_handle blocked = pvar(session, "wait_blocked_time", MPI_T_PVAR_CLASS_TIMER);
  double t = -1;
  CHECK(MPI_T_pvar_read(session, blocked, &t) == MPI_SUCCESS && t == 0);
  CHECK(MPI_T_pvar_start(session, blocked) == MPI_SUCCESS);
  if (size > 1) {
    if (rank == 1) usleep(200000);
    if (rank == 0) CHECK_MPI(MPI_Recv(in, 1, MPI_DOUBLE, 1, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    if (rank == 1) CHECK_MPI(MPI_Send(out, 1, MPI_DOUBLE, 0, 9, MPI_COMM_WORLD));
  }
  CHECK(MPI_T_pvar_stop(session, blocked) == MPI_SUCCESS);
  CHECK(MPI_T_pvar_read(session, blocked, &t) == MPI_SUCCESS);
  if (size > 1 && rank == 0) CHECK(t > 0.1 && t < 10);
  double stopped = t;
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK(MPI_T_pvar_read(session, blocked, &t) == MPI_SUCCESS && t == stopped);

  /* Errors: handles of another session, freed handles, a freed session. */
  MPI_T_pvar_session other;
  CHECK(MPI_T_pvar_session_create(&other) == MPI_SUCCESS);
  CHECK(MPI_T_pvar_read(other, sent, &v) == MPI_T_ERR_INVALID_HANDLE);
  CHECK(MPI_T_pvar_read(MPI_T_PVAR_SESSION_NULL, sent, &v) == MPI_T_ERR_INVALID_SESSION);
  CHECK(MPI_T_pvar_handle_free(session, &sent) == MPI_SUCCESS && sent == MPI_T_PVAR_HANDLE_NULL);
  CHECK(MPI_T_pvar_read(session, sent, &v) == MPI_T_ERR_INVALID_HANDLE);
  CHECK(MPI_T_pvar_handle_alloc(session, -1, NULL, &sent, &size) == MPI_T_ERR_INVALID_INDEX);
  CHECK(MPI_T_pvar_session_free(&other) == MPI_SUCCESS && other == MPI_T_PVAR_SESSION_NULL);
  CHECK(MPI_T_pvar_session_free(&session) == MPI_SUCCESS);
  CHECK(MPI_T_pvar_session_free(&session) == MPI_T_ERR_INVALID_SESSION);
}

/* Per-transport counters and the unexpected-message level on one node, where every message goes
 * through the shared-memory transport: rank 1 sends three 24-byte messages that rank 0 finds
 * (by a probe of the last) before it posts their receives. */
static void check_transport_pvars(int rank) {
  MPI_T_pvar_session s;
  CHECK(MPI_T_pvar_session_create(&s) == MPI_SUCCESS);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  MPI_T_pvar_handle bytes_sent = pvar(s, "shm_bytes_sent", MPI_T_PVAR_CLASS_COUNTER);
  MPI_T_pvar_handle received = pvar(s, "shm_messages_received", MPI_T_PVAR_CLASS_COUNTER);
  MPI_T_pvar_handle bytes_received = pvar(s, "shm_bytes_received", MPI_T_PVAR_CLASS_COUNTER);
  MPI_T_pvar_handle ucx_sent = pvar(s, "ucx_messages_sent", MPI_T_PVAR_CLASS_COUNTER);
  MPI_T_pvar_handle level = pvar(s, "unexpected_messages", MPI_T_PVAR_CLASS_LEVEL);
  MPI_T_pvar_handle most = pvar(s, "unexpected_messages_max", MPI_T_PVAR_CLASS_HIGHWATERMARK);
  double msg[3][3] = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}, in[3];
  if (rank == 1) {
    for (int i = 0; i < 3; ++i) CHECK_MPI(MPI_Send(msg[i], 3, MPI_DOUBLE, 0, 40 + i, MPI_COMM_WORLD));
    CHECK(read_ull(s, bytes_sent) == 72 && read_ull(s, ucx_sent) == 0);
  } else if (rank == 0) {
    CHECK_MPI(MPI_Probe(1, 42, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(read_ull(s, level) == 3 && read_ull(s, most) >= 3);
    for (int i = 0; i < 3; ++i)
      CHECK_MPI(MPI_Recv(in, 3, MPI_DOUBLE, 1, 40 + i, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(read_ull(s, level) == 0 && read_ull(s, most) >= 3);
    CHECK(read_ull(s, received) == 3 && read_ull(s, bytes_received) == 72);
    /* A level is read as it is: it cannot be started, written or reset. */
    unsigned long long v = 5;
    CHECK(MPI_T_pvar_write(s, level, &v) == MPI_T_ERR_PVAR_NO_WRITE);
    CHECK(MPI_T_pvar_reset(s, most) == MPI_T_ERR_PVAR_NO_WRITE);
    CHECK(MPI_T_pvar_start(s, level) == MPI_T_ERR_PVAR_NO_STARTSTOP);
    int index = -1, readonly = 0, var_class = 0;
    CHECK(MPI_T_pvar_get_index("unexpected_messages", MPI_T_PVAR_CLASS_LEVEL, &index) == 0);
    CHECK(MPI_T_pvar_get_info(index, NULL, NULL, NULL, &var_class, NULL, NULL, NULL, NULL, NULL,
                              &readonly, NULL, NULL) == MPI_SUCCESS);
    CHECK(readonly == 1 && var_class == MPI_T_PVAR_CLASS_LEVEL);
  }
  CHECK(MPI_T_pvar_session_free(&s) == MPI_SUCCESS);
}

/* Every variable in exactly one category. */
static void check_members(int num, int kind) {
  int cats = 0, seen[512] = {0};
  CHECK(MPI_T_category_get_num(&cats) == MPI_SUCCESS && cats == 4 && num < 512);
  for (int c = 0; c < cats; ++c) {
    int ncvars, npvars, nsub, indices[512];
    CHECK(MPI_T_category_get_info(c, NULL, NULL, NULL, NULL, &ncvars, &npvars, &nsub) ==
              MPI_SUCCESS &&
          nsub == 0);
    const int n = kind == 0 ? ncvars : npvars;
    CHECK((kind == 0 ? MPI_T_category_get_cvars(c, n, indices)
                     : MPI_T_category_get_pvars(c, n, indices)) == MPI_SUCCESS);
    for (int i = 0; i < n; ++i) seen[indices[i]]++;
  }
  for (int i = 0; i < num; ++i) CHECK(seen[i] == 1);
}

static void check_categories_and_errors(void) {
  int ncvars, npvars, index = -1;
  CHECK(MPI_T_cvar_get_num(&ncvars) == MPI_SUCCESS && MPI_T_pvar_get_num(&npvars) == MPI_SUCCESS);
  check_members(ncvars, 0);
  check_members(npvars, 1);
  CHECK(MPI_T_category_get_index("collectives", &index) == MPI_SUCCESS && index == 1);
  CHECK(MPI_T_category_get_index("nope", &index) == MPI_T_ERR_INVALID_NAME);
  CHECK(MPI_T_category_get_info(4, NULL, NULL, NULL, NULL, NULL, NULL, NULL) ==
        MPI_T_ERR_INVALID_INDEX);
  CHECK(MPI_T_cvar_get_info(ncvars, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL) ==
        MPI_T_ERR_INVALID_INDEX);
  CHECK(MPI_T_pvar_get_info(-1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                            NULL) == MPI_T_ERR_INVALID_INDEX);
  CHECK(MPI_T_cvar_get_index("WEFT_NOPE", &index) == MPI_T_ERR_INVALID_NAME);
  CHECK(MPI_T_pvar_get_index("pt2pt_messages_sent", MPI_T_PVAR_CLASS_TIMER, &index) ==
        MPI_T_ERR_INVALID_NAME);
  MPI_T_cvar_handle bad = MPI_T_CVAR_HANDLE_NULL;
  CHECK(MPI_T_cvar_handle_free(&bad) == MPI_T_ERR_INVALID_HANDLE);
  CHECK(MPI_T_cvar_read(bad, &index) == MPI_T_ERR_INVALID_HANDLE);
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  CHECK(error_class(MPI_T_ERR_INVALID_INDEX) == MPI_T_ERR_INVALID_INDEX);
  CHECK(MPI_Error_string(MPI_T_ERR_CVAR_SET_NEVER, text, &len) == MPI_SUCCESS &&
        strncmp(text, "MPI_T_ERR_CVAR_SET_NEVER", 24) == 0);
  int events = -1;
  CHECK(MPI_T_event_get_num(&events) == MPI_SUCCESS && events >= 3);
  CHECK(MPI_T_event_get_info(events, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL) ==
        MPI_T_ERR_INVALID_INDEX);
}

int main(int argc, char** argv) {
  int provided = -1, num = 0;
  T_CHECK(MPI_T_cvar_get_num(&num) == MPI_T_ERR_NOT_INITIALIZED);
  T_CHECK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) == MPI_SUCCESS);
  T_CHECK(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided) == MPI_SUCCESS &&
          provided == MPI_THREAD_MULTIPLE);
  check_cvars_listed();
  before_init();

  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  check_after_init_writes();
  check_pvars(rank, size);
  if (size > 1) check_transport_pvars(rank);
  check_categories_and_errors();
  MPI_Finalize();

  /* After MPI_Finalize MPI_T still answers, until its last MPI_T_finalize. */
  int count = 0, value = 0;
  MPI_T_cvar_handle spin = cvar_handle("WEFT_SPIN_US", &count);
  T_CHECK(MPI_T_cvar_read(spin, &value) == MPI_SUCCESS && value == 777);
  T_CHECK(MPI_T_cvar_handle_free(&spin) == MPI_SUCCESS);
  T_CHECK(MPI_T_finalize() == MPI_SUCCESS);
  T_CHECK(MPI_T_cvar_get_num(&num) == MPI_SUCCESS);
  T_CHECK(MPI_T_finalize() == MPI_SUCCESS);
  T_CHECK(MPI_T_cvar_get_num(&num) == MPI_T_ERR_NOT_INITIALIZED);
  T_CHECK(MPI_T_finalize() == MPI_T_ERR_NOT_INITIALIZED);
  return 0;
}
