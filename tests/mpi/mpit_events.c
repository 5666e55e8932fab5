/* MPI_T events: the event types and the source, registrations bound to a communicator, immediate
 * callbacks (unexpected messages, a collective's algorithm checked against its pvar), and the
 * error codes (mpit_event_delivery.c: blocked waits, buffered callbacks). Needs 2 or more ranks;
 * ranks 0 and 1 talk, the others take part in the collectives. */
#include "mpit_events.h"

static void check_descriptions(void) {
  check_context("event types, the source and categories");
  int num = 0, sources = 0;
  CHECK(MPI_T_event_get_num(&num) == MPI_SUCCESS && num >= 3);
  find_events();
  int n = 0, bind = -1;
  MPI_T_enum enumtype = MPI_T_ENUM_NULL;
  CHECK(MPI_T_event_get_info(g_event_unexpected, NULL, NULL, NULL, NULL, NULL, &n, &enumtype, NULL,
                             NULL, NULL, &bind) == MPI_SUCCESS);
  CHECK(n == 4 && bind == MPI_T_BIND_MPI_COMM && enumtype == MPI_T_ENUM_NULL);
  MPI_Datatype types[8];
  MPI_Aint displs[8];
  n = 8;
  char name[64], desc[512];
  int name_len = sizeof name, desc_len = sizeof desc;
  CHECK(MPI_T_event_get_info(g_event_coll, name, &name_len, NULL, types, displs, &n, &enumtype,
                             NULL, desc, &desc_len, &bind) == MPI_SUCCESS);
  CHECK(strcmp(name, "coll_algorithm") == 0 && desc_len > 20 && n == 4);
  CHECK(types[0] == MPI_INT32_T && types[3] == MPI_INT64_T && displs[3] % 8 == 0);
  CHECK(enumtype != MPI_T_ENUM_NULL);
  int items = 0;
  name_len = sizeof name;
  CHECK(MPI_T_enum_get_info(enumtype, &items, name, &name_len) == MPI_SUCCESS && items > 5);
  CHECK(strcmp(name, "weft_coll_algorithm") == 0);
  CHECK(MPI_T_enum_get_item(enumtype, items, NULL, NULL, NULL) == MPI_T_ERR_INVALID_ITEM);
  CHECK(MPI_T_event_get_info(g_event_blocked, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                             NULL, NULL, &bind) == MPI_SUCCESS &&
        bind == MPI_T_BIND_NO_OBJECT);

  CHECK(MPI_T_source_get_num(&sources) == MPI_SUCCESS && sources == 1);
  MPI_T_source_order order;
  MPI_Count ticks = 0, max_ticks = 0, t0 = 0, t1 = 0;
  name_len = sizeof name;
  CHECK(MPI_T_source_get_info(0, name, &name_len, NULL, NULL, &order, &ticks, &max_ticks, NULL) ==
        MPI_SUCCESS);
  CHECK(strcmp(name, "weft") == 0 && ticks == 1000000000 && max_ticks > 0);
  CHECK(MPI_T_source_get_timestamp(0, &t0) == MPI_SUCCESS);
  usleep(2000);
  CHECK(MPI_T_source_get_timestamp(0, &t1) == MPI_SUCCESS && t1 - t0 >= 2000000);

  /* unexpected_message and wait_blocked in "transport", coll_algorithm in "collectives". */
  int transport = -1, collectives = -1, in_transport = 0, in_coll = 0, listed[16];
  CHECK(MPI_T_category_get_index("transport", &transport) == MPI_SUCCESS);
  CHECK(MPI_T_category_get_index("collectives", &collectives) == MPI_SUCCESS);
  CHECK(MPI_T_category_get_num_events(transport, &in_transport) == MPI_SUCCESS);
  CHECK(MPI_T_category_get_num_events(collectives, &in_coll) == MPI_SUCCESS && in_coll >= 1);
  CHECK(in_transport >= 2 && in_transport <= 16);
  CHECK(MPI_T_category_get_events(transport, in_transport, listed) == MPI_SUCCESS);
  int found = 0;
  for (int i = 0; i < in_transport; ++i)
    found += listed[i] == g_event_unexpected || listed[i] == g_event_blocked;
  CHECK(found == 2);
}

/* Messages sent before their receive is posted, seen by a registration bound to the
 * communicator (not by one bound to another) and by one bound to none. */
