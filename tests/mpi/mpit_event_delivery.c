/* MPI_T events as delivered: a blocked wait's event checked against the clock and the
 * wait_blocked_time timer, and buffered callbacks with a tiny buffer and the dropped handler.
 * Needs 2 or more ranks; ranks 0 and 1 talk. */
#include "mpit_events.h"

static long long g_blocked_ns = -1;
static MPI_Count g_blocked_at;
static void on_blocked(MPI_T_event_instance inst, MPI_T_event_registration reg,
                       MPI_T_cb_safety level, void* user_data) {
  (void)reg;
  (void)level;
  (void)user_data;
  CHECK(MPI_T_event_read(inst, 0, &g_blocked_ns) == MPI_SUCCESS);
  CHECK(MPI_T_event_get_timestamp(inst, &g_blocked_at) == MPI_SUCCESS);
}

/* A receive whose message comes 300 ms late spins WEFT_SPIN_US, then sleeps: the event says how
 * long, within the time the receive took, and the same as the wait_blocked_time timer gained. */
static void check_blocked(int rank) {
  check_context("wait_blocked");
  MPI_T_event_registration reg = alloc(g_event_blocked, NULL, MPI_INFO_NULL);
  CHECK(MPI_T_event_register_callback(reg, MPI_T_CB_REQUIRE_MPI_RESTRICTED, MPI_INFO_NULL, NULL,
                                      on_blocked) == MPI_SUCCESS);
  int timer = -1, count = 0;
  CHECK(MPI_T_pvar_get_index("wait_blocked_time", MPI_T_PVAR_CLASS_TIMER, &timer) == MPI_SUCCESS);
  MPI_T_pvar_session session;
  MPI_T_pvar_handle handle;
  CHECK(MPI_T_pvar_session_create(&session) == MPI_SUCCESS);
  CHECK(MPI_T_pvar_handle_alloc(session, timer, NULL, &handle, &count) == MPI_SUCCESS);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  int v = 0;
  if (rank == 0) {
    usleep(300000);
    CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 1, 5, MPI_COMM_WORLD));
  } else if (rank == 1) {
    g_blocked_ns = -1;
    MPI_Count start, end;
    CHECK(MPI_T_pvar_start(session, handle) == MPI_SUCCESS);
    CHECK(MPI_T_source_get_timestamp(0, &start) == MPI_SUCCESS);
    CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(MPI_T_source_get_timestamp(0, &end) == MPI_SUCCESS);
    CHECK(MPI_T_pvar_stop(session, handle) == MPI_SUCCESS);
    double blocked_s = -1;
    CHECK(MPI_T_pvar_read(session, handle, &blocked_s) == MPI_SUCCESS);
    snprintf(check_context_, sizeof check_context_,
             "wait_blocked: the event says %lld ns blocked at %lld, the receive ran %lld to %lld, "
             "the timer gained %.0f ns",
             g_blocked_ns, (long long)g_blocked_at, (long long)start, (long long)end,
             blocked_s * 1e9);
    CHECK(g_blocked_ns > 0 && g_blocked_ns <= end - start);
    CHECK(g_blocked_at >= start + g_blocked_ns && g_blocked_at <= end);
    CHECK(blocked_s * 1e9 > g_blocked_ns - 1000 && blocked_s * 1e9 < g_blocked_ns + 1000);
  }
  CHECK(MPI_T_pvar_session_free(&session) == MPI_SUCCESS);
  free_registration(reg, 32);
}

static Record g_buffered;
static MPI_Count g_dropped;
static int g_dropped_calls;
static void on_dropped(MPI_Count count, MPI_T_event_registration reg, int source_index,
                       MPI_T_cb_safety level, void* user_data) {
  (void)reg;
  CHECK(source_index == 0 && level == MPI_T_CB_REQUIRE_NONE && user_data == &g_buffered);
  /* Reported before the buffered events of the same call are delivered. */
  CHECK(g_buffered.count == 0);
  g_dropped += count;
  g_dropped_calls++;
}

/* A callback that may call any MPI function runs where the MPI call that raised its event ends;
 * a buffer of 2 keeps the first 2 of 5 messages that arrive during one call. */
static void check_buffered(int rank) {
  check_context("buffered events, weft_event_buffer=2, the dropped handler");
  MPI_Info info;
  CHECK_MPI(MPI_Info_create(&info));
  CHECK_MPI(MPI_Info_set(info, "weft_event_buffer", "2"));
  MPI_Comm world = MPI_COMM_WORLD;
  MPI_T_event_registration reg = alloc(g_event_unexpected, &world, info);
  CHECK_MPI(MPI_Info_free(&info));
  MPI_Info used;
  char value[32];
  int flag = 0;
  CHECK(MPI_T_event_handle_get_info(reg, &used) == MPI_SUCCESS);
  CHECK_MPI(MPI_Info_get_string(used, "weft_event_buffer", &(int){sizeof value}, value, &flag));
  CHECK(flag && strcmp(value, "2") == 0);
  CHECK_MPI(MPI_Info_free(&used));
  CHECK(MPI_T_event_register_callback(reg, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL, &g_buffered,
                                      on_unexpected) == MPI_SUCCESS);
  CHECK(MPI_T_event_set_dropped_handler(reg, on_dropped) == MPI_SUCCESS);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  char buf[16] = {0};
  if (rank == 0) {
    CHECK_MPI(MPI_Recv(buf, 1, MPI_CHAR, 1, 20, world, MPI_STATUS_IGNORE));
    for (int t = 21; t <= 25; ++t) CHECK_MPI(MPI_Send(buf, t - 20, MPI_CHAR, 1, t, world));
    CHECK_MPI(MPI_Send(buf, 1, MPI_CHAR, 1, 99, world));
  } else if (rank == 1) {
    MPI_Request done;
    CHECK_MPI(MPI_Irecv(buf, 1, MPI_CHAR, 0, 99, world, &done));
    CHECK_MPI(MPI_Send(buf, 1, MPI_CHAR, 0, 20, world));
    CHECK_MPI(MPI_Wait(&done, MPI_STATUS_IGNORE));
    /* Delivered as MPI_Wait returned (the dropped count first), at level NONE. */
    CHECK(g_buffered.count == 2);
    CHECK(g_buffered.level == MPI_T_CB_REQUIRE_NONE);
    CHECK(g_buffered.seen[0].tag == 21 && g_buffered.seen[1].tag == 22);
    CHECK(g_buffered.seen[1].bytes == 2 && g_buffered.seen[0].timestamp <= g_buffered.seen[1].timestamp);
    CHECK(g_dropped == 3 && g_dropped_calls == 1);
    for (int t = 21; t <= 25; ++t)
      CHECK_MPI(MPI_Recv(buf, 16, MPI_CHAR, 0, t, world, MPI_STATUS_IGNORE));
    CHECK(g_buffered.count == 2 && g_dropped == 3);
  }
  free_registration(reg, 64);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

int main(int argc, char** argv) {
  int provided;
  if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS) return 1;
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size >= 2);
  find_events();
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* the world's region, learnt outside the events */
  check_blocked(rank);
  check_buffered(rank);
  CHECK(g_freed == 32 + 64);
  MPI_Finalize();
  CHECK(MPI_T_finalize() == MPI_SUCCESS);
  if (rank == 0) printf("mpit_event_delivery: ok\n");
  return 0;
}
