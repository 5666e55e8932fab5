/* Communicator calls with bad arguments return the standard error class (MPI_ERRORS_RETURN)
 * with a message naming the function, and change nothing. Every rank makes the same calls. */
#include "check.h"

static void check_error(int rc, int want_class, const char* fn) {
  char text[MPI_MAX_ERROR_STRING] = "";
  int len = 0;
  MPI_Error_string(rc, text, &len);
  check_context("%s: got \"%s\"", fn, text);
  CHECK(error_class(rc) == want_class);
  CHECK(strncmp(text, fn, strlen(fn)) == 0);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  int rank, size;
  world_ring(&rank, &size, NULL, NULL);
  MPI_Comm out = MPI_COMM_NULL, world = MPI_COMM_WORLD, null_comm = MPI_COMM_NULL;
  check_error(MPI_Comm_free(&world), MPI_ERR_COMM, "MPI_Comm_free");
  CHECK(world == MPI_COMM_WORLD);
  check_error(MPI_Comm_free(&null_comm), MPI_ERR_COMM, "MPI_Comm_free");
  check_error(MPI_Comm_dup(MPI_COMM_NULL, &out), MPI_ERR_COMM, "MPI_Comm_dup");
  check_error(MPI_Comm_dup(MPI_COMM_WORLD, NULL), MPI_ERR_ARG, "MPI_Comm_dup");
  check_error(MPI_Comm_split(MPI_COMM_WORLD, -5, 0, &out), MPI_ERR_ARG, "MPI_Comm_split");
  check_error(MPI_Comm_split_type(MPI_COMM_WORLD, 77, 0, MPI_INFO_NULL, &out), MPI_ERR_ARG,
              "MPI_Comm_split_type");
  check_error(MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_NULL, &out), MPI_ERR_GROUP,
              "MPI_Comm_create");
  MPI_Group self_group;
  MPI_Comm_group(MPI_COMM_SELF, &self_group);
  check_error(MPI_Comm_create_group(MPI_COMM_WORLD, self_group, -1, &out), MPI_ERR_TAG,
              "MPI_Comm_create_group");
  if (size > 1) {
    /* A group that holds a rank of the parent but not the caller. */
    MPI_Group world_group, other;
    const int peer = (rank + 1) % size;
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    MPI_Group_incl(world_group, 1, &peer, &other);
    check_error(MPI_Comm_create_group(MPI_COMM_WORLD, other, 0, &out), MPI_ERR_GROUP,
                "MPI_Comm_create_group");
    /* A group with a rank outside MPI_COMM_SELF. */
    check_error(MPI_Comm_create(MPI_COMM_SELF, other, &out), MPI_ERR_GROUP, "MPI_Comm_create");
    MPI_Group_free(&other);
    MPI_Group_free(&world_group);
  }
  CHECK(out == MPI_COMM_NULL);
  check_error(MPI_Comm_compare(MPI_COMM_WORLD, 12345, NULL), MPI_ERR_COMM, "MPI_Comm_compare");
  check_error(MPI_Comm_set_name(MPI_COMM_WORLD, NULL), MPI_ERR_ARG, "MPI_Comm_set_name");
  check_error(MPI_Comm_idup(MPI_COMM_WORLD, &out, NULL), MPI_ERR_ARG, "MPI_Comm_idup");
  MPI_Group_free(&self_group);
  MPI_Finalize();
  return 0;
}
