/* MPI_Comm_spawn and MPI_Comm_spawn_multiple: the parents (any size) start 1 child, then 1 + 2
 * children from two commands (this program again, told apart by its arguments), and each time
 * both sides check the intercommunicator: sizes, MPI_APPNUM, point-to-point both ways (short
 * and longer messages), a bcast rooted on either side, an allreduce, the merge into one intracommunicator, and disconnect. */
#include <stdlib.h>

#include "check.h"

/* The exchanges both sides run on `inter`; `parents` says which side this process is. */
static void exercise(MPI_Comm inter, int parents) {
  int rank, size, remote;
  MPI_Comm_rank(inter, &rank);
  MPI_Comm_size(inter, &size);
  MPI_Comm_remote_size(inter, &remote);
  int flag = 0;
  MPI_Comm_test_inter(inter, &flag);
  CHECK(flag);

  /* Point-to-point: parent 0 to every child, every child back to parent (its rank % parents). */
  if (parents) {
    for (int r = 0; rank == 0 && r < remote; ++r) {
      const int v = 100 + r;
      CHECK_MPI(MPI_Send(&v, 1, MPI_INT, r, 7, inter));
    }
    for (int r = rank; r < remote; r += size) {
      int v = -1;
      MPI_Status st;
      CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 8, inter, &st));
      CHECK(v == 200 + st.MPI_SOURCE && st.MPI_SOURCE % size == rank);
    }
  } else {
    int v = -1;
    CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 7, inter, MPI_STATUS_IGNORE));
    CHECK(v == 100 + rank);
    v = 200 + rank;
    CHECK_MPI(MPI_Send(&v, 1, MPI_INT, rank % remote, 8, inter));
  }

  /* Longer messages, which go as pieces over libfabric with a small WEFT_OFI_MAX_MSG (the
   * receiver grants the pieces to the sender's address, its rank being of another job): parent 0
   * sends each child kLong ints and then none synchronously, each child sends them back to a
   * parent. */
  enum { kLong = 300 };
  int longer[kLong];
  if (parents) {
    for (int r = 0; rank == 0 && r < remote; ++r) {
      for (int i = 0; i < kLong; ++i) longer[i] = r * 1000 + i;
      CHECK_MPI(MPI_Ssend(longer, kLong, MPI_INT, r, 9, inter));
      CHECK_MPI(MPI_Ssend(NULL, 0, MPI_INT, r, 11, inter));  /* empty: acknowledged all the same */
    }
    for (int r = rank; r < remote; r += size) {
      MPI_Status st;
      CHECK_MPI(MPI_Recv(longer, kLong, MPI_INT, MPI_ANY_SOURCE, 10, inter, &st));
      for (int i = 0; i < kLong; ++i) CHECK(longer[i] == st.MPI_SOURCE * 1000 + i);
    }
  } else {
    CHECK_MPI(MPI_Recv(longer, kLong, MPI_INT, 0, 9, inter, MPI_STATUS_IGNORE));
    for (int i = 0; i < kLong; ++i) CHECK(longer[i] == rank * 1000 + i);
    MPI_Status st;
    int count = -1;
    CHECK_MPI(MPI_Recv(longer, kLong, MPI_INT, 0, 11, inter, &st));
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == 0);
    CHECK_MPI(MPI_Send(longer, kLong, MPI_INT, rank % remote, 10, inter));
  }

  /* A bcast from the parents' rank 0, then one from the children's rank 0. */
  for (int from_parents = 1; from_parents >= 0; --from_parents) {
    int v = 0;
    const int rooted_here = from_parents == parents;
    if (rooted_here && rank == 0) v = 42 + from_parents;
    const int root = rooted_here ? (rank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    CHECK_MPI(MPI_Bcast(&v, 1, MPI_INT, root, inter));
    if (!rooted_here) CHECK(v == 42 + from_parents);
  }

  /* Allreduce: each side gets the sum over the other side (parents give 1, children 10). */
  int mine = parents ? 1 : 10, sum = 0;
  CHECK_MPI(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, inter));
  CHECK(sum == remote * (parents ? 10 : 1));

  /* Merge: the parents first. */
  MPI_Comm merged;
  CHECK_MPI(MPI_Intercomm_merge(inter, !parents, &merged));
  int mrank, msize, total = 0;
  MPI_Comm_rank(merged, &mrank);
  MPI_Comm_size(merged, &msize);
  CHECK(msize == size + remote);
  CHECK(mrank == (parents ? rank : remote + rank));
  CHECK_MPI(MPI_Allreduce(&mrank, &total, 1, MPI_INT, MPI_SUM, merged));
  CHECK(total == msize * (msize - 1) / 2);
  CHECK_MPI(MPI_Comm_free(&merged));
}