static void check_unexpected(int rank) {
  check_context("unexpected_message with immediate callbacks");
  MPI_Comm other;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &other));
  static Record world_rec, any_rec, other_rec;
  MPI_Comm world = MPI_COMM_WORLD;
  MPI_T_event_registration on_world = alloc(g_event_unexpected, &world, MPI_INFO_NULL);
  MPI_T_event_registration on_any = alloc(g_event_unexpected, NULL, MPI_INFO_NULL);
  MPI_T_event_registration on_other = alloc(g_event_unexpected, &other, MPI_INFO_NULL);
  CHECK(MPI_T_event_register_callback(on_world, MPI_T_CB_REQUIRE_MPI_RESTRICTED, MPI_INFO_NULL,
                                      &world_rec, on_unexpected) == MPI_SUCCESS);
  CHECK(MPI_T_event_register_callback(on_any, MPI_T_CB_REQUIRE_THREAD_SAFE, MPI_INFO_NULL,
                                      &any_rec, on_unexpected) == MPI_SUCCESS);
  CHECK(MPI_T_event_register_callback(on_other, MPI_T_CB_REQUIRE_MPI_RESTRICTED, MPI_INFO_NULL,
                                      &other_rec, on_unexpected) == MPI_SUCCESS);
  MPI_Count before = 0, after = 0;
  CHECK(MPI_T_source_get_timestamp(0, &before) == MPI_SUCCESS);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  char buf[64] = {0};
  if (rank == 0) {
    for (int t = 11; t <= 13; ++t) CHECK_MPI(MPI_Send(buf, 8 * (t - 10), MPI_CHAR, 1, t, world));
    CHECK_MPI(MPI_Send(buf, 1, MPI_CHAR, 1, 99, world));
  } else if (rank == 1) {
    CHECK_MPI(MPI_Recv(buf, 1, MPI_CHAR, 0, 99, world, MPI_STATUS_IGNORE));
    for (int t = 11; t <= 13; ++t)
      CHECK_MPI(MPI_Recv(buf, 64, MPI_CHAR, 0, t, world, MPI_STATUS_IGNORE));
  }
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK(MPI_T_source_get_timestamp(0, &after) == MPI_SUCCESS);
  if (rank == 1) {
    Message m[64];
    CHECK(with_tags(&world_rec, 11, 13, m) == 3);
    for (int i = 0; i < 3; ++i) {
      CHECK(m[i].source == 0 && m[i].tag == 11 + i && m[i].bytes == 8 * (i + 1));
      CHECK(m[i].context == m[0].context);
      CHECK(m[i].timestamp >= before && m[i].timestamp <= after);
      if (i > 0) CHECK(m[i].timestamp >= m[i - 1].timestamp);
    }
    /* Immediate, at the level registered (or the next one registered above what is needed). */
    CHECK(world_rec.level == MPI_T_CB_REQUIRE_MPI_RESTRICTED);
    CHECK(any_rec.level == MPI_T_CB_REQUIRE_THREAD_SAFE);
    Message a[64];
    CHECK(with_tags(&any_rec, 11, 13, a) == 3 && a[2].timestamp == m[2].timestamp);
    CHECK(other_rec.count == 0);
    /* The instance is gone once its callback returned. */
    int x;
    CHECK(MPI_T_event_read(g_stale_instance, 0, &x) == MPI_T_ERR_INVALID_HANDLE);
  }
  /* The same on the other communicator: only its registration (and the unbound one) see it. */
  const int world_seen = world_rec.count;
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  if (rank == 0) {
    CHECK_MPI(MPI_Send(buf, 5, MPI_CHAR, 1, 14, other));
    CHECK_MPI(MPI_Send(buf, 1, MPI_CHAR, 1, 98, other));
  } else if (rank == 1) {
    CHECK_MPI(MPI_Recv(buf, 1, MPI_CHAR, 0, 98, other, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Recv(buf, 64, MPI_CHAR, 0, 14, other, MPI_STATUS_IGNORE));
    Message o[64], a[64], w[64];
    CHECK(with_tags(&other_rec, 14, 14, o) == 1 && o[0].bytes == 5);
    CHECK(with_tags(&any_rec, 14, 14, a) == 1 && a[0].context == o[0].context);
    CHECK(with_tags(&world_rec, 11, 11, w) == 1 && w[0].context != o[0].context);
    CHECK(world_rec.count == world_seen);
  }
  free_registration(on_world, 1);
  free_registration(on_any, 2);
  free_registration(on_other, 4);
  CHECK_MPI(MPI_Comm_free(&other));
}

