/* Communicators made from an intercommunicator: MPI_Comm_dup, MPI_Comm_idup, MPI_Comm_split
 * (with MPI_UNDEFINED and colors only one group has) and MPI_Comm_create (subgroups in a
 * reversed order); each result's groups are checked and carries traffic both ways. */
#include <stdlib.h>

#include "inter_common.h"

static int world_rank, world_size;

/* `c` is an intercommunicator whose local group is `local` and remote group `remote` (world
 * ranks, in rank order); a message from each rank to every remote rank arrives, named. */
static void check_inter(MPI_Comm c, const int* local, int nlocal, const int* remote, int nremote) {
  int flag, size, rsize, rank;
  CHECK_MPI(MPI_Comm_test_inter(c, &flag));
  CHECK(flag);
  MPI_Comm_size(c, &size);
  MPI_Comm_remote_size(c, &rsize);
  MPI_Comm_rank(c, &rank);
  CHECK(size == nlocal && rsize == nremote && local[rank] == world_rank);
  MPI_Group rg, wg;
  MPI_Comm_remote_group(c, &rg);
  MPI_Comm_group(MPI_COMM_WORLD, &wg);
  for (int r = 0; r < rsize; ++r) {
    int w;
    MPI_Group_translate_ranks(rg, 1, &r, wg, &w);
    CHECK(w == remote[r]);
  }
  MPI_Group_free(&rg);
  MPI_Group_free(&wg);
  MPI_Request* reqs = malloc(sizeof(MPI_Request) * (size_t)rsize);
  int* got = malloc(sizeof(int) * (size_t)rsize);
  for (int r = 0; r < rsize; ++r) CHECK_MPI(MPI_Irecv(&got[r], 1, MPI_INT, r, 0, c, &reqs[r]));
  for (int r = 0; r < rsize; ++r) CHECK_MPI(MPI_Send(&world_rank, 1, MPI_INT, r, 0, c));
  CHECK_MPI(MPI_Waitall(rsize, reqs, MPI_STATUSES_IGNORE));
  check_ints(got, remote, rsize, "senders");
  /* A collective on it too. */
  int sum = 0, want = 0;
  for (int r = 0; r < rsize; ++r) want += remote[r];
  CHECK_MPI(MPI_Allreduce(&world_rank, &sum, 1, MPI_INT, MPI_SUM, c));
  CHECK(sum == want);
  free(reqs);
  free(got);
}

/* The world ranks of `group` (1: A) whose world rank satisfies keep(w), in the order of `key`. */
static int members(int group, int (*keep)(int), int descending, int* out) {
  int n = 0;
  for (int w = 0; w < world_size; ++w)
    if (inter_in_a(w) == group && keep(w)) out[n++] = w;
  if (descending)
    for (int i = 0; i < n / 2; ++i) {
      const int t = out[i];
      out[i] = out[n - 1 - i];
      out[n - 1 - i] = t;
    }
  return n;
}
static int all(int w) { return w >= 0; }
static int even(int w) { return w % 2 == 0; }
static int odd(int w) { return w % 2 == 1; }

int main(int argc, char** argv) {
  if (!inter_init(&argc, &argv, &world_rank, &world_size)) return 0;
  int in_a;
  MPI_Comm local, inter;
  inter_make(1, &in_a, &local, &inter);
  int l[64], r[64], nl, nr;

  check_context("dup");
  MPI_Comm dup, idup;
  CHECK_MPI(MPI_Comm_dup(inter, &dup));
  nl = members(in_a, all, 0, l);
  nr = members(!in_a, all, 0, r);
  check_inter(dup, l, nl, r, nr);

  check_context("idup");
  MPI_Request req;
  CHECK_MPI(MPI_Comm_idup(dup, &idup, &req));
  CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
  check_inter(idup, l, nl, r, nr);
  MPI_Comm_free(&idup);
  CHECK_MPI(MPI_Comm_free(&dup));

  /* Split by parity of the world rank, keys descending; both groups have both colors only
   * from 4 ranks on, else the result is MPI_COMM_NULL where one side is empty. */
  check_context("split");
  MPI_Comm split;
  const int color = world_rank % 2;
  CHECK_MPI(MPI_Comm_split(inter, color, world_size - world_rank, &split));
  nl = members(in_a, color ? odd : even, 1, l);
  nr = members(!in_a, color ? odd : even, 1, r);
  if (nr == 0) {
    CHECK(split == MPI_COMM_NULL);
  } else {
    check_inter(split, l, nl, r, nr);
    MPI_Comm_free(&split);
  }
  check_context("split with MPI_UNDEFINED");
  CHECK_MPI(MPI_Comm_split(inter, in_a ? 0 : (world_rank == 0 ? 0 : MPI_UNDEFINED), 0, &split));
  if (!in_a && world_rank != 0) {
    CHECK(split == MPI_COMM_NULL);
  } else {
    nl = in_a ? members(1, all, 0, l) : (l[0] = 0, 1);
    nr = in_a ? (r[0] = 0, 1) : members(1, all, 0, r);
    check_inter(split, l, nl, r, nr);
    MPI_Comm_free(&split);
  }

  /* Create from the even ranks of each group, in reversed order. */
  check_context("create");
  MPI_Group lg, sub;
  MPI_Comm_group(inter, &lg);
  nl = members(in_a, even, 1, l);
  nr = members(!in_a, even, 1, r);
  MPI_Group wg;
  MPI_Comm_group(MPI_COMM_WORLD, &wg);
  MPI_Group_incl(wg, nl, l, &sub);
  MPI_Comm created;
  CHECK_MPI(MPI_Comm_create(inter, sub, &created));
  if (nl == 0 || nr == 0 || world_rank % 2 == 1) {
    CHECK(created == MPI_COMM_NULL);
  } else {
    check_inter(created, l, nl, r, nr);
    MPI_Comm_free(&created);
  }
  MPI_Group_free(&sub);
  MPI_Group_free(&lg);
  MPI_Group_free(&wg);

  CHECK_MPI(MPI_Comm_free(&inter));
  MPI_Comm_free(&local);
  MPI_Finalize();
  return 0;
}
