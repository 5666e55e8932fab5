/* Sessions together with the world model: a session opened after MPI_Init sees the same
 * processes as MPI_COMM_WORLD, its communicator outlives MPI_Finalize (the library ends with
 * its last user), and the error paths raised on MPI_COMM_SELF or the session. */
#include "expect_error.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  world_ring(&rank, &size, NULL, NULL);
  errors_return();
  MPI_Session s;
  CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));

  check_context("the WORLD process set is MPI_COMM_WORLD's group");
  MPI_Group from_pset, of_world;
  CHECK_MPI(MPI_Group_from_session_pset(s, "mpi://WORLD", &from_pset));
  MPI_Comm_group(MPI_COMM_WORLD, &of_world);
  int result = MPI_UNEQUAL;
  MPI_Group_compare(from_pset, of_world, &result);
  CHECK(result == MPI_IDENT);
  MPI_Comm comm;
  CHECK_MPI(MPI_Comm_create_from_group(from_pset, "org.weft.test.world", MPI_INFO_NULL,
                                       MPI_ERRORS_RETURN, &comm));
  MPI_Comm_compare(comm, MPI_COMM_WORLD, &result);
  CHECK(result == MPI_CONGRUENT);

  check_context("error paths");
  int n = 0;
  EXPECT_ERROR(MPI_Session_get_num_psets(MPI_SESSION_NULL, MPI_INFO_NULL, &n), MPI_ERR_SESSION,
               "MPI_Session_get_num_psets", "MPI_SESSION_NULL");
  EXPECT_ERROR(MPI_Session_finalize(&(MPI_Session){12345}), MPI_ERR_SESSION, "MPI_Session_finalize",
               "12345");
  MPI_Session bad;
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "thread_level", "MPI_THREAD_SOMETIMES");
  EXPECT_ERROR(MPI_Session_init(info, MPI_ERRORS_RETURN, &bad), MPI_ERR_INFO_VALUE,
               "MPI_Session_init", "MPI_THREAD_SOMETIMES");
  MPI_Info_free(&info);
  EXPECT_ERROR(MPI_Comm_create_from_group(from_pset, NULL, MPI_INFO_NULL, MPI_ERRORS_RETURN, &comm),
               MPI_ERR_ARG, "MPI_Comm_create_from_group", "stringtag");
  if (size > 1) {
    MPI_Group others;
    const int me[1] = {rank};
    MPI_Group_excl(from_pset, 1, me, &others);
    MPI_Comm none;
    EXPECT_ERROR(MPI_Comm_create_from_group(others, "org.weft.test.x", MPI_INFO_NULL,
                                            MPI_ERRORS_RETURN, &none),
                 MPI_ERR_GROUP, "MPI_Comm_create_from_group", "not a member");
    MPI_Group_free(&others);
  }
  MPI_Group_free(&from_pset);
  MPI_Group_free(&of_world);

  /* MPI_Finalize with a session still open: MPI_Finalized says so, the library runs on. */
  check_context("after MPI_Finalize, before MPI_Session_finalize");
  MPI_Finalize();
  int flag = 0;
  MPI_Finalized(&flag);
  if (!flag) return 1;
  int sum = 0;
  if (MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, comm) != MPI_SUCCESS ||
      sum != size * (size - 1) / 2) {
    fprintf(stderr, "rank %d: allreduce on the session's communicator gave %d\n", rank, sum);
    return 1;
  }
  MPI_Comm_free(&comm);
  if (MPI_Session_finalize(&s) != MPI_SUCCESS) return 1;
  if (rank == 0) printf("session_world: ok\n");
  return 0;
}
