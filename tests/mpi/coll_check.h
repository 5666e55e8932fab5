/* Shared by the tests/mpi collective programs: the three forms of a call (blocking, MPI_I*,
 * MPI_*_init), the layouts of the v-collectives, the roots and large counts each program tries,
 * which bytes of a type's element hold data. */
#ifndef WEFT_TESTS_COLL_CHECK_H
#define WEFT_TESTS_COLL_CHECK_H
#include "check.h"

/* The three forms of a collective call. A test issues the blocking call itself, or the MPI_I*
 * or MPI_*_init call that returns a request, then hands the request to finish_form. */
enum { FORM_BLOCKING, FORM_NONBLOCKING, FORM_PERSISTENT, NUM_FORMS };
static inline const char* form_name(int form) {
  return form == FORM_BLOCKING      ? "blocking"
         : form == FORM_NONBLOCKING ? "nonblocking"
                                    : "persistent";
}
/* Nonblocking: tests once, then waits (a loop of tests would keep the core from the other ranks
 * when they outnumber the cores). Persistent: starts the (inactive) request, waits, checks it
 * stays allocated and inactive (a second wait returns at once), then frees it. */
static inline void finish_form(int form, MPI_Request* req) {
  if (form == FORM_BLOCKING) return;
  CHECK(*req != MPI_REQUEST_NULL);
  if (form == FORM_NONBLOCKING) {
    int done = 0;
    CHECK_MPI(MPI_Test(req, &done, MPI_STATUS_IGNORE));
    if (!done) CHECK_MPI(MPI_Wait(req, MPI_STATUS_IGNORE));
    CHECK(*req == MPI_REQUEST_NULL);
    return;
  }
  CHECK_MPI(MPI_Start(req));
  CHECK_MPI(MPI_Wait(req, MPI_STATUS_IGNORE));
  CHECK(*req != MPI_REQUEST_NULL);
  CHECK_MPI(MPI_Wait(req, MPI_STATUS_IGNORE)); /* inactive: returns at once */
  CHECK(*req != MPI_REQUEST_NULL);
  CHECK_MPI(MPI_Request_free(req));
  CHECK(*req == MPI_REQUEST_NULL);
}

/* Displacements for blocks of counts[r] elements in a rotated reverse order (block of rank
 * (size - 1 - k + shift) % size is the k-th) with gaps of 0-2 elements, so that displacements
 * are neither increasing nor dense. Returns the extent in elements. */
static inline long vector_place(int size, int shift, const int* counts, int* displs) {
  long at = 0;
  for (int k = 0; k < size; ++k) {
    const int r = (size - 1 - k + shift) % size;
    displs[r] = (int)at;
    at += counts[r] + k % 3;
  }
  return at;
}

/* Per-rank counts and displacements (in elements) for the v-collectives. kind 0: uneven, with
 * zeros; 1: only rank `special` has data; 2: all but rank `special` have data; 3: equal counts;
 * `scale` multiplies the counts. Blocks are placed by vector_place. Returns the extent. */
static inline long vector_layout(int size, int kind, int special, int scale, int* counts,
                                 int* displs) {
  for (int r = 0; r < size; ++r) {
    switch (kind) {
      case 0:
        counts[r] = ((r * 5 + special) % 4) * scale;
        break;
      case 1:
        counts[r] = r == special ? scale : 0;
        break;
      case 2:
        counts[r] = r == special ? 0 : scale + r;
        break;
      default:
        counts[r] = scale;
        break;
    }
  }
  return vector_place(size, special, counts, displs);
}

/* Element count for the large case of a form: `full` (about 1 MiB) for the form `pick` names,
 * a sixteenth of it for the others, so that each program moves about 1 MiB once. */
static inline long large_count(int form, int pick, long full) {
  return form == pick % NUM_FORMS ? full : full / 16 + 1;
}

/* The roots a test tries: 0, 1, size/2 and size-1, each once. Returns how many. */
static inline int root_set(int size, int roots[4]) {
  const int all[4] = {0, 1 % size, size / 2, size - 1};
  int n = 0;
  for (int k = 0; k < 4; ++k) {
    int seen = 0;
    for (int j = 0; j < n; ++j) seen |= roots[j] == all[k];
    if (!seen) roots[n++] = all[k];
  }
  return n;
}

/* Which bytes of one element of `type` hold data: mask[b] = 1 for data, 0 for a gap such as the
 * padding of MPI_DOUBLE_INT's struct {double; int}, whose size (12) is less than its extent (16).
 * `mask` has room for the extent (at most 64 bytes). Returns the extent. */
static inline int type_data_mask(MPI_Datatype type, unsigned char* mask) {
  MPI_Aint lb = 0, extent = 0;
  int size = 0, position = 0;
  MPI_Type_get_extent(type, &lb, &extent);
  MPI_Type_size(type, &size);
  CHECK(lb == 0 && extent <= 64 && size <= extent);
  unsigned char ones[64];
  memset(ones, 0xFF, sizeof ones);
  memset(mask, 0, (size_t)extent);
  CHECK_MPI(MPI_Unpack(ones, size, &position, mask, 1, type, MPI_COMM_SELF));
  for (MPI_Aint b = 0; b < extent; ++b) mask[b] = mask[b] != 0;
  return (int)extent;
}
#endif
