/* MPI_Gather(v), MPI_Igather(v) and MPI_Gather(v)_init: every root, counts from 0 to about
 * 1 MiB in all, MPI_IN_PLACE at the root, uneven counts with zeros at gapped, out-of-order
 * displacements; the root gets every block, gaps and the bytes past the end stay untouched. */
#include <stdlib.h>

#include "coll_ops.h"

static int rank, size;

static void gather(int form, const void* sb, int sc, MPI_Datatype st, void* rb, int rc,
                   MPI_Datatype rt, int root) {
  MPI_Request req = MPI_REQUEST_NULL;
  MPI_Comm w = MPI_COMM_WORLD;
  if (form == FORM_BLOCKING) CHECK_MPI(MPI_Gather(sb, sc, st, rb, rc, rt, root, w));
  if (form == FORM_NONBLOCKING) CHECK_MPI(MPI_Igather(sb, sc, st, rb, rc, rt, root, w, &req));
  if (form == FORM_PERSISTENT)
    CHECK_MPI(MPI_Gather_init(sb, sc, st, rb, rc, rt, root, w, MPI_INFO_NULL, &req));
  finish_form(form, &req);
}

static void gatherv(int form, const void* sb, int sc, MPI_Datatype st, void* rb, const int* rcs,
                    const int* displs, MPI_Datatype rt, int root) {
  MPI_Request req = MPI_REQUEST_NULL;
  MPI_Comm w = MPI_COMM_WORLD;
  if (form == FORM_BLOCKING) CHECK_MPI(MPI_Gatherv(sb, sc, st, rb, rcs, displs, rt, root, w));
  if (form == FORM_NONBLOCKING)
    CHECK_MPI(MPI_Igatherv(sb, sc, st, rb, rcs, displs, rt, root, w, &req));
  if (form == FORM_PERSISTENT)
    CHECK_MPI(MPI_Gatherv_init(sb, sc, st, rb, rcs, displs, rt, root, w, MPI_INFO_NULL, &req));
  finish_form(form, &req);
}

/* Gather of n ints per rank. `odd_args`: the arguments a rank may leave meaningless are
 * (recvbuf NULL, recvcount -1 and MPI_DATATYPE_NULL off the root; sendcount -1 and
 * MPI_DATATYPE_NULL with MPI_IN_PLACE). */
static void check_gather(int form, int n, int root, int in_place, int odd_args, int salt) {
  check_context("%s MPI_Gather of %d MPI_INT per rank to root %d%s%s", form_name(form), n, root,
                in_place ? ", MPI_IN_PLACE at the root" : "",
                odd_args ? ", ignored arguments left meaningless" : "");
  const long total = (long)n * size;
  int* send = malloc((size_t)n * sizeof(int) + 1);
  int* recv = malloc((size_t)total * sizeof(int) + GUARD_BYTES);
  int* want = malloc((size_t)total * sizeof(int) + 1);
  CHECK(send && recv && want);
  for (int i = 0; i < n; ++i) send[i] = mix3(rank, i, salt);
  for (long i = 0; i < total; ++i) {
    want[i] = mix3((int)(i / (n ? n : 1)), (int)(i % (n ? n : 1)), salt);
    recv[i] = -1;
  }
  guard_set(recv + total);
  if (rank == root) {
    if (in_place) {
      memcpy(recv + (long)root * n, send, (size_t)n * sizeof(int));
      gather(form, MPI_IN_PLACE, odd_args ? -1 : n, odd_args ? MPI_DATATYPE_NULL : MPI_INT, recv, n,
             MPI_INT, root);
    } else {
      gather(form, send, n, MPI_INT, recv, n, MPI_INT, root);
    }
    check_ints(recv, want, total, "recvbuf");
    guard_check(recv + total, "recvbuf");
  } else {
    if (odd_args)
      gather(form, send, n, MPI_INT, NULL, -1, MPI_DATATYPE_NULL, root);
    else
      gather(form, send, n, MPI_INT, recv, n, MPI_INT, root);
    for (long i = 0; i < total; ++i) CHECK(recv[i] == -1); /* not the root: untouched */
  }
  free(send);
  free(recv);
  free(want);
}

