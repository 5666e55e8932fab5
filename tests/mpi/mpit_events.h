/* Shared by the MPI_T event tests (mpit_events.c, mpit_event_delivery.c): what an
 * unexpected_message callback records, the event indices, and registrations that are freed
 * with a weight their free callback adds up (so a test can tell each one was freed once). */
#ifndef WEFT_TESTS_MPIT_EVENTS_H
#define WEFT_TESTS_MPIT_EVENTS_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

typedef struct {
  int source, tag, context;
  long long bytes;
  MPI_Count timestamp;
} Message;

typedef struct {
  Message seen[64];
  int count;
  int level; /* the safety level the callback was called at */
} Record;

static int g_event_unexpected, g_event_coll, g_event_blocked;
static MPI_T_event_instance g_stale_instance;

static int event_index(const char* name) {
  int index = -1;
  CHECK(MPI_T_event_get_index(name, &index) == MPI_SUCCESS);
  return index;
}

/* Reads an unexpected_message instance element by element and as a whole: both must agree. */
static void __attribute__((unused)) on_unexpected(MPI_T_event_instance inst, MPI_T_event_registration reg,
                          MPI_T_cb_safety level, void* user_data) {
  (void)reg;
  Record* r = user_data;
  int source, tag, context;
  long long bytes;
  CHECK(MPI_T_event_read(inst, 0, &source) == MPI_SUCCESS);
  CHECK(MPI_T_event_read(inst, 1, &tag) == MPI_SUCCESS);
  CHECK(MPI_T_event_read(inst, 2, &context) == MPI_SUCCESS);
  CHECK(MPI_T_event_read(inst, 3, &bytes) == MPI_SUCCESS);
  CHECK(MPI_T_event_read(inst, 4, &bytes) == MPI_T_ERR_INVALID_INDEX);
  CHECK(MPI_T_event_read(inst, -1, &bytes) == MPI_T_ERR_INVALID_INDEX);
  MPI_Datatype types[4];
  MPI_Aint displs[4];
  int n = 4;
  CHECK(MPI_T_event_get_info(g_event_unexpected, NULL, NULL, NULL, types, displs, &n, NULL, NULL,
                             NULL, NULL, NULL) == MPI_SUCCESS);
  unsigned char copy[64];
  CHECK(MPI_T_event_copy(inst, copy) == MPI_SUCCESS);
  int c_source, c_tag;
  long long c_bytes;
  memcpy(&c_source, copy + displs[0], sizeof c_source);
  memcpy(&c_tag, copy + displs[1], sizeof c_tag);
  memcpy(&c_bytes, copy + displs[3], sizeof c_bytes);
  CHECK(c_source == source && c_tag == tag && c_bytes == bytes);
  int src_index = -1;
  CHECK(MPI_T_event_get_source(inst, &src_index) == MPI_SUCCESS && src_index == 0);
  Message m = {source, tag, context, bytes, 0};
  CHECK(MPI_T_event_get_timestamp(inst, &m.timestamp) == MPI_SUCCESS);
  if (r->count < 64) r->seen[r->count++] = m;
  r->level = level;
  g_stale_instance = inst;
}

/* The messages of `r` with tag in [first, last], in order. */
static int __attribute__((unused)) with_tags(const Record* r, int first, int last, Message* out) {
  int n = 0;
  for (int i = 0; i < r->count; ++i)
    if (r->seen[i].tag >= first && r->seen[i].tag <= last) out[n++] = r->seen[i];
  return n;
}

static MPI_T_event_registration alloc(int event, MPI_Comm* comm, MPI_Info info) {
  MPI_T_event_registration reg = MPI_T_EVENT_REGISTRATION_NULL;
  CHECK(MPI_T_event_handle_alloc(event, comm, info, &reg) == MPI_SUCCESS);
  CHECK(reg != MPI_T_EVENT_REGISTRATION_NULL);
  return reg;
}

static int g_freed;
static void on_free(MPI_T_event_registration reg, MPI_T_cb_safety level, void* user_data) {
  (void)reg;
  (void)level;
  g_freed += *(int*)user_data;
}

static void free_registration(MPI_T_event_registration reg, int weight) {
  const int before = g_freed;
  CHECK(MPI_T_event_handle_free(reg, &weight, on_free) == MPI_SUCCESS);
  CHECK(g_freed == before + weight);
  CHECK(MPI_T_event_handle_free(reg, NULL, NULL) == MPI_T_ERR_INVALID_HANDLE);
}

/* The indices of Weft's three events. */
static void find_events(void) {
  g_event_unexpected = event_index("unexpected_message");
  g_event_coll = event_index("coll_algorithm");
  g_event_blocked = event_index("wait_blocked");
}

#endif
