/* MPI_Comm_idup of an intercommunicator is nonblocking: every rank but world rank 0 posts its
 * idups and then sends to rank 0, which receives from all of them before it posts its own (a
 * blocking idup would deadlock there); the parent carries traffic and an allreduce while they
 * are pending; then the duplicates, complete (by MPI_Test polling or MPI_Waitall), carry
 * point-to-point both ways and an allreduce, keep the attribute copied by its callback and the
 * error handler, and are congruent with the parent. */
#include "inter_common.h"

enum { kIdups = 3 };

static int g_copies;

static int copy_attr(MPI_Comm comm, int keyval, void* extra, void* in, void* out, int* flag) {
  (void)comm, (void)keyval, (void)extra;
  ++g_copies;
  *(void**)out = (char*)in + 1;
  *flag = 1;
  return MPI_SUCCESS;
}

/* Point-to-point with every remote rank both ways, then an allreduce of world ranks. */
static void use(MPI_Comm comm, int in_a, int world_rank, int world_size, int k) {
  int remote = 0, local = 0;
  CHECK_MPI(MPI_Comm_remote_size(comm, &remote));
  CHECK_MPI(MPI_Comm_size(comm, &local));
  int got[64];
  MPI_Request reqs[128];
  CHECK(remote <= 64);
  for (int r = 0; r < remote; ++r) {
    CHECK_MPI(MPI_Irecv(&got[r], 1, MPI_INT, r, k, comm, &reqs[r]));
    CHECK_MPI(MPI_Isend(&world_rank, 1, MPI_INT, r, k, comm, &reqs[remote + r]));
  }
  CHECK_MPI(MPI_Waitall(2 * remote, reqs, MPI_STATUSES_IGNORE));
  int want_sum = 0;
  for (int r = 0; r < remote; ++r) {
    const int w = inter_world_of(!in_a, r, world_size);
    CHECK(got[r] == w);
    want_sum += w;
  }
  int sum = -1;
  CHECK_MPI(MPI_Allreduce(&world_rank, &sum, 1, MPI_INT, MPI_SUM, comm));
  CHECK(sum == want_sum);
}

int main(int argc, char** argv) {
  int world_rank, world_size;
  if (!inter_init(&argc, &argv, &world_rank, &world_size)) return 0;
  CHECK(world_size <= 64);
  int in_a;
  MPI_Comm local, inter;
  inter_make(0, &in_a, &local, &inter);
  CHECK_MPI(MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN));
  int keyval;
  static char base[4];
  CHECK_MPI(MPI_Comm_create_keyval(copy_attr, MPI_COMM_NULL_DELETE_FN, &keyval, NULL));
  CHECK_MPI(MPI_Comm_set_attr(inter, keyval, base));

  for (int round = 0; round < 3; ++round) {
    check_context("round %d: idups posted before a point-to-point exchange", round);
    MPI_Comm dups[kIdups];
    MPI_Request reqs[kIdups];
    int token = world_rank;
    if (world_rank == 0) {
      for (int r = 1; r < world_size; ++r) {
        CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, r, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(token == r);
      }
    }
    for (int k = 0; k < kIdups; ++k) {
      dups[k] = MPI_COMM_NULL;
      if (k == 1) {
        CHECK_MPI(MPI_Comm_idup_with_info(inter, MPI_INFO_NULL, &dups[k], &reqs[k]));
      } else {
        CHECK_MPI(MPI_Comm_idup(inter, &dups[k], &reqs[k]));
      }
    }
    if (world_rank != 0) {
      CHECK_MPI(MPI_Send(&token, 1, MPI_INT, 0, 5, MPI_COMM_WORLD));
    }
    /* The parent's own traffic and collectives while the idups are pending. */
    use(inter, in_a, world_rank, world_size, 7);
    /* The first by polling, the others by MPI_Waitall. */
    for (int done = 0; !done;) CHECK_MPI(MPI_Test(&reqs[0], &done, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Waitall(kIdups - 1, &reqs[1], MPI_STATUSES_IGNORE));
    for (int k = 0; k < kIdups; ++k) {
      int flag = 0, result = -1;
      CHECK(dups[k] != MPI_COMM_NULL && dups[k] != inter);
      CHECK_MPI(MPI_Comm_test_inter(dups[k], &flag));
      CHECK(flag);
      CHECK_MPI(MPI_Comm_compare(inter, dups[k], &result));
      CHECK(result == MPI_CONGRUENT);
      void* value = NULL;
      CHECK_MPI(MPI_Comm_get_attr(dups[k], keyval, &value, &flag));
      CHECK(flag && value == base + 1);
      MPI_Errhandler handler;
      CHECK_MPI(MPI_Comm_get_errhandler(dups[k], &handler));
      CHECK(handler == MPI_ERRORS_RETURN);
      CHECK_MPI(MPI_Errhandler_free(&handler));
      char name[MPI_MAX_OBJECT_NAME];
      int len = -1;
      CHECK_MPI(MPI_Comm_get_name(dups[k], name, &len));
      CHECK(len >= 0);
      use(dups[k], in_a, world_rank, world_size, k);
    }
    for (int k = 0; k < kIdups; ++k) CHECK_MPI(MPI_Comm_free(&dups[k]));
  }
  CHECK(g_copies == 3 * kIdups);
  use(inter, in_a, world_rank, world_size, 9);
  CHECK_MPI(MPI_Comm_free_keyval(&keyval));
  CHECK_MPI(MPI_Comm_free(&inter));
  CHECK_MPI(MPI_Comm_free(&local));
  if (world_rank == 0) printf("inter_idup: ok (%d ranks)\n", world_size);
  MPI_Finalize();
  return 0;
}
