/* Graph topologies (MPI_Graph_create) at any world size: node r's neighbours are r+1, r, r-1,
 * r+1, r-1 (mod size), so every neighbour appears twice and each rank is its own neighbour
 * (with 1 or 2 ranks, all of them are the same rank). The inquiries return the graph; the
 * neighbourhood collectives pair the k-th edge from A to B with the k-th from B's view of A;
 * a smaller graph leaves the last rank with MPI_COMM_NULL; a dup keeps the graph. */
#include "check.h"

#define DEG 5
#define UNTOUCHED (-1)

static int wrap(int r, int n) { return ((r % n) + n) % n; }
static void neighbours_of(int r, int n, int* out) {
  const int steps[DEG] = {1, 0, -1, 1, -1};
  for (int i = 0; i < DEG; ++i) out[i] = wrap(r + steps[i], n);
}

/* The block of `s` that lands in my block i: the k-th occurrence of me among s's neighbours,
 * where s is the k-th occurrence of s among mine before i. */
static int origin_block(int me, int i, int n) {
  int mine[DEG], theirs[DEG], k = 0;
  neighbours_of(me, n, mine);
  for (int x = 0; x < i; ++x) k += mine[x] == mine[i];
  neighbours_of(mine[i], n, theirs);
  for (int j = 0; j < DEG; ++j)
    if (theirs[j] == me && k-- == 0) return j;
  return -1;
}

static void check_graph(MPI_Comm graph, int rank, int n) {
  int status = -1, nnodes = -1, nedges = -1, count = -1;
  CHECK_MPI(MPI_Topo_test(graph, &status));
  CHECK(status == MPI_GRAPH);
  CHECK_MPI(MPI_Graphdims_get(graph, &nnodes, &nedges));
  CHECK(nnodes == n && nedges == DEG * n);
  int index[8], edges[8 * DEG], want[DEG];
  CHECK_MPI(MPI_Graph_get(graph, n, DEG * n, index, edges));
  for (int r = 0; r < n; ++r) {
    CHECK(index[r] == DEG * (r + 1));
    neighbours_of(r, n, want);
    check_ints(edges + DEG * r, want, DEG, "MPI_Graph_get edges");
    CHECK_MPI(MPI_Graph_neighbors_count(graph, r, &count));
    CHECK(count == DEG);
    int got[DEG];
    CHECK_MPI(MPI_Graph_neighbors(graph, r, DEG, got));
    check_ints(got, want, DEG, "MPI_Graph_neighbors");
  }
  /* Room for fewer: the first ones are written, nothing past them. */
  int partial[DEG] = {UNTOUCHED, UNTOUCHED, UNTOUCHED, UNTOUCHED, UNTOUCHED};
  CHECK_MPI(MPI_Graph_neighbors(graph, rank, 2, partial));
  neighbours_of(rank, n, want);
  CHECK(partial[0] == want[0] && partial[1] == want[1] && partial[2] == UNTOUCHED);

  /* allgather: every neighbour's rank, in neighbour order. */
  int got[DEG];
  CHECK_MPI(MPI_Neighbor_allgather(&rank, 1, MPI_INT, got, 1, MPI_INT, graph));
  check_ints(got, want, DEG, "MPI_Neighbor_allgather");
  /* alltoall: block j carries (rank, j); block i comes from the paired block of its sender. */
  int send[2 * DEG], recv[2 * DEG], expect[2 * DEG];
  for (int j = 0; j < DEG; ++j) {
    send[2 * j] = rank;
    send[2 * j + 1] = j;
  }
  for (int i = 0; i < DEG; ++i) {
    expect[2 * i] = want[i];
    expect[2 * i + 1] = origin_block(rank, i, n);
  }
  CHECK_MPI(MPI_Neighbor_alltoall(send, 2, MPI_INT, recv, 2, MPI_INT, graph));
  check_ints(recv, expect, 2 * DEG, "MPI_Neighbor_alltoall (sender, its block)");
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  int rank, size;
  world_ring(&rank, &size, NULL, NULL);
  CHECK(size <= 8);
  int index[8], edges[8 * DEG];
  for (int r = 0; r < size; ++r) {
    index[r] = DEG * (r + 1);
    neighbours_of(r, size, edges + DEG * r);
  }
  MPI_Comm graph = MPI_COMM_NULL, dup = MPI_COMM_NULL;
  CHECK_MPI(MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 1, &graph));
  check_context("graph of %d nodes", size);
  check_graph(graph, rank, size);
  CHECK_MPI(MPI_Comm_dup(graph, &dup));
  check_context("a dup of the graph of %d nodes", size);
  check_graph(dup, rank, size);
  int newrank = -2;
  CHECK_MPI(MPI_Graph_map(MPI_COMM_WORLD, size, index, edges, &newrank));
  CHECK(newrank == rank);
  MPI_Comm_free(&dup);
  MPI_Comm_free(&graph);

  /* One node fewer: the last rank is left out. */
  if (size > 1) {
    const int n = size - 1;
    for (int r = 0; r < n; ++r) neighbours_of(r, n, edges + DEG * r);
    CHECK_MPI(MPI_Graph_create(MPI_COMM_WORLD, n, index, edges, 0, &graph));
    CHECK((graph == MPI_COMM_NULL) == (rank == n));
    CHECK_MPI(MPI_Graph_map(MPI_COMM_WORLD, n, index, edges, &newrank));
    CHECK(newrank == (rank < n ? rank : MPI_UNDEFINED));
    if (graph != MPI_COMM_NULL) {
      check_context("graph of %d nodes on %d ranks", n, size);
      check_graph(graph, rank, n);
      MPI_Comm_free(&graph);
    }
  }
  /* No nodes at all: nobody gets a communicator. */
  CHECK_MPI(MPI_Graph_create(MPI_COMM_WORLD, 0, NULL, NULL, 0, &graph));
  CHECK(graph == MPI_COMM_NULL);
  MPI_Finalize();
  return 0;
}