typedef struct {
  int algorithm, context, size;
  long long bytes;
  int calls;
} CollRecord;

static void on_coll(MPI_T_event_instance inst, MPI_T_event_registration reg, MPI_T_cb_safety level,
                    void* user_data) {
  (void)reg;
  (void)level;
  CollRecord* r = user_data;
  MPI_Aint displs[4];
  int n = 4;
  CHECK(MPI_T_event_get_info(g_event_coll, NULL, NULL, NULL, NULL, displs, &n, NULL, NULL, NULL,
                             NULL, NULL) == MPI_SUCCESS);
  unsigned char data[64];
  CHECK(MPI_T_event_copy(inst, data) == MPI_SUCCESS);
  memcpy(&r->algorithm, data + displs[0], sizeof(int));
  memcpy(&r->context, data + displs[1], sizeof(int));
  memcpy(&r->size, data + displs[2], sizeof(int));
  memcpy(&r->bytes, data + displs[3], sizeof(long long));
  r->calls++;
}

/* The algorithm an allreduce reports is the one whose MPI_T call counter went up. */
static void check_coll(int size) {
  check_context("coll_algorithm against the coll_*_calls counter");
  static CollRecord rec, dup_rec;
  MPI_Comm world = MPI_COMM_WORLD, other;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &other));
  /* The first blocking collective on a communicator learns its node region with a broadcast of
   * its own (coll/node_region.hpp): made before counting. */
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Barrier(other));
  MPI_T_event_registration reg = alloc(g_event_coll, &world, MPI_INFO_NULL);
  MPI_T_event_registration on_other = alloc(g_event_coll, &other, MPI_INFO_NULL);
  CHECK(MPI_T_event_register_callback(reg, MPI_T_CB_REQUIRE_MPI_RESTRICTED, MPI_INFO_NULL, &rec,
                                      on_coll) == MPI_SUCCESS);
  CHECK(MPI_T_event_register_callback(on_other, MPI_T_CB_REQUIRE_MPI_RESTRICTED, MPI_INFO_NULL,
                                      &dup_rec, on_coll) == MPI_SUCCESS);
  double in[4] = {1, 2, 3, 4}, out[4];
  CHECK_MPI(MPI_Allreduce(in, out, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
  CHECK(rec.calls == 1 && rec.size == size && rec.bytes == 4 * (long long)sizeof(double));
  CHECK(dup_rec.calls == 0);
  MPI_T_enum enumtype;
  CHECK(MPI_T_event_get_info(g_event_coll, NULL, NULL, NULL, NULL, NULL, NULL, &enumtype, NULL,
                             NULL, NULL, NULL) == MPI_SUCCESS);
  char item[96], pvar[128];
  int item_len = sizeof item, value = -1;
  CHECK(MPI_T_enum_get_item(enumtype, rec.algorithm, &value, item, &item_len) == MPI_SUCCESS);
  CHECK(value == rec.algorithm && strncmp(item, "allreduce/", 10) == 0);
  /* Its counter, "coll_allreduce_<algorithm>_calls", counts a second call; the event says so. */
  snprintf(pvar, sizeof pvar, "coll_allreduce_%s_calls", item + 10);
  int pvar_index = -1, count = 0;
  CHECK(MPI_T_pvar_get_index(pvar, MPI_T_PVAR_CLASS_COUNTER, &pvar_index) == MPI_SUCCESS);
  MPI_T_pvar_session session;
  MPI_T_pvar_handle handle;
  CHECK(MPI_T_pvar_session_create(&session) == MPI_SUCCESS);
  CHECK(MPI_T_pvar_handle_alloc(session, pvar_index, NULL, &handle, &count) == MPI_SUCCESS);
  CHECK_MPI(MPI_Allreduce(in, out, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
  unsigned long long calls = 0;
  CHECK(MPI_T_pvar_read(session, handle, &calls) == MPI_SUCCESS && calls == 1);
  CHECK(rec.calls == 2 && rec.algorithm == value);
  CHECK(MPI_T_pvar_session_free(&session) == MPI_SUCCESS);
  /* The other communicator's registration sees its calls, with its own context. */
  CHECK_MPI(MPI_Bcast(in, 2, MPI_DOUBLE, 0, other));
  CHECK(dup_rec.calls == 1 && dup_rec.context != rec.context && dup_rec.bytes == 16);
  item_len = sizeof item;
  CHECK(MPI_T_enum_get_item(enumtype, dup_rec.algorithm, NULL, item, &item_len) == MPI_SUCCESS);
  CHECK(strncmp(item, "bcast/", 6) == 0);
  free_registration(reg, 8);
  free_registration(on_other, 16);
  CHECK_MPI(MPI_Comm_free(&other));
}

static void check_errors(void) {
  check_context("error codes of the event calls");
  int num = 0, index = 0;
  CHECK(MPI_T_event_get_num(&num) == MPI_SUCCESS);
  CHECK(MPI_T_event_get_info(num, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                             NULL) == MPI_T_ERR_INVALID_INDEX);
  CHECK(MPI_T_event_get_info(-1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                             NULL) == MPI_T_ERR_INVALID_INDEX);
  CHECK(MPI_T_event_get_index("no_such_event", &index) == MPI_T_ERR_INVALID_NAME);
  MPI_T_event_registration reg = MPI_T_EVENT_REGISTRATION_NULL;
  CHECK(MPI_T_event_handle_alloc(num, NULL, MPI_INFO_NULL, &reg) == MPI_T_ERR_INVALID_INDEX);
  MPI_Comm null_comm = MPI_COMM_NULL;
  CHECK(MPI_T_event_handle_alloc(g_event_unexpected, &null_comm, MPI_INFO_NULL, &reg) ==
        MPI_T_ERR_INVALID_HANDLE);
  MPI_Info info;
  CHECK_MPI(MPI_Info_create(&info));
  CHECK_MPI(MPI_Info_set(info, "weft_event_buffer", "lots"));
  CHECK(MPI_T_event_handle_alloc(g_event_blocked, NULL, info, &reg) == MPI_T_ERR_INVALID);
  CHECK_MPI(MPI_Info_free(&info));
  const MPI_T_event_registration bad = MPI_T_EVENT_REGISTRATION_NULL;
  CHECK(MPI_T_event_register_callback(bad, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL, NULL, NULL) ==
        MPI_T_ERR_INVALID_HANDLE);
  CHECK(MPI_T_event_set_dropped_handler(bad, NULL) == MPI_T_ERR_INVALID_HANDLE);
  CHECK(MPI_T_event_handle_free(bad, NULL, NULL) == MPI_T_ERR_INVALID_HANDLE);
  reg = alloc(g_event_blocked, NULL, MPI_INFO_NULL);
  CHECK(MPI_T_event_register_callback(reg, (MPI_T_cb_safety)9, MPI_INFO_NULL, NULL, NULL) ==
        MPI_T_ERR_INVALID);
  free_registration(reg, 128);
  int x = 0;
  CHECK(MPI_T_event_read((MPI_T_event_instance)&x, 0, &x) == MPI_T_ERR_INVALID_HANDLE);
  CHECK(MPI_T_event_copy((MPI_T_event_instance)&x, &x) == MPI_T_ERR_INVALID_HANDLE);
  MPI_Count t;
  CHECK(MPI_T_source_get_timestamp(1, &t) == MPI_T_ERR_INVALID_INDEX);
  CHECK(MPI_T_source_get_info(-1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL) ==
        MPI_T_ERR_INVALID_INDEX);
  /* Each class has its message. */
  const int classes[] = {MPI_T_ERR_INVALID_INDEX, MPI_T_ERR_INVALID_HANDLE, MPI_T_ERR_INVALID_NAME,
                         MPI_T_ERR_INVALID_ITEM, MPI_T_ERR_INVALID};
  const char* names[] = {"MPI_T_ERR_INVALID_INDEX", "MPI_T_ERR_INVALID_HANDLE",
                         "MPI_T_ERR_INVALID_NAME", "MPI_T_ERR_INVALID_ITEM", "MPI_T_ERR_INVALID"};
  for (int i = 0; i < 5; ++i) {
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    CHECK(MPI_Error_string(classes[i], text, &len) == MPI_SUCCESS);
    CHECK(strncmp(text, names[i], strlen(names[i])) == 0 && len > (int)strlen(names[i]) + 5);
  }
}

int main(int argc, char** argv) {
  int provided;
  if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS) return 1;
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size >= 2);
  check_descriptions();
  check_unexpected(rank);
  check_coll(size);
  check_errors();
  CHECK(g_freed == 1 + 2 + 4 + 8 + 16 + 128);
  MPI_Finalize();
  CHECK(MPI_T_finalize() == MPI_SUCCESS);
  if (rank == 0) printf("mpit_events: ok\n");
  return 0;
}