/* Gatherv of vector_layout(kind, special, scale) to root. `null_off_root`: the other ranks pass
 * NULL recvcounts and displs (significant only at the root). */
static void check_gatherv(int form, int kind, int special, int scale, int root, int in_place,
                          int null_off_root, int salt) {
  check_context("%s MPI_Gatherv to root %d, layout kind %d special %d scale %d%s%s",
                form_name(form), root, kind, special, scale,
                in_place ? ", MPI_IN_PLACE at the root" : "",
                null_off_root ? ", NULL recvcounts/displs off the root" : "");
  int* counts = malloc((size_t)size * sizeof(int));
  int* displs = malloc((size_t)size * sizeof(int));
  CHECK(counts && displs);
  const long extent = vector_layout(size, kind, special, scale, counts, displs);
  const int n = counts[rank];
  int* send = malloc((size_t)n * sizeof(int) + 1);
  int* recv = malloc((size_t)extent * sizeof(int) + GUARD_BYTES);
  int* want = malloc((size_t)extent * sizeof(int) + 1);
  CHECK(send && recv && want);
  for (int i = 0; i < n; ++i) send[i] = mix3(rank, i, salt);
  for (long i = 0; i < extent; ++i) want[i] = recv[i] = -1; /* gaps stay -1 */
  for (int r = 0; r < size; ++r)
    for (int i = 0; i < counts[r]; ++i) want[displs[r] + i] = mix3(r, i, salt);
  guard_set(recv + extent);
  if (rank == root && in_place) {
    memcpy(recv + displs[root], send, (size_t)n * sizeof(int));
    gatherv(form, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, recv, counts, displs, MPI_INT, root);
  } else {
    const int off = rank != root && null_off_root;
    gatherv(form, send, n, MPI_INT, rank == root ? recv : NULL, off ? NULL : counts,
            off ? NULL : displs, MPI_INT, root);
  }
  if (rank == root) {
    check_ints(recv, want, extent, "recvbuf");
    guard_check(recv + extent, "recvbuf");
  }
  free(send);
  free(recv);
  free(want);
  free(counts);
  free(displs);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  world_ring(&rank, &size, NULL, NULL);
  errors_return();
  int roots[4];
  const int nroots = root_set(size, roots);
  int salt = 1, call = 0;
  /* Every count at every root of root_set, in place or not; the form changes from call to call. */
  const int counts[] = {0, 1, 3, 1001};
  for (size_t c = 0; c < sizeof counts / sizeof counts[0]; ++c)
    for (int r = 0; r < nroots; ++r)
      for (int in_place = 0; in_place < 2; ++in_place)
        check_gather(call++ % NUM_FORMS, counts[c], roots[r], in_place, (r + (int)c) % 2, salt++);
  const int big = (1 << 18) / size + 3; /* about 1 MiB at the root */
  for (int form = 0; form < NUM_FORMS; ++form)
    check_gather(form, (int)large_count(form, 0, big), (size - 1 + form) % size,
                 form == FORM_PERSISTENT, 0, salt++);

  for (int kind = 0; kind < 4; ++kind)
    for (int r = 0; r < nroots; ++r)
      for (int in_place = 0; in_place < 2; ++in_place)
        check_gatherv(call++ % NUM_FORMS, kind, (roots[r] + in_place) % size, 1 + 36 * in_place,
                      roots[r], in_place, 0, salt++);
  for (int form = 0; form < NUM_FORMS; ++form)
    check_gatherv(form, 0, form % size, (int)large_count(form, 1, (1 << 17) / size + 1),
                  size - 1 - form % size, form == FORM_BLOCKING, 0, salt++);
  /* recvcounts and displs are significant only at the root: the others pass NULL. */
  for (int r = 0; r < nroots; ++r)
    check_gatherv(r % NUM_FORMS, r % 4, size - 1 - roots[r], 5, roots[r], r % 2, 1, salt++);
  MPI_Finalize();
  return 0;
}
