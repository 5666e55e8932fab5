/* Node-aware (two-level) collectives across the nodes WEFT_NODE_MAP names (several on one
 * machine), or the launcher's hosts where it is unset (tests/multihost). On MPI_COMM_WORLD and
 * on communicators split from it, duplicated and created from a group: barrier, bcast, reduce,
 * allreduce and allgather(v) give the right results for several sizes, ops and roots, in place
 * too; and, by the MPI_T counters of calls per algorithm, with WEFT_<COLL>_ALGORITHM=hierarchical
 * (honoured only where a communicator spans nodes) the two-level algorithm ran exactly where the
 * communicator spans nodes, except in a nonblocking call before the first blocking one on a
 * communicator whose nodes nobody has told it yet. With argument bad-map: an invalid WEFT_NODE_MAP
 * is an MPI error. */
#include <stdlib.h>

#include "check.h"

#define NAME_LEN 64
#define NUM_COLLS 5
static const char* const kColls[NUM_COLLS] = {"barrier", "bcast", "reduce", "allreduce",
                                              "allgather"};
enum { BARRIER, BCAST, REDUCE, ALLREDUCE, ALLGATHER };

static int world_rank, world_size;
static char* node_names; /* world rank r's node at node_names + r * NAME_LEN */
static int forced;       /* WEFT_<COLL>_ALGORITHM=hierarchical for all five */
static MPI_T_pvar_session session;
static MPI_T_pvar_handle counters[NUM_COLLS];

/* This rank's node: its WEFT_NODE_MAP entry (the names repeat over the ranks), else its host. */
static void my_node(char* name) {
  const char* map = getenv("WEFT_NODE_MAP");
  memset(name, 0, NAME_LEN);
  if (map == NULL || strcmp(map, "auto") == 0) {
    int len = 0;
    char host[MPI_MAX_PROCESSOR_NAME];
    MPI_Get_processor_name(host, &len);
    memcpy(name, host, strnlen(host, NAME_LEN - 1));
    return;
  }
  int entries = 1;
  for (const char* c = map; *c; ++c) entries += *c == ',';
  const char* at = map;
  for (int k = world_rank % entries; k > 0; --k) at = strchr(at, ',') + 1;
  const size_t len = strcspn(at, ",");
  CHECK(len > 0 && len < NAME_LEN);
  memcpy(name, at, len);
}

/* Whether the members of `comm` run on more than one node. */
static int spans_nodes(MPI_Comm comm) {
  int size = 0;
  MPI_Comm_size(comm, &size);
  MPI_Group group, world;
  MPI_Comm_group(comm, &group);
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int* ranks = malloc(sizeof(int) * (size_t)size);
  int* in_world = malloc(sizeof(int) * (size_t)size);
  for (int r = 0; r < size; ++r) ranks[r] = r;
  MPI_Group_translate_ranks(group, size, ranks, world, in_world);
  int spans = 0;
  for (int r = 1; r < size; ++r)
    spans = spans || strcmp(node_names + (size_t)in_world[r] * NAME_LEN,
                            node_names + (size_t)in_world[0] * NAME_LEN) != 0;
  MPI_Group_free(&group);
  MPI_Group_free(&world);
  free(ranks);
  free(in_world);
  return spans;
}

static unsigned long long calls(int coll) {
  unsigned long long v = 0;
  CHECK(MPI_T_pvar_read(session, counters[coll], &v) == MPI_SUCCESS);
  return v;
}

/* The two-level algorithm ran `expected` times since `before` (when forced; the model's own
 * choice is not checked). */
static void ran(int coll, unsigned long long before, unsigned long long expected) {
  if (forced) {
    check_context("%s: calls of the hierarchical algorithm", kColls[coll]);
    CHECK(calls(coll) - before == expected);
  }
}

static int value(int rank, long i, int salt) {
  return (int)((rank * 7919L + i * 31 + salt) % 1000003);
}

static void check_bcast(MPI_Comm comm, int rank, int size, int spans) {
  const long counts[] = {1, 1000, 100000};
  for (int c = 0; c < 3; ++c) {
    for (int root = 0; root < size; root += size > 3 ? size / 3 + 1 : 1) {
      const long n = counts[c];
      check_context("MPI_Bcast of %ld ints from root %d of %d", n, root, size);
      int* buf = malloc(sizeof(int) * (size_t)n);
      for (long i = 0; i < n; ++i) buf[i] = rank == root ? value(root, i, c) : -1;
      const unsigned long long before = calls(BCAST);
      CHECK_MPI(MPI_Bcast(buf, (int)n, MPI_INT, root, comm));
      ran(BCAST, before, (unsigned long long)spans);
      for (long i = 0; i < n; ++i) CHECK(buf[i] == value(root, i, c));
      free(buf);
    }
  }
}

