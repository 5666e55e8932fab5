/* Distributed graph topologies at any world size.
 * - MPI_Dist_graph_create_adjacent, weighted: rank r sends to r+1, r-1, r+1 and so hears from
 *   r-1, r+1, r-1 (a rank listed twice; with 1 or 2 ranks every edge joins the same pair). The
 *   lists and weights come back in the order given; the k-th edge from A to B pairs A's k-th
 *   block for B with B's k-th block from A.
 * - a star (everyone to rank 0) with MPI_WEIGHTS_EMPTY for empty sides, and an unweighted ring.
 * - MPI_Dist_graph_create: each rank gives edges r -> r+1 twice (weights r and r+100) and
 *   r+2 -> r (weight 7); each rank learns its three in- and three out-edges, and a message
 *   along each edge arrives in the block whose weight names that edge.
 * - graphs without edges whose weights are NULL, which is not MPI_UNWEIGHTED (a distinct
 *   value): weighted, from both constructors, as in Open MPI and MPICH. */
#include <stdlib.h>

#include "check.h"

#define UNTOUCHED (-1)

static int wrap(int r, int n) { return ((r % n) + n) % n; }

static void check_topology(MPI_Comm g, int indegree, int outdegree, int weighted) {
  int status = -1, in = -1, out = -1, w = -1;
  CHECK_MPI(MPI_Topo_test(g, &status));
  CHECK(status == MPI_DIST_GRAPH);
  CHECK_MPI(MPI_Dist_graph_neighbors_count(g, &in, &out, &w));
  CHECK(in == indegree && out == outdegree && !w == !weighted);
}

static void adjacent_ring(int rank, int size) {
  const int sources[3] = {wrap(rank - 1, size), wrap(rank + 1, size), wrap(rank - 1, size)};
  const int dests[3] = {wrap(rank + 1, size), wrap(rank - 1, size), wrap(rank + 1, size)};
  const int sw[3] = {10, 11, 12}, dw[3] = {20, 21, 22};
  MPI_Comm g;
  CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 3, sources, sw, 3, dests, dw,
                                           MPI_INFO_NULL, 0, &g));
  check_topology(g, 3, 3, 1);
  int got_s[3], got_sw[3], got_d[3], got_dw[3];
  CHECK_MPI(MPI_Dist_graph_neighbors(g, 3, got_s, got_sw, 3, got_d, got_dw));
  check_ints(got_s, sources, 3, "sources");
  check_ints(got_sw, sw, 3, "sourceweights");
  check_ints(got_d, dests, 3, "destinations");
  check_ints(got_dw, dw, 3, "destweights");
  /* Weights are optional on the way out. */
  CHECK_MPI(MPI_Dist_graph_neighbors(g, 3, got_s, MPI_UNWEIGHTED, 3, got_d, MPI_UNWEIGHTED));

  /* My block j goes to dests[j]. From rank s = sources[i], being the k-th block from s, comes
   * the k-th block s sends to me: s sends to s+1 (block 0), s-1 (block 1), s+1 (block 2). */
  int send[3], recv[3] = {UNTOUCHED, UNTOUCHED, UNTOUCHED}, want[3];
  for (int j = 0; j < 3; ++j) send[j] = rank * 10 + j;
  for (int i = 0; i < 3; ++i) {
    const int s = sources[i];
    int k = 0;
    for (int x = 0; x < i; ++x) k += sources[x] == s;
    const int theirs[3] = {wrap(s + 1, size), wrap(s - 1, size), wrap(s + 1, size)};
    for (int j = 0; j < 3; ++j)
      if (theirs[j] == rank && k-- == 0) want[i] = s * 10 + j;
  }
  CHECK_MPI(MPI_Neighbor_alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, g));
  check_ints(recv, want, 3, "MPI_Neighbor_alltoall on the adjacent ring");
  CHECK_MPI(MPI_Neighbor_allgather(&rank, 1, MPI_INT, recv, 1, MPI_INT, g));
  check_ints(recv, sources, 3, "MPI_Neighbor_allgather on the adjacent ring");
  MPI_Comm_free(&g);

  /* The same ring unweighted. */
  CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 3, sources, MPI_UNWEIGHTED, 3, dests,
                                           MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g));
  check_topology(g, 3, 3, 0);
  MPI_Comm_free(&g);
}

static void star(int rank, int size) {
  int* sources = malloc(sizeof(int) * (size_t)size);
  int* weights = malloc(sizeof(int) * (size_t)size);
  for (int r = 0; r < size; ++r) {
    sources[r] = r;
    weights[r] = r + 1;
  }
  const int zero = 0, one = 1;
  MPI_Comm g;
  if (rank == 0) {
    CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, size, sources, weights, 1, &zero, &one,
                                             MPI_INFO_NULL, 0, &g));
    check_topology(g, size, 1, 1);
  } else {
    CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 0, NULL, MPI_WEIGHTS_EMPTY, 1, &zero,
                                             &one, MPI_INFO_NULL, 0, &g));
    check_topology(g, 0, 1, 1);
  }
  int* got = malloc(sizeof(int) * (size_t)size);
  for (int r = 0; r < size; ++r) got[r] = UNTOUCHED;
  const int mine = rank * 3;
  CHECK_MPI(MPI_Neighbor_allgather(&mine, 1, MPI_INT, got, 1, MPI_INT, g));
  for (int r = 0; r < size; ++r) CHECK(got[r] == (rank == 0 ? 3 * r : UNTOUCHED));
  MPI_Comm_free(&g);
  free(got);
  free(weights);
  free(sources);
}

