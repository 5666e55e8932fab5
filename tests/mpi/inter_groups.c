/* MPI_Intercomm_create_from_groups: the intercommunicator between two interleaved groups of
 * unequal size (inter_common.h), made from their groups alone, with leaders at either end; its
 * sizes and groups, traffic both ways, a collective, the error handler it was given; two made
 * at once under different tags; and the errors (leader out of range, overlapping groups). */
#include "expect_error.h"
#include "inter_common.h"

/* Group A (or B) of the world as an MPI_Group. */
static MPI_Group group_of(int in_a, int size) {
  MPI_Group world, g;
  int members[64], n = 0;
  for (int w = 0; w < size; ++w)
    if (inter_in_a(w) == in_a) members[n++] = w;
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
  CHECK_MPI(MPI_Group_incl(world, n, members, &g));
  CHECK_MPI(MPI_Group_free(&world));
  return g;
}

static void check_inter(MPI_Comm inter, int in_a, int rank, int size) {
  const int na = inter_size_a(size), mine = in_a ? na : size - na, theirs = size - mine;
  int lsize = -1, rsize = -1, flag = 0, lrank = -1;
  CHECK_MPI(MPI_Comm_test_inter(inter, &flag));
  CHECK(flag);
  CHECK_MPI(MPI_Comm_size(inter, &lsize));
  CHECK_MPI(MPI_Comm_remote_size(inter, &rsize));
  CHECK_MPI(MPI_Comm_rank(inter, &lrank));
  CHECK(lsize == mine && rsize == theirs);
  CHECK(inter_world_of(in_a, lrank, size) == rank);
  /* Local rank 0 of each side sends its world rank to remote rank 0. */
  if (lrank == 0) {
    int got = -1;
    CHECK_MPI(MPI_Sendrecv(&rank, 1, MPI_INT, 0, 5, &got, 1, MPI_INT, 0, 5, inter,
                           MPI_STATUS_IGNORE));
    CHECK(got == inter_world_of(!in_a, 0, size));
  }
  /* Allreduce on an intercommunicator: each side gets the other side's sum. */
  int one = rank, sum = -1, want = 0;
  for (int w = 0; w < size; ++w)
    if (inter_in_a(w) != in_a) want += w;
  CHECK_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, inter));
  CHECK(sum == want);
}

int main(int argc, char** argv) {
  int rank, size;
  if (!inter_init(&argc, &argv, &rank, &size)) return 0;
  const int in_a = inter_in_a(rank), na = inter_size_a(size), nb = size - na;
  MPI_Group mine = group_of(in_a, size), theirs = group_of(!in_a, size);

  check_context("leaders at local rank 0");
  MPI_Comm inter;
  CHECK_MPI(MPI_Intercomm_create_from_groups(mine, 0, theirs, 0, "weft.test.first", MPI_INFO_NULL,
                                             MPI_ERRORS_RETURN, &inter));
  check_inter(inter, in_a, rank, size);
  MPI_Errhandler eh;
  CHECK_MPI(MPI_Comm_get_errhandler(inter, &eh));
  CHECK(eh == MPI_ERRORS_RETURN);
  CHECK_MPI(MPI_Errhandler_free(&eh));

  check_context("leaders at the last local rank, and a second intercommunicator beside it");
  MPI_Comm second;
  const int last_mine = (in_a ? na : nb) - 1, last_theirs = (in_a ? nb : na) - 1;
  CHECK_MPI(MPI_Intercomm_create_from_groups(mine, last_mine, theirs, last_theirs,
                                             "weft.test.second", MPI_INFO_NULL, MPI_ERRORS_RETURN,
                                             &second));
  check_inter(second, in_a, rank, size);
  check_inter(inter, in_a, rank, size);
  CHECK_MPI(MPI_Comm_free(&second));
  CHECK_MPI(MPI_Comm_free(&inter));

  check_context("errors");
  EXPECT_ERROR(MPI_Intercomm_create_from_groups(mine, 99, theirs, 0, "weft.test.bad",
                                                MPI_INFO_NULL, MPI_ERRORS_RETURN, &inter),
               MPI_ERR_RANK, "MPI_Intercomm_create_from_groups", "local_leader=99");
  EXPECT_ERROR(MPI_Intercomm_create_from_groups(mine, 0, theirs, -1, "weft.test.bad",
                                                MPI_INFO_NULL, MPI_ERRORS_RETURN, &inter),
               MPI_ERR_RANK, "MPI_Intercomm_create_from_groups", "remote_leader=-1");
  EXPECT_ERROR(MPI_Intercomm_create_from_groups(mine, 0, theirs, 0, NULL, MPI_INFO_NULL,
                                                MPI_ERRORS_RETURN, &inter),
               MPI_ERR_ARG, "MPI_Intercomm_create_from_groups", "stringtag");
  /* Overlapping: both "groups" are this process's own group, so the leaders are one process.
   * The leader says why; the others that their leader failed. */
  int my_group_rank = -1;
  CHECK_MPI(MPI_Group_rank(mine, &my_group_rank));
  EXPECT_ERROR(MPI_Intercomm_create_from_groups(mine, 0, mine, 0, "weft.test.overlap",
                                                MPI_INFO_NULL, MPI_ERRORS_RETURN, &inter),
               MPI_ERR_GROUP, "MPI_Intercomm_create_from_groups",
               my_group_rank == 0 ? "disjoint" : "local leader");

  CHECK_MPI(MPI_Group_free(&mine));
  CHECK_MPI(MPI_Group_free(&theirs));
  MPI_Finalize();
  return 0;
}
