/* MPI_Allgather(v), MPI_Iallgather(v) and MPI_Allgather(v)_init: counts from 0 to about 1 MiB in
 * all, MPI_IN_PLACE, uneven counts with zeros at gapped, out-of-order displacements; every rank
 * gets every block, gaps and the bytes past the end stay untouched. */
#include <stdlib.h>

#include "coll_ops.h"

static int rank, size;

static void allgather(int form, const void* sb, int sc, MPI_Datatype st, void* rb, int rc,
                      MPI_Datatype rt) {
  MPI_Request req = MPI_REQUEST_NULL;
  MPI_Comm w = MPI_COMM_WORLD;
  if (form == FORM_BLOCKING) CHECK_MPI(MPI_Allgather(sb, sc, st, rb, rc, rt, w));
  if (form == FORM_NONBLOCKING) CHECK_MPI(MPI_Iallgather(sb, sc, st, rb, rc, rt, w, &req));
  if (form == FORM_PERSISTENT)
    CHECK_MPI(MPI_Allgather_init(sb, sc, st, rb, rc, rt, w, MPI_INFO_NULL, &req));
  finish_form(form, &req);
}

static void allgatherv(int form, const void* sb, int sc, MPI_Datatype st, void* rb, const int* rcs,
                       const int* displs, MPI_Datatype rt) {
  MPI_Request req = MPI_REQUEST_NULL;
  MPI_Comm w = MPI_COMM_WORLD;
  if (form == FORM_BLOCKING) CHECK_MPI(MPI_Allgatherv(sb, sc, st, rb, rcs, displs, rt, w));
  if (form == FORM_NONBLOCKING)
    CHECK_MPI(MPI_Iallgatherv(sb, sc, st, rb, rcs, displs, rt, w, &req));
  if (form == FORM_PERSISTENT)
    CHECK_MPI(MPI_Allgatherv_init(sb, sc, st, rb, rcs, displs, rt, w, MPI_INFO_NULL, &req));
  finish_form(form, &req);
}

/* Allgather of n elements of `type` (elem bytes apart, its extent, compared as bytes) per rank;
 * bytes of another rank's block that are no data (a pair type's padding) stay untouched. */
static void check_allgather(int form, int n, MPI_Datatype type, int elem, int in_place, int salt) {
  check_context("%s MPI_Allgather of %d elements of %d bytes per rank%s", form_name(form), n, elem,
                in_place ? ", MPI_IN_PLACE" : "");
  unsigned char mask[64];
  CHECK(type_data_mask(type, mask) == elem);
  const long block = (long)n * elem, total = block * size;
  unsigned char* send = malloc((size_t)block + 1);
  unsigned char* recv = malloc((size_t)total + GUARD_BYTES);
  CHECK(send && recv);
  for (long i = 0; i < block; ++i) send[i] = (unsigned char)mix3(rank, (int)i, salt);
  memset(recv, 0x5A, (size_t)total);
  guard_set(recv + total);
  if (in_place) {
    memcpy(recv + rank * block, send, (size_t)block);
    /* sendcount and sendtype are ignored with MPI_IN_PLACE */
    allgather(form, MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, recv, n, type);
  } else {
    allgather(form, send, n, type, recv, n, type);
  }
  for (int r = 0; r < size; ++r) {
    for (long i = 0; i < block; ++i) {
      const int moved = (r == rank && in_place) || mask[i % elem];
      const unsigned char want = moved ? (unsigned char)mix3(r, (int)i, salt) : 0x5A;
      if (recv[r * block + i] != want) {
        fprintf(stderr, "rank %d: byte %ld of rank %d's block is wrong (%s)\n", rank, i, r,
                check_context_);
        CHECK(0);
      }
    }
  }
  guard_check(recv + total, "recvbuf");
  free(send);
  free(recv);
}

/* Allgatherv of vector_layout(kind, special, scale) ints. */
static void check_allgatherv(int form, int kind, int special, int scale, int in_place, int salt) {
  check_context("%s MPI_Allgatherv, layout kind %d special %d scale %d%s", form_name(form), kind,
                special, scale, in_place ? ", MPI_IN_PLACE" : "");
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
  if (in_place) {
    memcpy(recv + displs[rank], send, (size_t)n * sizeof(int));
    allgatherv(form, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, recv, counts, displs, MPI_INT);
  } else {
    allgatherv(form, send, n, MPI_INT, recv, counts, displs, MPI_INT);
  }
  check_ints(recv, want, extent, "recvbuf");
  guard_check(recv + extent, "recvbuf");
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
  int salt = 1, call = 0;
  const int counts[] = {0, 1, 2, 3, size + 1, 1001};
  for (size_t c = 0; c < sizeof counts / sizeof counts[0]; ++c)
    for (int in_place = 0; in_place < 2; ++in_place)
      check_allgather(call++ % NUM_FORMS, counts[c], MPI_INT, 4, in_place, salt++);
  /* Other element sizes: an odd number of 1-, 2-, 12/16- and 32-byte elements. */
  check_allgather(call++ % NUM_FORMS, 333, MPI_CHAR, 1, 0, salt++);
  check_allgather(call++ % NUM_FORMS, 77, MPI_SHORT, 2, 1, salt++);
  check_allgather(call++ % NUM_FORMS, 45, MPI_DOUBLE_INT, (int)sizeof(struct pair_double_int), 0,
                  salt++);
  check_allgather(call++ % NUM_FORMS, 19, MPI_C_LONG_DOUBLE_COMPLEX,
                  (int)sizeof(long double complex), 1, salt++);
  const int big = (1 << 18) / size + 1; /* about 1 MiB at every rank */
  for (int form = 0; form < NUM_FORMS; ++form)
    check_allgather(form, (int)large_count(form, 0, big), MPI_INT, 4, form == FORM_NONBLOCKING,
                    salt++);

  for (int kind = 0; kind < 4; ++kind)
    for (int in_place = 0; in_place < 2; ++in_place) {
      check_allgatherv(call++ % NUM_FORMS, kind, (kind + in_place) % size, 1, in_place, salt++);
      check_allgatherv(call++ % NUM_FORMS, kind, size - 1, 29, in_place, salt++);
    }
  for (int form = 0; form < NUM_FORMS; ++form)
    check_allgatherv(form, 0, form % size, (int)large_count(form, 1, (1 << 17) / size + 1),
                     form == FORM_BLOCKING, salt++);
  MPI_Finalize();
  return 0;
}
