/* Topology and neighbourhood calls with bad arguments return the standard error class under
 * MPI_ERRORS_RETURN, with a message naming the function and the offending argument, and
 * change nothing. Every rank makes the same calls. */
#include "expect_error.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  int rank, size;
  world_ring(&rank, &size, NULL, NULL);
  int coords[3], r = -5, src, dst, status, n, dims[3], periods[3] = {0, 0, 0};
  MPI_Comm out = MPI_COMM_NULL;

  /* Dims_create: indivisible, negative entry, negative ndims, bad nnodes. */
  int fixed[2] = {0, 3};
  EXPECT_ERROR(MPI_Dims_create(7, 2, fixed), MPI_ERR_DIMS, "MPI_Dims_create", "nnodes=7");
  CHECK(fixed[0] == 0 && fixed[1] == 3);
  int negative[2] = {0, -2};
  EXPECT_ERROR(MPI_Dims_create(4, 2, negative), MPI_ERR_DIMS, "MPI_Dims_create", "dims[1]=-2");
  EXPECT_ERROR(MPI_Dims_create(4, -1, dims), MPI_ERR_DIMS, "MPI_Dims_create", "ndims=-1");
  EXPECT_ERROR(MPI_Dims_create(0, 2, dims), MPI_ERR_ARG, "MPI_Dims_create", "nnodes=0");

  /* Cartesian calls on a communicator without a Cartesian topology. */
  EXPECT_ERROR(MPI_Cart_coords(MPI_COMM_WORLD, 0, 3, coords), MPI_ERR_TOPOLOGY, "MPI_Cart_coords",
               "no topology");
  EXPECT_ERROR(MPI_Cart_rank(MPI_COMM_WORLD, coords, &r), MPI_ERR_TOPOLOGY, "MPI_Cart_rank",
               "Cartesian");
  EXPECT_ERROR(MPI_Cart_shift(MPI_COMM_WORLD, 0, 1, &src, &dst), MPI_ERR_TOPOLOGY, "MPI_Cart_shift",
               "MPI_COMM_WORLD");
  EXPECT_ERROR(MPI_Cartdim_get(MPI_COMM_SELF, &n), MPI_ERR_TOPOLOGY, "MPI_Cartdim_get",
               "MPI_COMM_SELF");
  EXPECT_ERROR(MPI_Topo_test(MPI_COMM_NULL, &status), MPI_ERR_COMM, "MPI_Topo_test", "comm");

  /* Cart_create: bad dims, too many ranks, negative ndims. */
  dims[0] = 0;
  EXPECT_ERROR(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &out), MPI_ERR_DIMS,
               "MPI_Cart_create", "dims[0]=0");
  dims[0] = size + 1;
  EXPECT_ERROR(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &out), MPI_ERR_DIMS,
               "MPI_Cart_create", "dims=");
  EXPECT_ERROR(MPI_Cart_create(MPI_COMM_WORLD, -1, dims, periods, 0, &out), MPI_ERR_DIMS,
               "MPI_Cart_create", "ndims=-1");
  EXPECT_ERROR(MPI_Cart_map(MPI_COMM_WORLD, 1, dims, periods, &r), MPI_ERR_DIMS, "MPI_Cart_map",
               "dims=");
  CHECK(out == MPI_COMM_NULL);

  /* On a real 2-D grid: rank, coordinate, direction and room errors. */
  MPI_Comm cart;
  dims[0] = size;
  dims[1] = 1;
  CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart));
  EXPECT_ERROR(MPI_Cart_coords(cart, size, 2, coords), MPI_ERR_RANK, "MPI_Cart_coords", "rank=");
  EXPECT_ERROR(MPI_Cart_coords(cart, 0, 1, coords), MPI_ERR_ARG, "MPI_Cart_coords", "maxdims=1");
  coords[0] = size;
  coords[1] = 0;
  EXPECT_ERROR(MPI_Cart_rank(cart, coords, &r), MPI_ERR_ARG, "MPI_Cart_rank", "coords[0]=");
  CHECK(r == -5);
  EXPECT_ERROR(MPI_Cart_shift(cart, 2, 1, &src, &dst), MPI_ERR_ARG, "MPI_Cart_shift",
               "direction=2");
  EXPECT_ERROR(MPI_Cart_shift(cart, -1, 1, &src, &dst), MPI_ERR_ARG, "MPI_Cart_shift",
               "direction=-1");
  EXPECT_ERROR(MPI_Cart_get(cart, 1, dims, periods, coords), MPI_ERR_ARG, "MPI_Cart_get",
               "maxdims=1");
  EXPECT_ERROR(MPI_Cart_sub(cart, NULL, &out), MPI_ERR_ARG, "MPI_Cart_sub", "remain_dims");
  /* Graph calls on the Cartesian communicator. */
  EXPECT_ERROR(MPI_Graph_neighbors_count(cart, 0, &n), MPI_ERR_TOPOLOGY,
               "MPI_Graph_neighbors_count", "Cartesian");
  EXPECT_ERROR(MPI_Graphdims_get(cart, &n, &n), MPI_ERR_TOPOLOGY, "MPI_Graphdims_get",
               "graph topology");
  EXPECT_ERROR(MPI_Dist_graph_neighbors_count(cart, &n, &n, &n), MPI_ERR_TOPOLOGY,
               "MPI_Dist_graph_neighbors_count", "distributed graph");

  /* Graph_create: too many nodes, decreasing index, an edge to no node. */
  int index[2] = {1, 2}, edges[2] = {0, 0};
  EXPECT_ERROR(MPI_Graph_create(MPI_COMM_WORLD, size + 1, index, edges, 0, &out), MPI_ERR_ARG,
               "MPI_Graph_create", "nnodes=");
  if (size >= 2) {
    int bad_index[2] = {2, 1};
    EXPECT_ERROR(MPI_Graph_create(MPI_COMM_WORLD, 2, bad_index, edges, 0, &out), MPI_ERR_ARG,
                 "MPI_Graph_create", "index[1]=1");
    edges[1] = 2;
    EXPECT_ERROR(MPI_Graph_create(MPI_COMM_WORLD, 2, index, edges, 0, &out), MPI_ERR_RANK,
                 "MPI_Graph_create", "edges[1]=2");
  }
  CHECK(out == MPI_COMM_NULL);

  /* Distributed graphs: negative degree, a rank outside, weights. */
  const int self = rank, weight = 1, bad_weight = -3, far = size;
  EXPECT_ERROR(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, -1, &self, MPI_UNWEIGHTED, 0, NULL,
                                              MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &out),
               MPI_ERR_ARG, "MPI_Dist_graph_create_adjacent", "indegree=-1");
  EXPECT_ERROR(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &far, MPI_UNWEIGHTED, 0, NULL,
                                              MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &out),
               MPI_ERR_RANK, "MPI_Dist_graph_create_adjacent", "sources[0]=");
  EXPECT_ERROR(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &self, &bad_weight, 1, &self,
                                              &weight, MPI_INFO_NULL, 0, &out),
               MPI_ERR_ARG, "MPI_Dist_graph_create_adjacent", "sourceweights[0]=-3");
  EXPECT_ERROR(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &self, MPI_UNWEIGHTED, 1, &self,
                                              &weight, MPI_INFO_NULL, 0, &out),
               MPI_ERR_ARG, "MPI_Dist_graph_create_adjacent", "MPI_UNWEIGHTED");
  const int minus = -1;
  EXPECT_ERROR(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &self, &minus, &self, MPI_UNWEIGHTED,
                                     MPI_INFO_NULL, 0, &out),
               MPI_ERR_ARG, "MPI_Dist_graph_create", "degrees[0]=-1");
  const int one = 1;
  EXPECT_ERROR(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &self, &one, &far, MPI_UNWEIGHTED,
                                     MPI_INFO_NULL, 0, &out),
               MPI_ERR_RANK, "MPI_Dist_graph_create", "destinations[0]=");
  EXPECT_ERROR(MPI_Dist_graph_create(MPI_COMM_WORLD, -2, &self, &one, &self, MPI_UNWEIGHTED,
                                     MPI_INFO_NULL, 0, &out),
               MPI_ERR_ARG, "MPI_Dist_graph_create", "n=-2");
  CHECK(out == MPI_COMM_NULL);

  /* Neighbourhood collectives: no topology, bad counts, MPI_IN_PLACE, bad types. */
  int buf[8] = {0}, counts[4] = {1, -1, 1, 1}, displs[4] = {0, 1, 2, 3};
  EXPECT_ERROR(MPI_Neighbor_alltoall(buf, 1, MPI_INT, buf + 4, 1, MPI_INT, MPI_COMM_WORLD),
               MPI_ERR_TOPOLOGY, "MPI_Neighbor_alltoall", "no topology");
  EXPECT_ERROR(MPI_Neighbor_allgather(buf, -1, MPI_INT, buf + 4, 1, MPI_INT, cart), MPI_ERR_COUNT,
               "MPI_Neighbor_allgather", "sendcount=-1");
  EXPECT_ERROR(MPI_Neighbor_alltoall(MPI_IN_PLACE, 1, MPI_INT, buf, 1, MPI_INT, cart),
               MPI_ERR_BUFFER, "MPI_Neighbor_alltoall", "MPI_IN_PLACE");
  EXPECT_ERROR(MPI_Neighbor_alltoall(buf, 1, MPI_INT, buf + 4, 1, MPI_DATATYPE_NULL, cart),
               MPI_ERR_TYPE, "MPI_Neighbor_alltoall", "recvtype");
  EXPECT_ERROR(MPI_Neighbor_allgatherv(buf, 1, MPI_INT, buf + 4, counts, displs, MPI_INT, cart),
               MPI_ERR_COUNT, "MPI_Neighbor_allgatherv", "recvcounts[1]=-1");
  MPI_Request req = MPI_REQUEST_NULL;
  EXPECT_ERROR(MPI_Ineighbor_alltoallv(buf, counts, displs, MPI_INT, buf + 4, counts, displs,
                                       MPI_INT, cart, &req),
               MPI_ERR_COUNT, "MPI_Ineighbor_alltoallv", "sendcounts[1]=-1");
  CHECK(req == MPI_REQUEST_NULL);
  EXPECT_ERROR(
      MPI_Neighbor_alltoall_init(buf, 1, MPI_INT, buf + 4, 1, MPI_INT, cart, MPI_INFO_NULL, NULL),
      MPI_ERR_ARG, "MPI_Neighbor_alltoall_init", "request");
  MPI_Datatype types[4] = {MPI_INT, MPI_INT, MPI_INT, MPI_INT};
  MPI_Aint bytes[4] = {0, 4, -8, 12};
  int ones[4] = {1, 1, 1, 1};
  EXPECT_ERROR(MPI_Neighbor_alltoallw(buf, ones, bytes, types, buf + 4, ones, bytes, types, cart),
               MPI_ERR_ARG, "MPI_Neighbor_alltoallw", "sdispls[2]=-8");
  MPI_Comm_free(&cart);
  MPI_Finalize();
  return 0;
}
