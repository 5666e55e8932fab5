/* Communicator creation: dup (contexts kept apart), split (colors, keys, MPI_UNDEFINED),
 * split_type, create, create_group, compare, names, and collectives and point-to-point on
 * every communicator made. */
#include <stdlib.h>

#include "check.h"

/* Sum of the world ranks of `comm`'s members, by allreduce, against the expected value. */
static void check_members(MPI_Comm comm, long want_sum, int want_size) {
  int size = -1, wrank = -1;
  long sum = 0, mine;
  CHECK_MPI(MPI_Comm_size(comm, &size));
  CHECK(size == want_size);
  MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
  mine = wrank;
  CHECK_MPI(MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, comm));
  CHECK(sum == want_sum);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  int rank, size;
  world_ring(&rank, &size, NULL, NULL);
  const long all = (long)size * (size - 1) / 2;

  check_context("MPI_Comm_dup keeps messages apart from its parent");
  MPI_Comm dup;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
  int result = -1;
  CHECK_MPI(MPI_Comm_compare(MPI_COMM_WORLD, dup, &result));
  CHECK(result == MPI_CONGRUENT);
  CHECK_MPI(MPI_Comm_compare(dup, dup, &result));
  CHECK(result == MPI_IDENT);
  int drank = -1;
  MPI_Comm_rank(dup, &drank);
  CHECK(drank == rank);
  {
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int out = 1000 + rank, in = -1, flag = 1;
    MPI_Request req;
    CHECK_MPI(MPI_Isend(&out, 1, MPI_INT, right, 7, dup, &req));
    MPI_Barrier(dup);  /* the message has had time to arrive */
    CHECK_MPI(MPI_Iprobe(left, 7, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
    CHECK(flag == 0); /* not visible on the parent */
    CHECK_MPI(MPI_Recv(&in, 1, MPI_INT, left, 7, dup, MPI_STATUS_IGNORE));
    CHECK(in == 1000 + left);
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
  }
  check_members(dup, all, size);

  check_context("MPI_Comm_split by parity, keys reversing the order");
  MPI_Comm half;
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half));
  {
    int hrank = -1, hsize = -1;
    MPI_Comm_rank(half, &hrank);
    MPI_Comm_size(half, &hsize);
    const int members = (size - rank % 2 + 1) / 2;
    CHECK(hsize == members);
    /* Highest world rank of my parity first. */
    const int highest = (size - 1) % 2 == rank % 2 ? size - 1 : size - 2;
    CHECK(hrank == (highest - rank) / 2);
    long want = 0;
    for (int r = rank % 2; r < size; r += 2) want += r;
    check_members(half, want, members);
    CHECK_MPI(MPI_Comm_compare(MPI_COMM_WORLD, half, &result));
    CHECK(result == (size == 1 ? MPI_CONGRUENT : MPI_UNEQUAL));
  }

  check_context("MPI_Comm_split with MPI_UNDEFINED and one color");
  MPI_Comm some, reversed;
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? MPI_UNDEFINED : 3, rank, &some));
  if (rank == 0) {
    CHECK(some == MPI_COMM_NULL);
  } else {
    check_members(some, all, size - 1);
  }
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &reversed));
  CHECK_MPI(MPI_Comm_compare(MPI_COMM_WORLD, reversed, &result));
  CHECK(result == (size == 1 ? MPI_CONGRUENT : MPI_SIMILAR));

  check_context("MPI_Comm_split_type(MPI_COMM_TYPE_SHARED): all ranks share the node");
  MPI_Comm node;
  CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node));
  check_members(node, all, size);

  check_context("MPI_Comm_create with the even ranks");
  MPI_Group world_group, evens;
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world_group));
  int range[1][3] = {{0, size - 1, 2}};
  CHECK_MPI(MPI_Group_range_incl(world_group, 1, range, &evens));
  MPI_Comm even_comm;
  CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, evens, &even_comm));
  long even_sum = 0;
  for (int r = 0; r < size; r += 2) even_sum += r;
  if (rank % 2 == 0) {
    check_members(even_comm, even_sum, (size + 1) / 2);
  } else {
    CHECK(even_comm == MPI_COMM_NULL);
  }

  check_context("MPI_Comm_create_group, called by the odd ranks only");
  MPI_Comm odd_comm = MPI_COMM_NULL;
  if (rank % 2 == 1) {
    MPI_Group odds;
    CHECK_MPI(MPI_Group_difference(world_group, evens, &odds));
    CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, odds, 42, &odd_comm));
    check_members(odd_comm, all - even_sum, size / 2);
    CHECK_MPI(MPI_Group_free(&odds));
  }
  MPI_Barrier(MPI_COMM_WORLD);

  check_context("names");
  char name[MPI_MAX_OBJECT_NAME];
  int len = -1;
  CHECK_MPI(MPI_Comm_get_name(MPI_COMM_WORLD, name, &len));
  CHECK(strcmp(name, "MPI_COMM_WORLD") == 0 && len == 14);
  CHECK_MPI(MPI_Comm_get_name(dup, name, &len));
  CHECK(len == 0);
  CHECK_MPI(MPI_Comm_set_name(dup, "my duplicate"));
  CHECK_MPI(MPI_Comm_get_name(dup, name, &len));
  CHECK(strcmp(name, "my duplicate") == 0);
  int inter = 1;
  CHECK_MPI(MPI_Comm_test_inter(dup, &inter));
  CHECK(inter == 0);

  check_context("MPI_Comm_free");
  MPI_Comm comms[] = {dup, half, some, reversed, node, even_comm, odd_comm};
  for (unsigned i = 0; i < sizeof comms / sizeof comms[0]; ++i) {
    if (comms[i] == MPI_COMM_NULL) continue;
    CHECK_MPI(MPI_Comm_free(&comms[i]));
    CHECK(comms[i] == MPI_COMM_NULL);
  }
  CHECK_MPI(MPI_Group_free(&evens));
  CHECK_MPI(MPI_Group_free(&world_group));
  MPI_Finalize();
  return 0;
}
