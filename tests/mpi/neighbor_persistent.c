/* Nonblocking (MPI_Ineighbor_*) and persistent (MPI_Neighbor_*_init) neighbourhood collectives
 * at any world size: all five started at once on a 2-D torus and on a distributed graph that
 * lists a rank twice, then each persistent form started several times with new data, also with
 * MPI_Startall, with results checked exactly. */
#include "check.h"

#define UNTOUCHED (-1)
#define MAXN 6

static int wrap(int r, int n) { return ((r % n) + n) % n; }

/* A communicator's neighbourhood as the tests need it: sources, destinations, and for each
 * received block the sender's block that lands there. */
struct hood {
  MPI_Comm comm;
  int in, out, sources[MAXN], dests[MAXN], origin[MAXN];
};

static struct hood torus(int size) {
  struct hood h;
  int dims[2] = {0, 0}, periods[2] = {1, 1};
  MPI_Dims_create(size, 2, dims);
  CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &h.comm));
  h.in = h.out = 4;
  for (int d = 0; d < 2; ++d)
    MPI_Cart_shift(h.comm, d, 1, &h.sources[2 * d], &h.sources[2 * d + 1]);
  for (int i = 0; i < 4; ++i) {
    h.dests[i] = h.sources[i];
    h.origin[i] = i ^ 1; /* block s of the sender is block s^1 of the receiver */
  }
  return h;
}

/* Rank r sends to r+1 twice and to r+3 once; it hears from r-1 twice and from r-3 once. */
static struct hood repeated(int rank, int size) {
  struct hood h;
  h.in = h.out = 3;
  const int d[3] = {wrap(rank + 1, size), wrap(rank + 3, size), wrap(rank + 1, size)};
  const int s[3] = {wrap(rank - 1, size), wrap(rank - 3, size), wrap(rank - 1, size)};
  for (int i = 0; i < 3; ++i) {
    h.dests[i] = d[i];
    h.sources[i] = s[i];
  }
  CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 3, h.sources, MPI_UNWEIGHTED, 3, h.dests,
                                           MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &h.comm));
  /* The k-th block from sender s is s's k-th block to me (s's destinations are s+1, s+3, s+1). */
  for (int i = 0; i < 3; ++i) {
    int k = 0;
    for (int x = 0; x < i; ++x) k += h.sources[x] == h.sources[i];
    const int sender = h.sources[i];
    const int theirs[3] = {wrap(sender + 1, size), wrap(sender + 3, size), wrap(sender + 1, size)};
    for (int j = 0; j < 3; ++j)
      if (theirs[j] == rank && k-- == 0) h.origin[i] = j;
  }
  return h;
}

static int value(int round, int r, int j, int k) { return round * 1000000 + r * 1000 + j * 10 + k; }

/* Buffers of one round of all five collectives, 2 ints per block (v/w: j % 3 ints). */
struct round_bufs {
  int ag_send, ag_recv[MAXN];
  int agv_send[2], agv_recv[2 * MAXN], agv_counts[MAXN], agv_displs[MAXN];
  int a2a_send[2 * MAXN], a2a_recv[2 * MAXN];
  int v_send[2 * MAXN], v_recv[2 * MAXN], scounts[MAXN], sdispls[MAXN], rcounts[MAXN],
      rdispls[MAXN];
  int w_send[2 * MAXN], w_recv[2 * MAXN];
  MPI_Aint wsd[MAXN], wrd[MAXN];
  MPI_Datatype types[MAXN];
};

static void fill(struct round_bufs* b, const struct hood* h, int round, int rank) {
  b->ag_send = value(round, rank, 0, 0);
  b->agv_send[0] = value(round, rank, 0, 0);
  b->agv_send[1] = value(round, rank, 0, 1);
  for (int j = 0; j < h->out; ++j) {
    for (int k = 0; k < 2; ++k) {
      b->a2a_send[2 * j + k] = value(round, rank, j, k);
      b->v_send[2 * j + k] = value(round, rank, j, k);
      b->w_send[2 * j + k] = value(round, rank, j, k);
    }
    b->scounts[j] = j % 3;
    b->sdispls[j] = 2 * j;
    b->wsd[j] = (MPI_Aint)(2 * j * sizeof(int));
    b->types[j] = MPI_INT;
  }
  for (int i = 0; i < h->in; ++i) {
    b->agv_counts[i] = 2;
    b->agv_displs[i] = 2 * (h->in - 1 - i); /* reversed */
    b->rcounts[i] = h->origin[i] % 3;
    b->rdispls[i] = 2 * (h->in - 1 - i);
    b->wrd[i] = (MPI_Aint)(2 * i * sizeof(int));
  }
  for (int x = 0; x < 2 * MAXN; ++x)
    b->agv_recv[x] = b->a2a_recv[x] = b->v_recv[x] = b->w_recv[x] = UNTOUCHED;
  for (int x = 0; x < MAXN; ++x) b->ag_recv[x] = UNTOUCHED;
}