static void check_reduce(MPI_Comm comm, int rank, int size, int spans) {
  const long counts[] = {1, 777, 65536};
  for (int c = 0; c < 3; ++c) {
    for (int root = size - 1; root >= 0; root -= size > 3 ? size / 3 + 1 : 1) {
      const long n = counts[c];
      const int in_place = rank == root && c == 1;
      check_context("MPI_Reduce(MPI_SUM) of %ld ints to root %d of %d%s", n, root, size,
                    in_place ? ", in place" : "");
      int* in = malloc(sizeof(int) * (size_t)n);
      int* out = malloc(sizeof(int) * (size_t)n);
      for (long i = 0; i < n; ++i) in[i] = out[i] = value(rank, i, c);
      const unsigned long long before = calls(REDUCE);
      CHECK_MPI(
          MPI_Reduce(in_place ? MPI_IN_PLACE : in, out, (int)n, MPI_INT, MPI_SUM, root, comm));
      ran(REDUCE, before, (unsigned long long)spans);
      if (rank == root) {
        for (long i = 0; i < n; ++i) {
          int want = 0;
          for (int r = 0; r < size; ++r) want += value(r, i, c);
          CHECK(out[i] == want);
        }
      }
      free(in);
      free(out);
    }
  }
}

static void check_allreduce(MPI_Comm comm, int rank, int size, int spans) {
  const long counts[] = {1, 1000, 70000};
  for (int c = 0; c < 3; ++c) {
    const long n = counts[c];
    int* sum = malloc(sizeof(int) * (size_t)n);
    double* max = malloc(sizeof(double) * (size_t)n);
    for (long i = 0; i < n; ++i) {
      sum[i] = value(rank, i, c);
      max[i] = (double)((rank * 13 + i) % (size + 5));
    }
    check_context("MPI_Allreduce(MPI_SUM, in place) of %ld ints on %d ranks", n, size);
    unsigned long long before = calls(ALLREDUCE);
    CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, sum, (int)n, MPI_INT, MPI_SUM, comm));
    check_context("MPI_Iallreduce(MPI_MAX) of %ld doubles on %d ranks", n, size);
    MPI_Request req;
    CHECK_MPI(MPI_Iallreduce(MPI_IN_PLACE, max, (int)n, MPI_DOUBLE, MPI_MAX, comm, &req));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    ran(ALLREDUCE, before, 2 * (unsigned long long)spans);
    for (long i = 0; i < n; ++i) {
      int want = 0;
      double top = 0;
      for (int r = 0; r < size; ++r) {
        want += value(r, i, c);
        const double x = (double)((r * 13 + i) % (size + 5));
        top = x > top ? x : top;
      }
      CHECK(sum[i] == want);
      CHECK(max[i] == top);
    }
    free(sum);
    free(max);
  }
}

static void check_allgather(MPI_Comm comm, int rank, int size, int spans) {
  int* counts = malloc(sizeof(int) * (size_t)size);
  int* displs = malloc(sizeof(int) * (size_t)size);
  for (int v = 0; v < 3; ++v) {
    long total = 0; /* v 0, 1: equal blocks of 1 and 300; v 2: uneven, zeros too, reversed */
    for (int r = 0; r < size; ++r) counts[r] = v == 0 ? 1 : v == 1 ? 300 : (r * 5 + 2) % 4 * 50;
    for (int r = size - 1; r >= 0; --r) {
      displs[r] = (int)total;
      total += counts[r];
    }
    int* out = malloc(sizeof(int) * (size_t)(total + 1));
    int* mine = malloc(sizeof(int) * (size_t)(counts[rank] + 1));
    for (int i = 0; i < counts[rank]; ++i) mine[i] = value(rank, i, v);
    check_context("MPI_Allgather%s of %d ints on %d ranks", v == 2 ? "v" : "", counts[rank], size);
    const unsigned long long before = calls(ALLGATHER);
    if (v < 2) {
      CHECK_MPI(MPI_Allgather(mine, counts[0], MPI_INT, out, counts[0], MPI_INT, comm));
      for (int r = 0; r < size; ++r) displs[r] = r * counts[0];
    } else {
      CHECK_MPI(MPI_Allgatherv(mine, counts[rank], MPI_INT, out, counts, displs, MPI_INT, comm));
    }
    ran(ALLGATHER, before, (unsigned long long)spans);
    for (int r = 0; r < size; ++r)
      for (int i = 0; i < counts[r]; ++i) CHECK(out[displs[r] + i] == value(r, i, v));
    free(out);
    free(mine);
  }
  free(counts);
  free(displs);
}

