/* MPI_Scatter(v), MPI_Iscatter(v) and MPI_Scatter(v)_init: several roots, counts from 0 to about
 * 1 MiB in all, MPI_IN_PLACE at the root, uneven counts with zeros at gapped, out-of-order
 * displacements; every rank gets its block, the root's send buffer is left as it was. */
#include <stdlib.h>

#include "coll_ops.h"

static int rank, size;

static void scatter(int form, const void* sb, int sc, MPI_Datatype st, void* rb, int rc,
                    MPI_Datatype rt, int root) {
  MPI_Request req = MPI_REQUEST_NULL;
  MPI_Comm w = MPI_COMM_WORLD;
  if (form == FORM_BLOCKING) CHECK_MPI(MPI_Scatter(sb, sc, st, rb, rc, rt, root, w));
  if (form == FORM_NONBLOCKING) CHECK_MPI(MPI_Iscatter(sb, sc, st, rb, rc, rt, root, w, &req));
  if (form == FORM_PERSISTENT)
    CHECK_MPI(MPI_Scatter_init(sb, sc, st, rb, rc, rt, root, w, MPI_INFO_NULL, &req));
  finish_form(form, &req);
}

static void scatterv(int form, const void* sb, const int* scs, const int* displs, MPI_Datatype st,
                     void* rb, int rc, MPI_Datatype rt, int root) {
  MPI_Request req = MPI_REQUEST_NULL;
  MPI_Comm w = MPI_COMM_WORLD;
  if (form == FORM_BLOCKING) CHECK_MPI(MPI_Scatterv(sb, scs, displs, st, rb, rc, rt, root, w));
  if (form == FORM_NONBLOCKING)
    CHECK_MPI(MPI_Iscatterv(sb, scs, displs, st, rb, rc, rt, root, w, &req));
  if (form == FORM_PERSISTENT)
    CHECK_MPI(MPI_Scatterv_init(sb, scs, displs, st, rb, rc, rt, root, w, MPI_INFO_NULL, &req));
  finish_form(form, &req);
}

/* Scatter of n ints to each rank. `odd_args`: the arguments a rank may leave meaningless are
 * (sendbuf NULL, sendcount -1 and MPI_DATATYPE_NULL off the root; recvcount -1 and
 * MPI_DATATYPE_NULL with MPI_IN_PLACE). */
static void check_scatter(int form, int n, int root, int in_place, int odd_args, int salt) {
  check_context("%s MPI_Scatter of %d MPI_INT per rank from root %d%s%s", form_name(form), n, root,
                in_place ? ", MPI_IN_PLACE at the root" : "",
                odd_args ? ", ignored arguments left meaningless" : "");
  const long total = (long)n * size;
  int* send = malloc((size_t)total * sizeof(int) + 1);
  int* recv = malloc((size_t)n * sizeof(int) + GUARD_BYTES);
  int* want = malloc((size_t)n * sizeof(int) + 1);
  CHECK(send && recv && want);
  for (long i = 0; i < total; ++i) send[i] = mix3(root, (int)i, salt);
  for (int i = 0; i < n; ++i) {
    want[i] = mix3(root, (int)((long)rank * n + i), salt);
    recv[i] = -1;
  }
  guard_set(recv + n);
  if (rank == root) {
    if (in_place)
      scatter(form, send, n, MPI_INT, MPI_IN_PLACE, odd_args ? -1 : n,
              odd_args ? MPI_DATATYPE_NULL : MPI_INT, root);
    else
      scatter(form, send, n, MPI_INT, recv, n, MPI_INT, root);
    for (long i = 0; i < total; ++i) CHECK(send[i] == mix3(root, (int)i, salt));
  } else {
    if (odd_args)
      scatter(form, NULL, -1, MPI_DATATYPE_NULL, recv, n, MPI_INT, root);
    else
      scatter(form, send, n, MPI_INT, recv, n, MPI_INT, root);
  }
  if (!(rank == root && in_place)) {
    check_ints(recv, want, n, "recvbuf");
    guard_check(recv + n, "recvbuf");
  }
  free(send);
  free(recv);
  free(want);
}

/* Scatterv of vector_layout(kind, special, scale) from root. `null_off_root`: the other ranks
 * pass NULL sendcounts and displs (significant only at the root). */
static void check_scatterv(int form, int kind, int special, int scale, int root, int in_place,
                           int null_off_root, int salt) {
  check_context("%s MPI_Scatterv from root %d, layout kind %d special %d scale %d%s%s",
                form_name(form), root, kind, special, scale,
                in_place ? ", MPI_IN_PLACE at the root" : "",
                null_off_root ? ", NULL sendcounts/displs off the root" : "");
  int* counts = malloc((size_t)size * sizeof(int));
  int* displs = malloc((size_t)size * sizeof(int));
  CHECK(counts && displs);
  const long extent = vector_layout(size, kind, special, scale, counts, displs);
  const int n = counts[rank];
  int* send = malloc((size_t)extent * sizeof(int) + 1);
  int* recv = malloc((size_t)n * sizeof(int) + GUARD_BYTES);
  CHECK(send && recv);
  for (long i = 0; i < extent; ++i) send[i] = mix3(root, (int)i, salt);
  for (int i = 0; i < n; ++i) recv[i] = -1;
  guard_set(recv + n);
  if (rank == root) {
    scatterv(form, send, counts, displs, MPI_INT, in_place ? MPI_IN_PLACE : recv, in_place ? 0 : n,
             in_place ? MPI_DATATYPE_NULL : MPI_INT, root);
    for (long i = 0; i < extent; ++i) CHECK(send[i] == mix3(root, (int)i, salt));
  } else {
    scatterv(form, NULL, null_off_root ? NULL : counts, null_off_root ? NULL : displs, MPI_INT,
             recv, n, MPI_INT, root);
  }
  if (!(rank == root && in_place)) {
    for (int i = 0; i < n; ++i) {
      if (recv[i] != mix3(root, displs[rank] + i, salt)) {
        fprintf(stderr, "rank %d: recvbuf[%d] is %d, expected %d (%s)\n", rank, i, recv[i],
                mix3(root, displs[rank] + i, salt), check_context_);
        CHECK(0);
      }
    }
    guard_check(recv + n, "recvbuf");
  }
  free(send);
  free(recv);
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
        check_scatter(call++ % NUM_FORMS, counts[c], roots[r], in_place, (r + (int)c) % 2, salt++);
  const int big = (1 << 18) / size + 3; /* about 1 MiB at the root */
  for (int form = 0; form < NUM_FORMS; ++form)
    check_scatter(form, (int)large_count(form, 2, big), (size - 1 + form) % size,
                  form == FORM_NONBLOCKING, 0, salt++);

  for (int kind = 0; kind < 4; ++kind)
    for (int r = 0; r < nroots; ++r)
      for (int in_place = 0; in_place < 2; ++in_place)
        check_scatterv(call++ % NUM_FORMS, kind, (roots[r] + in_place) % size, 1 + 36 * in_place,
                       roots[r], in_place, 0, salt++);
  for (int form = 0; form < NUM_FORMS; ++form)
    check_scatterv(form, 0, form % size, (int)large_count(form, 0, (1 << 17) / size + 1),
                   size - 1 - form % size, form == FORM_PERSISTENT, 0, salt++);
  /* sendcounts and displs are significant only at the root: the others pass NULL. */
  for (int r = 0; r < nroots; ++r)
    check_scatterv(r % NUM_FORMS, r % 4, size - 1 - roots[r], 5, roots[r], r % 2, 1, salt++);
  MPI_Finalize();
  return 0;
}