static void check(const struct round_bufs* b, const struct hood* h, int round) {
  for (int i = 0; i < h->in; ++i) {
    const int s = h->sources[i], j = h->origin[i];
    check_context("round %d, block %d from rank %d (its block %d)", round, i, s, j);
    CHECK(b->ag_recv[i] == value(round, s, 0, 0));
    for (int k = 0; k < 2; ++k) {
      CHECK(b->agv_recv[b->agv_displs[i] + k] == value(round, s, 0, k));
      CHECK(b->a2a_recv[2 * i + k] == value(round, s, j, k));
      CHECK(b->w_recv[2 * i + k] == (k < j % 3 ? value(round, s, j, k) : UNTOUCHED));
      CHECK(b->v_recv[b->rdispls[i] + k] == (k < j % 3 ? value(round, s, j, k) : UNTOUCHED));
    }
  }
  check_context("%s", "");
}

/* All five as nonblocking calls, started together. */
static void nonblocking(const struct hood* h, int rank) {
  struct round_bufs b;
  MPI_Request r[5];
  fill(&b, h, 0, rank);
  /* The w-variant here moves j % 3 ints per block, at byte displacements. */
  CHECK_MPI(MPI_Ineighbor_allgather(&b.ag_send, 1, MPI_INT, b.ag_recv, 1, MPI_INT, h->comm, &r[0]));
  CHECK_MPI(MPI_Ineighbor_allgatherv(b.agv_send, 2, MPI_INT, b.agv_recv, b.agv_counts, b.agv_displs,
                                     MPI_INT, h->comm, &r[1]));
  CHECK_MPI(MPI_Ineighbor_alltoall(b.a2a_send, 2, MPI_INT, b.a2a_recv, 2, MPI_INT, h->comm, &r[2]));
  CHECK_MPI(MPI_Ineighbor_alltoallv(b.v_send, b.scounts, b.sdispls, MPI_INT, b.v_recv, b.rcounts,
                                    b.rdispls, MPI_INT, h->comm, &r[3]));
  CHECK_MPI(MPI_Ineighbor_alltoallw(b.w_send, b.scounts, b.wsd, b.types, b.w_recv, b.rcounts, b.wrd,
                                    b.types, h->comm, &r[4]));
  CHECK_MPI(MPI_Waitall(5, r, MPI_STATUSES_IGNORE));
  check(&b, h, 0);
}

/* All five as persistent requests, started round after round with new data. */
static void persistent(const struct hood* h, int rank) {
  struct round_bufs b;
  MPI_Request r[5];
  fill(&b, h, 1, rank);
  CHECK_MPI(MPI_Neighbor_allgather_init(&b.ag_send, 1, MPI_INT, b.ag_recv, 1, MPI_INT, h->comm,
                                        MPI_INFO_NULL, &r[0]));
  CHECK_MPI(MPI_Neighbor_allgatherv_init(b.agv_send, 2, MPI_INT, b.agv_recv, b.agv_counts,
                                         b.agv_displs, MPI_INT, h->comm, MPI_INFO_NULL, &r[1]));
  CHECK_MPI(MPI_Neighbor_alltoall_init(b.a2a_send, 2, MPI_INT, b.a2a_recv, 2, MPI_INT, h->comm,
                                       MPI_INFO_NULL, &r[2]));
  CHECK_MPI(MPI_Neighbor_alltoallv_init(b.v_send, b.scounts, b.sdispls, MPI_INT, b.v_recv,
                                        b.rcounts, b.rdispls, MPI_INT, h->comm, MPI_INFO_NULL,
                                        &r[3]));
  CHECK_MPI(MPI_Neighbor_alltoallw_init(b.w_send, b.scounts, b.wsd, b.types, b.w_recv, b.rcounts,
                                        b.wrd, b.types, h->comm, MPI_INFO_NULL, &r[4]));
  for (int round = 1; round <= 4; ++round) {
    fill(&b, h, round, rank);
    if (round % 2 == 0) {
      CHECK_MPI(MPI_Startall(5, r));
    } else {
      for (int i = 0; i < 5; ++i) CHECK_MPI(MPI_Start(&r[i]));
    }
    CHECK_MPI(MPI_Waitall(5, r, MPI_STATUSES_IGNORE));
    check(&b, h, round);
  }
  for (int i = 0; i < 5; ++i) CHECK_MPI(MPI_Request_free(&r[i]));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  int rank, size;
  world_ring(&rank, &size, NULL, NULL);
  struct hood hoods[2] = {torus(size), repeated(rank, size)};
  for (int i = 0; i < 2; ++i) {
    nonblocking(&hoods[i], rank);
    persistent(&hoods[i], rank);
    MPI_Comm_free(&hoods[i].comm);
  }
  MPI_Finalize();
  return 0;
}