static void check_comm(MPI_Comm comm, const char* what) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const int spans = spans_nodes(comm);
  check_context("MPI_Barrier on %s", what);
  const unsigned long long before = calls(BARRIER);
  CHECK_MPI(MPI_Barrier(comm));
  ran(BARRIER, before, (unsigned long long)spans);
  check_bcast(comm, rank, size, spans);
  check_reduce(comm, rank, size, spans);
  check_allreduce(comm, rank, size, spans);
  check_allgather(comm, rank, size, spans);
}

/* With a WEFT_NODE_MAP that names an empty node, the first blocking collective fails with
 * MPI_ERR_OTHER naming the setting; the communicator then goes on without nodes. */
static int check_bad_map(void) {
  check_context("MPI_Barrier with WEFT_NODE_MAP=%s", getenv("WEFT_NODE_MAP"));
  const int rc = MPI_Barrier(MPI_COMM_WORLD);
  CHECK(error_class(rc) == MPI_ERR_OTHER);
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  CHECK(strstr(text, "WEFT_NODE_MAP") != NULL && strstr(text, "empty node name") != NULL);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  if (world_rank == 0) printf("coll_nodes: a bad WEFT_NODE_MAP is refused: %s\n", text);
  MPI_Finalize();
  return 0;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  if (argc > 1 && strcmp(argv[1], "bad-map") == 0) return check_bad_map();
  int provided;
  CHECK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) == MPI_SUCCESS);
  CHECK(MPI_T_pvar_session_create(&session) == MPI_SUCCESS);
  forced = 1;
  for (int c = 0; c < NUM_COLLS; ++c) {
    char name[64];
    snprintf(name, sizeof name, "WEFT_%s_ALGORITHM", kColls[c]);
    for (char* p = name; *p; ++p) *p = (char)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p);
    const char* setting = getenv(name);
    forced = forced && setting != NULL && strcmp(setting, "hierarchical") == 0;
    snprintf(name, sizeof name, "coll_%s_hierarchical_calls", kColls[c]);
    int index = -1, count = 0;
    CHECK(MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_COUNTER, &index) == MPI_SUCCESS);
    CHECK(MPI_T_pvar_handle_alloc(session, index, NULL, &counters[c], &count) == MPI_SUCCESS);
  }
  char mine[NAME_LEN];
  my_node(mine);
  node_names = malloc((size_t)world_size * NAME_LEN);
  /* Also the world's first blocking collective: it learns the world's nodes. */
  CHECK_MPI(MPI_Allgather(mine, NAME_LEN, MPI_CHAR, node_names, NAME_LEN, MPI_CHAR, MPI_COMM_WORLD));

  check_comm(MPI_COMM_WORLD, "MPI_COMM_WORLD");
  MPI_Comm parity, reversed, dup;
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, world_rank % 2, world_rank, &parity));
  check_comm(parity, "ranks of one parity");
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, world_size - world_rank, &reversed));
  check_comm(reversed, "the world in reverse order");
  CHECK_MPI(MPI_Comm_dup(reversed, &dup));
  check_comm(dup, "a duplicate of the reversed world");

  /* A communicator created from a group learns its nodes at its first blocking collective: a
   * nonblocking call before that one runs a flat algorithm. */
  MPI_Group world_group, odd_first;
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  int* order = malloc(sizeof(int) * (size_t)world_size);
  int k = 0;
  for (int r = 1; r < world_size; r += 2) order[k++] = r;
  for (int r = 0; r < world_size; r += 2) order[k++] = r;
  MPI_Group_incl(world_group, world_size, order, &odd_first);
  MPI_Comm created;
  CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, odd_first, 5, &created));
  int x = 1;
  check_context("MPI_Iallreduce first on a communicator created from a group");
  unsigned long long before = calls(ALLREDUCE);
  MPI_Request req;
  CHECK_MPI(MPI_Iallreduce(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_SUM, created, &req));
  CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
  CHECK(x == world_size);
  ran(ALLREDUCE, before, 0);
  check_comm(created, "a communicator created from a group, odd ranks first");

  MPI_Group_free(&world_group);
  MPI_Group_free(&odd_first);
  free(order);
  MPI_Comm_free(&created);
  MPI_Comm_free(&dup);
  MPI_Comm_free(&reversed);
  MPI_Comm_free(&parity);
  for (int c = 0; c < NUM_COLLS; ++c) MPI_T_pvar_handle_free(session, &counters[c]);
  MPI_T_pvar_session_free(&session);
  MPI_T_finalize();
  free(node_names);
  if (world_rank == 0)
    printf("coll_nodes: ok on %d ranks (%s)\n", world_size, forced ? "forced" : "auto");
  MPI_Finalize();
  return 0;
}