static void general(int rank, int size) {
  const int sources[2] = {rank, wrap(rank + 2, size)}, degrees[2] = {2, 1};
  const int dests[3] = {wrap(rank + 1, size), wrap(rank + 1, size), rank};
  const int weights[3] = {rank, rank + 100, 7};
  MPI_Comm g;
  CHECK_MPI(MPI_Dist_graph_create(MPI_COMM_WORLD, 2, sources, degrees, dests, weights,
                                  MPI_INFO_NULL, 0, &g));
  check_topology(g, 3, 3, 1);
  int in[3], inw[3], out[3], outw[3];
  CHECK_MPI(MPI_Dist_graph_neighbors(g, 3, in, inw, 3, out, outw));
  /* In: from r-1 with weights r-1 and r+99, from r+2 with weight 7. Out: to r+1 with weights r
   * and r+100, to r-2 with weight 7. Any order, but each edge keeps its weight. */
  int seen_in = 0, seen_out = 0;
  for (int i = 0; i < 3; ++i) {
    const int prev = wrap(rank - 1, size);
    if (in[i] == prev && inw[i] == prev) seen_in |= 1;
    if (in[i] == prev && inw[i] == prev + 100) seen_in |= 2;
    if (in[i] == wrap(rank + 2, size) && inw[i] == 7) seen_in |= 4;
    if (out[i] == wrap(rank + 1, size) && outw[i] == rank) seen_out |= 1;
    if (out[i] == wrap(rank + 1, size) && outw[i] == rank + 100) seen_out |= 2;
    if (out[i] == wrap(rank - 2, size) && outw[i] == 7) seen_out |= 4;
  }
  check_context("in %d/%d %d/%d %d/%d out %d/%d %d/%d %d/%d", in[0], inw[0], in[1], inw[1], in[2],
                inw[2], out[0], outw[0], out[1], outw[1], out[2], outw[2]);
  CHECK(seen_in == 7 && seen_out == 7);
  /* Along each edge travel (sender, edge weight); it must arrive in the block of that edge. */
  int send[6], recv[6];
  for (int j = 0; j < 3; ++j) {
    send[2 * j] = rank;
    send[2 * j + 1] = outw[j];
  }
  CHECK_MPI(MPI_Neighbor_alltoall(send, 2, MPI_INT, recv, 2, MPI_INT, g));
  for (int i = 0; i < 3; ++i) CHECK(recv[2 * i] == in[i] && recv[2 * i + 1] == inw[i]);
  check_context("%s", "");
  MPI_Comm_free(&g);

  /* Unweighted, and a rank that gives no edges at all. */
  const int n = rank == 0 ? 0 : 1, one = 1, dest = 0;
  CHECK_MPI(MPI_Dist_graph_create(MPI_COMM_WORLD, n, &rank, &one, &dest, MPI_UNWEIGHTED,
                                  MPI_INFO_NULL, 0, &g));
  check_topology(g, rank == 0 ? size - 1 : 0, rank == 0 ? 0 : 1, 0);
  MPI_Comm_free(&g);
}

/* NULL weights are not MPI_UNWEIGHTED: a graph whose weights are NULL everywhere is weighted
 * (here without any edge, so NULL is all a caller can pass besides MPI_WEIGHTS_EMPTY). */
static void null_weights(void) {
  check_context("NULL weights and no edges");
  MPI_Comm g;
  CHECK_MPI(MPI_Dist_graph_create(MPI_COMM_WORLD, 0, NULL, NULL, NULL, NULL, MPI_INFO_NULL, 0, &g));
  check_topology(g, 0, 0, 1);
  CHECK_MPI(MPI_Comm_free(&g));
  CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 0, NULL, NULL, 0, NULL, NULL,
                                           MPI_INFO_NULL, 0, &g));
  check_topology(g, 0, 0, 1);
  CHECK_MPI(MPI_Comm_free(&g));
  /* MPI_WEIGHTS_EMPTY on one side and NULL on the other: weighted too. */
  CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 0, NULL, MPI_WEIGHTS_EMPTY, 0, NULL,
                                           NULL, MPI_INFO_NULL, 0, &g));
  check_topology(g, 0, 0, 1);
  CHECK_MPI(MPI_Comm_free(&g));
  /* Both MPI_UNWEIGHTED: not weighted. */
  CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 0, NULL, MPI_UNWEIGHTED, 0, NULL,
                                           MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g));
  check_topology(g, 0, 0, 0);
  CHECK_MPI(MPI_Comm_free(&g));
  check_context("%s", "");
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  int rank, size;
  world_ring(&rank, &size, NULL, NULL);
  adjacent_ring(rank, size);
  star(rank, size);
  general(rank, size);
  null_weights();
  MPI_Finalize();
  return 0;
}
