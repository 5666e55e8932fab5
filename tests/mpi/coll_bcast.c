/* MPI_Bcast, MPI_Ibcast and MPI_Bcast_init: counts from 0 to about 1 MiB, every root, several
 * element sizes; every rank ends with the root's data and nothing past the buffer changes. */
#include <stdlib.h>

#include "coll_ops.h"

static void bcast(int form, void* buf, int n, MPI_Datatype type, int root) {
  MPI_Request req = MPI_REQUEST_NULL;
  if (form == FORM_BLOCKING) CHECK_MPI(MPI_Bcast(buf, n, type, root, MPI_COMM_WORLD));
  if (form == FORM_NONBLOCKING) CHECK_MPI(MPI_Ibcast(buf, n, type, root, MPI_COMM_WORLD, &req));
  if (form == FORM_PERSISTENT)
    CHECK_MPI(MPI_Bcast_init(buf, n, type, root, MPI_COMM_WORLD, MPI_INFO_NULL, &req));
  finish_form(form, &req);
}

/* One broadcast of n ints from root, checked everywhere. */
static void check_ints_bcast(int form, int n, int root, int salt, int* buf, int* want) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  check_context("%s MPI_Bcast of %d MPI_INT from root %d", form_name(form), n, root);
  for (int i = 0; i < n; ++i) {
    want[i] = mix3(root, i, salt);
    buf[i] = rank == root ? want[i] : -1;
  }
  guard_set(buf + n);
  bcast(form, buf, n, MPI_INT, root);
  check_ints(buf, want, n, "buffer");
  guard_check(buf + n, "buffer");
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  world_ring(&rank, &size, NULL, NULL);
  errors_return();
  enum { BIG = 262147 }; /* just over 1 MiB of ints, odd */
  int* buf = malloc(BIG * sizeof(int) + GUARD_BYTES);
  int* want = malloc(BIG * sizeof(int));
  CHECK(buf && want);

  /* Every count at every root of root_set; the form changes from call to call. */
  const int counts[] = {0, 1, 2, 3, size - 1, size, size + 1, 7, 1001, 4099};
  int roots[4];
  const int nroots = root_set(size, roots);
  int salt = 1, call = 0;
  for (size_t c = 0; c < sizeof counts / sizeof counts[0]; ++c)
    for (int r = 0; r < nroots; ++r)
      check_ints_bcast(call++ % NUM_FORMS, counts[c], roots[r], salt++, buf, want);
  for (int form = 0; form < NUM_FORMS; ++form)
    check_ints_bcast(form, (int)large_count(form, 2, BIG), size - 1 - form % size, salt++, buf,
                     want);
  check_ints_bcast(FORM_BLOCKING, 65536, size / 2, salt++, buf, want); /* exactly 256 KiB */

  /* Count 0 with no buffer at all. */
  check_context("MPI_Bcast of 0 elements from NULL");
  for (int form = 0; form < NUM_FORMS; ++form) bcast(form, NULL, 0, MPI_INT, size - 1);

  /* Other element sizes, including 16- and 32-byte elements with padding; MPI_DOUBLE_INT's
   * struct padding is no data (size 12, extent 16): it stays as it was. */
  const MPI_Datatype types[] = {MPI_CHAR,
                                MPI_SHORT,
                                MPI_DOUBLE,
                                MPI_LONG_DOUBLE,
                                MPI_C_DOUBLE_COMPLEX,
                                MPI_C_LONG_DOUBLE_COMPLEX,
                                MPI_DOUBLE_INT,
                                MPI_2INT,
                                MPI_BYTE};
  for (size_t t = 0; t < sizeof types / sizeof types[0]; ++t) {
    unsigned char mask[64];
    const int extent = type_data_mask(types[t], mask);
    const int n = 777; /* bytes compared as bytes: a broadcast moves them unchanged */
    unsigned char* b = (unsigned char*)buf;
    unsigned char* w = (unsigned char*)want;
    for (int k = 0; k < 2; ++k) {
      const int root = (int)(t + (size_t)k * (size_t)size / 2) % size;
      check_context("MPI_Bcast of %d elements of type %d (extent %d) from root %d", n, types[t],
                    extent, root);
      for (long i = 0; i < (long)n * extent; ++i) {
        const unsigned char v = (unsigned char)mix3(root, (int)i, (int)t);
        b[i] = rank == root ? v : 0x5A;
        w[i] = rank == root || mask[i % extent] ? v : 0x5A;
      }
      guard_set(b + (long)n * extent);
      bcast((int)(t % NUM_FORMS), b, n, types[t], root);
      CHECK(memcmp(b, w, (size_t)n * (size_t)extent) == 0);
      guard_check(b + (long)n * extent, "buffer");
    }
  }
  free(buf);
  free(want);
  MPI_Finalize();
  return 0;
}
