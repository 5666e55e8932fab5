/* Intercommunicator creation and queries: MPI_Intercomm_create (leaders at both ends of the
 * groups), MPI_Comm_test_inter, sizes, local and remote groups, MPI_Intercomm_merge with every
 * order of the high flags, MPI_Comm_compare, names and attributes on an intercommunicator. */
#include <stdlib.h>

#include "inter_common.h"

static int world_rank, world_size;

/* Every member of the merged communicator `merged` in rank order is the world rank expected:
 * the first group's ranks in local order, then the second's. */
static void check_merged(MPI_Comm merged, int a_first) {
  int size, rank;
  MPI_Comm_size(merged, &size);
  MPI_Comm_rank(merged, &rank);
  CHECK(size == world_size);
  const int na = inter_size_a(world_size), nb = world_size - na;
  int* want = malloc(sizeof(int) * (size_t)size);
  for (int i = 0; i < size; ++i) {
    const int first_n = a_first ? na : nb;
    want[i] = i < first_n ? inter_world_of(a_first, i, world_size)
                          : inter_world_of(!a_first, i - first_n, world_size);
  }
  int* got = malloc(sizeof(int) * (size_t)size);
  CHECK_MPI(MPI_Allgather(&world_rank, 1, MPI_INT, got, 1, MPI_INT, merged));
  check_ints(got, want, size, "merged order");
  CHECK(want[rank] == world_rank);
  free(want);
  free(got);
}

static int deleted = 0;
static int delete_fn(MPI_Comm comm, int key, void* value, void* extra) {
  (void)comm, (void)key, (void)extra;
  deleted += *(int*)value;
  return MPI_SUCCESS;
}

int main(int argc, char** argv) {
  if (!inter_init(&argc, &argv, &world_rank, &world_size)) return 0;
  const int na = inter_size_a(world_size), nb = world_size - na;
  for (int leader = 0; leader < 3; leader += 2) {
    check_context("leader %d", leader);
    int in_a;
    MPI_Comm local, inter;
    inter_make(leader, &in_a, &local, &inter);
    int flag = -1, size, rank, rsize, local_rank;
    CHECK_MPI(MPI_Comm_test_inter(inter, &flag));
    CHECK(flag == 1);
    CHECK_MPI(MPI_Comm_test_inter(local, &flag));
    CHECK(flag == 0);
    MPI_Comm_size(inter, &size);
    MPI_Comm_rank(inter, &rank);
    MPI_Comm_rank(local, &local_rank);
    CHECK_MPI(MPI_Comm_remote_size(inter, &rsize));
    CHECK(size == (in_a ? na : nb));
    CHECK(rsize == (in_a ? nb : na));
    CHECK(rank == local_rank);

    /* The local group is this group's world ranks; the remote group the other's. */
    MPI_Group lg, rg, wg;
    CHECK_MPI(MPI_Comm_group(inter, &lg));
    CHECK_MPI(MPI_Comm_remote_group(inter, &rg));
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    int gsize;
    MPI_Group_size(rg, &gsize);
    CHECK(gsize == rsize);
    for (int r = 0; r < rsize; ++r) {
      int w;
      MPI_Group_translate_ranks(rg, 1, &r, wg, &w);
      CHECK(w == inter_world_of(!in_a, r, world_size));
    }
    for (int r = 0; r < size; ++r) {
      int w;
      MPI_Group_translate_ranks(lg, 1, &r, wg, &w);
      CHECK(w == inter_world_of(in_a, r, world_size));
    }
    MPI_Group_free(&lg);
    MPI_Group_free(&rg);
    MPI_Group_free(&wg);

    /* Merge: high = 0 goes first; equal flags give one of the two orders, the same everywhere. */
    for (int order = 0; order < 4; ++order) {
      check_context("leader %d merge order %d", leader, order);
      const int high = in_a ? (order & 1) : (order >> 1 & 1);
      MPI_Comm merged;
      CHECK_MPI(MPI_Intercomm_merge(inter, high, &merged));
      CHECK_MPI(MPI_Comm_test_inter(merged, &flag));
      CHECK(flag == 0);
      const int high_a = order & 1, high_b = order >> 1 & 1;
      if (high_a != high_b) {
        check_merged(merged, high_a == 0);
      } else {
        int first = -1; /* the world rank of merged rank 0 decides the order */
        int r0;
        MPI_Comm_rank(merged, &r0);
        int w0 = r0 == 0 ? world_rank : -1;
        MPI_Allreduce(&w0, &first, 1, MPI_INT, MPI_MAX, merged);
        check_merged(merged, inter_in_a(first));
      }
      MPI_Comm_free(&merged);
    }

    /* Compare, names and attributes. */
    int result;
    CHECK_MPI(MPI_Comm_compare(inter, inter, &result));
    CHECK(result == MPI_IDENT);
    CHECK_MPI(MPI_Comm_compare(inter, local, &result));
    CHECK(result == MPI_UNEQUAL);
    MPI_Comm dup;
    CHECK_MPI(MPI_Comm_dup(inter, &dup));
    CHECK_MPI(MPI_Comm_compare(inter, dup, &result));
    CHECK(result == MPI_CONGRUENT);
    CHECK_MPI(MPI_Comm_set_name(dup, "the dup"));
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    CHECK_MPI(MPI_Comm_get_name(dup, name, &len));
    CHECK(strcmp(name, "the dup") == 0 && len == 7);
    int key;
    static int value = 5;
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_fn, &key, NULL));
    CHECK_MPI(MPI_Comm_set_attr(dup, key, &value));
    int* got;
    CHECK_MPI(MPI_Comm_get_attr(dup, key, &got, &flag));
    CHECK(flag && got == &value);
    deleted = 0;
    CHECK_MPI(MPI_Comm_free(&dup));
    CHECK(deleted == 5 && dup == MPI_COMM_NULL);
    MPI_Comm_free_keyval(&key);
    CHECK_MPI(MPI_Comm_free(&inter));
    MPI_Comm_free(&local);
  }
  MPI_Finalize();
  return 0;
}