static void child(int argc, char** argv) {
  MPI_Comm parent;
  CHECK_MPI(MPI_Comm_get_parent(&parent));
  CHECK(parent != MPI_COMM_NULL);
  int size, *appnum = NULL, flag = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &appnum, &flag));
  CHECK(flag);
  /* argv: "child" <first command's count> <which command: 0 or 1> */
  CHECK(argc == 4);
  CHECK(*appnum == atoi(argv[3]));
  exercise(parent, 0);
  CHECK_MPI(MPI_Comm_disconnect(&parent));
  CHECK(parent == MPI_COMM_NULL);
  CHECK_MPI(MPI_Comm_get_parent(&parent));
  CHECK(parent == MPI_COMM_NULL);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  if (argc > 1 && strcmp(argv[1], "child") == 0) {
    child(argc, argv);
    MPI_Finalize();
    return 0;
  }
  int rank, size, flag = 0, *universe = NULL;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm parent;
  CHECK_MPI(MPI_Comm_get_parent(&parent));
  CHECK(parent == MPI_COMM_NULL);
  CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &universe, &flag));
  CHECK(flag && *universe >= size);

  /* One child, from rank size - 1. */
  char* args1[] = {"child", "1", "0", NULL};
  MPI_Comm inter;
  int codes[3] = {-1, -1, -1};
  CHECK_MPI(MPI_Comm_spawn(argv[0], args1, 1, MPI_INFO_NULL, size - 1, MPI_COMM_WORLD, &inter,
                           codes));
  CHECK(codes[0] == MPI_SUCCESS);
  int remote = 0;
  MPI_Comm_remote_size(inter, &remote);
  CHECK(remote == 1);
  exercise(inter, 1);
  CHECK_MPI(MPI_Comm_disconnect(&inter));
  CHECK(inter == MPI_COMM_NULL);

  /* Two commands: 1 + 2 children, with a working directory given to the second. */
  char* argv_a[] = {"child", "1", "0", NULL};
  char* argv_b[] = {"child", "1", "1", NULL};
  char* commands[2] = {argv[0], argv[0]};
  char** argvs[2] = {argv_a, argv_b};
  int counts[2] = {1, 2};
  MPI_Info infos[2] = {MPI_INFO_NULL, MPI_INFO_NULL};
  MPI_Info_create(&infos[1]);
  MPI_Info_set(infos[1], "wdir", "/tmp");
  MPI_Info_set(infos[1], "host", "localhost");
  CHECK_MPI(MPI_Comm_spawn_multiple(2, commands, argvs, counts, infos, 0, MPI_COMM_WORLD, &inter,
                                    codes));
  MPI_Info_free(&infos[1]);
  for (int i = 0; i < 3; ++i) CHECK(codes[i] == MPI_SUCCESS);
  MPI_Comm_remote_size(inter, &remote);
  CHECK(remote == 3);
  exercise(inter, 1);
  CHECK_MPI(MPI_Comm_disconnect(&inter));
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) printf("spawn: ok\n");
  MPI_Finalize();
  return 0;
}
