/* Group arithmetic on MPI_COMM_WORLD's group: incl, excl, ranges, union, intersection,
 * difference, translate_ranks, compare, MPI_GROUP_EMPTY, and MPI_Group_rank membership. */
#include <stdlib.h>

#include "check.h"

static void check_group(MPI_Group g, const int* want_world_ranks, int n, const char* what) {
  int gsize = -1;
  check_context("%s", what);
  CHECK_MPI(MPI_Group_size(g, &gsize));
  CHECK(gsize == n);
  MPI_Group world;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int* ranks = malloc(sizeof(int) * (size_t)(n + 1));
  int* got = malloc(sizeof(int) * (size_t)(n + 1));
  for (int i = 0; i < n; ++i) ranks[i] = i;
  CHECK_MPI(MPI_Group_translate_ranks(g, n, ranks, world, got));
  check_ints(got, want_world_ranks, n, what);
  MPI_Group_free(&world);
  free(ranks);
  free(got);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  int rank, size;
  world_ring(&rank, &size, NULL, NULL);
  MPI_Group world;
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
  int* want = malloc(sizeof(int) * (size_t)size);

  int grank = -1;
  CHECK_MPI(MPI_Group_rank(world, &grank));
  CHECK(grank == rank);

  /* incl in reverse order */
  int* reverse = malloc(sizeof(int) * (size_t)size);
  for (int i = 0; i < size; ++i) reverse[i] = want[i] = size - 1 - i;
  MPI_Group rev;
  CHECK_MPI(MPI_Group_incl(world, size, reverse, &rev));
  check_group(rev, want, size, "incl reversed");
  CHECK_MPI(MPI_Group_rank(rev, &grank));
  CHECK(grank == size - 1 - rank);
  int result = -1;
  CHECK_MPI(MPI_Group_compare(world, rev, &result));
  CHECK(result == (size == 1 ? MPI_IDENT : MPI_SIMILAR));

  /* excl rank 0 */
  int zero = 0;
  MPI_Group no0;
  CHECK_MPI(MPI_Group_excl(world, 1, &zero, &no0));
  for (int i = 1; i < size; ++i) want[i - 1] = i;
  check_group(no0, want, size - 1, "excl 0");
  CHECK_MPI(MPI_Group_rank(no0, &grank));
  CHECK(grank == (rank == 0 ? MPI_UNDEFINED : rank - 1));

  /* range_incl: odd ranks downwards, then range_excl of the evens */
  const int highest_odd = (size - 1) % 2 == 1 ? size - 1 : size - 2;
  int down[1][3] = {{highest_odd, 1, -2}};
  MPI_Group odds, odds2;
  int nodds = 0;
  if (size > 1) {
    CHECK_MPI(MPI_Group_range_incl(world, 1, down, &odds));
    for (int r = down[0][0]; r >= 1; r -= 2) want[nodds++] = r;
    check_group(odds, want, nodds, "range_incl odd ranks downwards");
    int evens[1][3] = {{0, size - 1, 2}};
    CHECK_MPI(MPI_Group_range_excl(world, 1, evens, &odds2));
    CHECK_MPI(MPI_Group_compare(odds, odds2, &result));
    CHECK(result == (nodds <= 1 ? MPI_IDENT : MPI_SIMILAR));

    /* union, intersection, difference */
    MPI_Group u, x, d;
    CHECK_MPI(MPI_Group_union(odds, world, &u));  /* odds first, then the rest in order */
    int n = 0;
    for (int r = down[0][0]; r >= 1; r -= 2) want[n++] = r;
    for (int r = 0; r < size; r += 2) want[n++] = r;
    check_group(u, want, size, "union");
    CHECK_MPI(MPI_Group_intersection(world, odds, &x));
    n = 0;
    for (int r = 1; r < size; r += 2) want[n++] = r;
    check_group(x, want, n, "intersection in the first group's order");
    CHECK_MPI(MPI_Group_difference(world, odds, &d));
    n = 0;
    for (int r = 0; r < size; r += 2) want[n++] = r;
    check_group(d, want, n, "difference");
    MPI_Group_free(&u);
    MPI_Group_free(&x);
    MPI_Group_free(&d);
    MPI_Group_free(&odds);
    MPI_Group_free(&odds2);
  }

  /* empty results and MPI_GROUP_EMPTY */
  MPI_Group none;
  CHECK_MPI(MPI_Group_difference(world, world, &none));
  CHECK(none == MPI_GROUP_EMPTY);
  int esize = -1;
  CHECK_MPI(MPI_Group_size(MPI_GROUP_EMPTY, &esize));
  CHECK(esize == 0);
  CHECK_MPI(MPI_Group_rank(MPI_GROUP_EMPTY, &grank));
  CHECK(grank == MPI_UNDEFINED);
  CHECK_MPI(MPI_Group_compare(MPI_GROUP_EMPTY, none, &result));
  CHECK(result == MPI_IDENT);

  /* translate: MPI_PROC_NULL stays, absent members are MPI_UNDEFINED */
  int from[2] = {MPI_PROC_NULL, 0}, to[2] = {-7, -7};
  CHECK_MPI(MPI_Group_translate_ranks(world, 2, from, no0, to));
  CHECK(to[0] == MPI_PROC_NULL && to[1] == MPI_UNDEFINED);

  check_context("group errors");
  MPI_Group bad = MPI_GROUP_NULL;
  int twice[2] = {0, 0}, out_of_range = size;
  int stride0[1][3] = {{0, 0, 0}};
  CHECK(error_class(MPI_Group_size(MPI_GROUP_NULL, &esize)) == MPI_ERR_GROUP);
  CHECK(error_class(MPI_Group_incl(world, 1, &out_of_range, &bad)) == MPI_ERR_RANK);
  CHECK(error_class(MPI_Group_incl(world, 2, twice, &bad)) == MPI_ERR_RANK);
  CHECK(error_class(MPI_Group_range_incl(world, 1, stride0, &bad)) == MPI_ERR_ARG);
  CHECK(error_class(MPI_Group_excl(world, -1, twice, &bad)) == MPI_ERR_COUNT);
  CHECK(error_class(MPI_Group_translate_ranks(world, 1, &out_of_range, world, to)) == MPI_ERR_RANK);
  CHECK(bad == MPI_GROUP_NULL);
  char text[MPI_MAX_ERROR_STRING];
  int len;
  MPI_Error_string(MPI_Group_incl(world, 1, &out_of_range, &bad), text, &len);
  CHECK(strstr(text, "MPI_Group_incl") != NULL && strstr(text, "ranks[0]") != NULL);

  MPI_Group_free(&rev);
  MPI_Group_free(&no0);
  CHECK_MPI(MPI_Group_free(&world));
  CHECK(world == MPI_GROUP_NULL);
  free(want);
  free(reverse);
  MPI_Finalize();
  return 0;
}
