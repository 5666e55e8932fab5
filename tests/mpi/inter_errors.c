/* Wrong arguments around intercommunicators fail with the right class and a message naming the
 * function and the argument: intercommunicator-only queries on an intracommunicator,
 * intracommunicator-only calls on an intercommunicator, bad leaders, ranks and roots,
 * MPI_IN_PLACE, and overlapping groups (every member of both fails alike). */
#include "expect_error.h"
#include "inter_common.h"

int main(int argc, char** argv) {
  int world_rank, world_size;
  if (!inter_init(&argc, &argv, &world_rank, &world_size)) return 0;
  int in_a, size, rsize, v = 1, w = 0;
  MPI_Comm local, inter, out = MPI_COMM_NULL;
  inter_make(0, &in_a, &local, &inter);
  MPI_Comm_size(inter, &size);
  MPI_Comm_remote_size(inter, &rsize);
  MPI_Group g;

  check_context("intercommunicator-only calls");
  EXPECT_ERROR(MPI_Comm_remote_size(MPI_COMM_WORLD, &w), MPI_ERR_COMM, "MPI_Comm_remote_size",
               "an intracommunicator");
  EXPECT_ERROR(MPI_Comm_remote_group(local, &g), MPI_ERR_COMM, "MPI_Comm_remote_group", "comm=");
  EXPECT_ERROR(MPI_Intercomm_merge(MPI_COMM_WORLD, 0, &out), MPI_ERR_COMM, "MPI_Intercomm_merge",
               "intercomm=MPI_COMM_WORLD");
  EXPECT_ERROR(MPI_Comm_remote_size(MPI_COMM_NULL, &w), MPI_ERR_COMM, "MPI_Comm_remote_size",
               "MPI_COMM_NULL");

  check_context("intracommunicator-only calls");
  EXPECT_ERROR(MPI_Scan(&v, &w, 1, MPI_INT, MPI_SUM, inter), MPI_ERR_COMM, "MPI_Scan",
               "an intercommunicator");
  EXPECT_ERROR(MPI_Exscan(&v, &w, 1, MPI_INT, MPI_SUM, inter), MPI_ERR_COMM, "MPI_Exscan",
               "intercommunicator");
  int dims[1] = {size}, periods[1] = {0};
  EXPECT_ERROR(MPI_Cart_create(inter, 1, dims, periods, 0, &out), MPI_ERR_COMM, "MPI_Cart_create",
               "comm_old=");
  EXPECT_ERROR(MPI_Neighbor_allgather(&v, 1, MPI_INT, &w, 1, MPI_INT, inter), MPI_ERR_COMM,
               "MPI_Neighbor_allgather", "intercommunicator");
  EXPECT_ERROR(MPI_Comm_split_type(inter, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &out),
               MPI_ERR_COMM, "MPI_Comm_split_type", "intercommunicator");
  MPI_Comm_group(inter, &g);
  EXPECT_ERROR(MPI_Comm_create_group(inter, g, 0, &out), MPI_ERR_COMM, "MPI_Comm_create_group",
               "intercommunicator");
  MPI_Group_free(&g);
  MPI_Win win;
  EXPECT_ERROR(MPI_Win_create(&v, sizeof v, 1, MPI_INFO_NULL, inter, &win), MPI_ERR_COMM,
               "MPI_Win_create", "intercommunicator");
  EXPECT_ERROR(MPI_Intercomm_create(inter, 0, MPI_COMM_WORLD, 0, 1, &out), MPI_ERR_COMM,
               "MPI_Intercomm_create", "local_comm=");

  check_context("ranks, roots and buffers");
  EXPECT_ERROR(MPI_Send(&v, 1, MPI_INT, rsize, 0, inter), MPI_ERR_RANK, "MPI_Send", "remote group");
  EXPECT_ERROR(MPI_Recv(&v, 1, MPI_INT, rsize + 3, 0, inter, MPI_STATUS_IGNORE), MPI_ERR_RANK,
               "MPI_Recv", "source=");
  EXPECT_ERROR(MPI_Bcast(&v, 1, MPI_INT, rsize, inter), MPI_ERR_ROOT, "MPI_Bcast", "root=");
  EXPECT_ERROR(MPI_Reduce(&v, &w, 1, MPI_INT, MPI_SUM, -7, inter), MPI_ERR_ROOT, "MPI_Reduce",
               "MPI_ROOT, MPI_PROC_NULL");
  EXPECT_ERROR(MPI_Allreduce(MPI_IN_PLACE, &w, 1, MPI_INT, MPI_SUM, inter), MPI_ERR_BUFFER,
               "MPI_Allreduce", "MPI_IN_PLACE");
  EXPECT_ERROR(MPI_Alltoall(MPI_IN_PLACE, 1, MPI_INT, &w, 1, MPI_INT, inter), MPI_ERR_BUFFER,
               "MPI_Alltoall", "MPI_IN_PLACE");
  /* The one collective that follows shows that no failed call above left traffic behind. */
  int sum = 0;
  CHECK_MPI(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, inter));
  CHECK(sum == rsize);

  check_context("bad leaders");
  EXPECT_ERROR(MPI_Intercomm_create(local, size, MPI_COMM_WORLD, 0, 1, &out), MPI_ERR_RANK,
               "MPI_Intercomm_create", "local_leader=");
  /* Both leaders name a remote leader outside peer_comm: both groups fail. */
  int rank;
  MPI_Comm_rank(local, &rank);
  const int rc = MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, world_size, 1, &out);
  if (rank == 0) {
    EXPECT_ERROR(rc, MPI_ERR_RANK, "MPI_Intercomm_create", "remote_leader=");
  } else {
    EXPECT_ERROR(rc, MPI_ERR_RANK, "MPI_Intercomm_create", "local leader");
  }
  CHECK(out == MPI_COMM_NULL);
  MPI_Comm_free(&inter);
  MPI_Comm_free(&local);

  /* Overlapping groups: world ranks {0, 1} (leader 0) and {1, 2} (leader 2, whose rank 1 never
   * joins); every caller fails with MPI_ERR_COMM. Last, as the second group's message to rank 1
   * stays unreceived. */
  if (world_size >= 3) {
    check_context("overlapping groups");
    MPI_Comm c01, c12;
    MPI_Comm_split(MPI_COMM_WORLD, world_rank < 2 ? 0 : MPI_UNDEFINED, world_rank, &c01);
    MPI_Comm_split(MPI_COMM_WORLD, world_rank == 1 || world_rank == 2 ? 0 : MPI_UNDEFINED,
                   world_rank, &c12);
    if (world_rank < 2) {
      EXPECT_ERROR(MPI_Intercomm_create(c01, 0, MPI_COMM_WORLD, 2, 9, &out), MPI_ERR_COMM,
                   "MPI_Intercomm_create", "overlap (MPI_COMM_WORLD rank 1 is in both)");
    } else if (world_rank == 2) {
      EXPECT_ERROR(MPI_Intercomm_create(c12, 1, MPI_COMM_WORLD, 0, 9, &out), MPI_ERR_COMM,
                   "MPI_Intercomm_create", "overlap");
    }
  }
  MPI_Finalize();
  return 0;
}
