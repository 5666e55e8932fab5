/* MPI_Alltoall(v/w), MPI_Ialltoall(v/w) and MPI_Alltoall(v/w)_init: counts from 0 to about 1 MiB
 * per rank, MPI_IN_PLACE, uneven per-pair counts with zeros at gapped, out-of-order
 * displacements, and (alltoallw) a different datatype per pair at unaligned byte displacements. */
#include <stdlib.h>

#include "coll_ops.h"

static int rank, size;

static void alltoall(int form, const void* sb, int sc, MPI_Datatype st, void* rb, int rc,
                     MPI_Datatype rt) {
  MPI_Request req = MPI_REQUEST_NULL;
  MPI_Comm w = MPI_COMM_WORLD;
  if (form == FORM_BLOCKING) CHECK_MPI(MPI_Alltoall(sb, sc, st, rb, rc, rt, w));
  if (form == FORM_NONBLOCKING) CHECK_MPI(MPI_Ialltoall(sb, sc, st, rb, rc, rt, w, &req));
  if (form == FORM_PERSISTENT)
    CHECK_MPI(MPI_Alltoall_init(sb, sc, st, rb, rc, rt, w, MPI_INFO_NULL, &req));
  finish_form(form, &req);
}

static void alltoallv(int form, const void* sb, const int* scs, const int* sds, MPI_Datatype st,
                      void* rb, const int* rcs, const int* rds, MPI_Datatype rt) {
  MPI_Request req = MPI_REQUEST_NULL;
  MPI_Comm w = MPI_COMM_WORLD;
  if (form == FORM_BLOCKING) CHECK_MPI(MPI_Alltoallv(sb, scs, sds, st, rb, rcs, rds, rt, w));
  if (form == FORM_NONBLOCKING)
    CHECK_MPI(MPI_Ialltoallv(sb, scs, sds, st, rb, rcs, rds, rt, w, &req));
  if (form == FORM_PERSISTENT)
    CHECK_MPI(MPI_Alltoallv_init(sb, scs, sds, st, rb, rcs, rds, rt, w, MPI_INFO_NULL, &req));
  finish_form(form, &req);
}

static void alltoallw(int form, const void* sb, const int* scs, const int* sds,
                      const MPI_Datatype* sts, void* rb, const int* rcs, const int* rds,
                      const MPI_Datatype* rts) {
  MPI_Request req = MPI_REQUEST_NULL;
  MPI_Comm w = MPI_COMM_WORLD;
  if (form == FORM_BLOCKING) CHECK_MPI(MPI_Alltoallw(sb, scs, sds, sts, rb, rcs, rds, rts, w));
  if (form == FORM_NONBLOCKING)
    CHECK_MPI(MPI_Ialltoallw(sb, scs, sds, sts, rb, rcs, rds, rts, w, &req));
  if (form == FORM_PERSISTENT)
    CHECK_MPI(MPI_Alltoallw_init(sb, scs, sds, sts, rb, rcs, rds, rts, w, MPI_INFO_NULL, &req));
  finish_form(form, &req);
}

/* Element i of what rank src sends to rank dst. */
static int item(int src, int dst, long i, int salt) { return mix3(src, (int)i, salt * 64 + dst); }

static void check_alltoall(int form, int n, int in_place, int salt) {
  check_context("%s MPI_Alltoall of %d MPI_INT per pair%s", form_name(form), n,
                in_place ? ", MPI_IN_PLACE" : "");
  const long total = (long)n * size;
  int* send = malloc((size_t)total * sizeof(int) + 1);
  int* recv = malloc((size_t)total * sizeof(int) + GUARD_BYTES);
  int* want = malloc((size_t)total * sizeof(int) + 1);
  CHECK(send && recv && want);
  for (int peer = 0; peer < size; ++peer) {
    for (int i = 0; i < n; ++i) {
      send[(long)peer * n + i] = item(rank, peer, i, salt);
      want[(long)peer * n + i] = item(peer, rank, i, salt);
    }
  }
  guard_set(recv + total);
  if (in_place) {
    memcpy(recv, send, (size_t)total * sizeof(int));
    alltoall(form, MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, recv, n, MPI_INT);
  } else {
    for (long i = 0; i < total; ++i) recv[i] = -1;
    alltoall(form, send, n, MPI_INT, recv, n, MPI_INT);
    for (long i = 0; i < total; ++i) CHECK(send[i] == item(rank, (int)(i / n), i % n, salt));
  }
  check_ints(recv, want, total, "recvbuf");
  guard_check(recv + total, "recvbuf");
  free(send);
  free(recv);
  free(want);
}

/* Elements rank src sends to rank dst: uneven with zeros; symmetric in (src, dst) when
 * `symmetric` (what MPI_IN_PLACE needs). */
static int pair_count(int src, int dst, int symmetric, int scale, int salt) {
  if (symmetric) return ((src + dst) * 3 + src * dst + salt) % 4 * scale;
  return (src * 3 + dst * 5 + salt) % 4 * scale;
}

static void check_alltoallv(int form, int scale, int in_place, int salt) {
  check_context("%s MPI_Alltoallv, counts up to %d per pair%s", form_name(form), 3 * scale,
                in_place ? ", MPI_IN_PLACE" : "");
  int* v = malloc(4 * (size_t)size * sizeof(int));
  CHECK(v);
  int *scounts = v, *sdispls = v + size, *rcounts = v + 2 * size, *rdispls = v + 3 * size;
  for (int peer = 0; peer < size; ++peer) {
    scounts[peer] = pair_count(rank, peer, in_place, scale, salt);
    rcounts[peer] = pair_count(peer, rank, in_place, scale, salt);
  }
  const long sextent = vector_place(size, rank, scounts, sdispls);
  const long rextent = vector_place(size, size - 1 - rank, rcounts, rdispls);
  int* send = malloc((size_t)sextent * sizeof(int) + 1);
  int* recv = malloc((size_t)rextent * sizeof(int) + GUARD_BYTES);
  int* want = malloc((size_t)rextent * sizeof(int) + 1);
  CHECK(send && recv && want);
  for (long i = 0; i < sextent; ++i) send[i] = -2;
  for (long i = 0; i < rextent; ++i) recv[i] = want[i] = -1; /* gaps stay -1 */
  for (int peer = 0; peer < size; ++peer) {
    for (int i = 0; i < scounts[peer]; ++i) send[sdispls[peer] + i] = item(rank, peer, i, salt);
    for (int i = 0; i < rcounts[peer]; ++i) want[rdispls[peer] + i] = item(peer, rank, i, salt);
  }
  guard_set(recv + rextent);
  if (in_place) {
    /* The data to send lies in recvbuf, where the data from each peer will go. */
    for (int peer = 0; peer < size; ++peer)
      for (int i = 0; i < rcounts[peer]; ++i) recv[rdispls[peer] + i] = item(rank, peer, i, salt);
    alltoallv(form, MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, recv, rcounts, rdispls, MPI_INT);
  } else {
    alltoallv(form, send, scounts, sdispls, MPI_INT, recv, rcounts, rdispls, MPI_INT);
  }
  check_ints(recv, want, rextent, "recvbuf");
  guard_check(recv + rextent, "recvbuf");
  free(send);
  free(recv);
  free(want);
  free(v);
}

/* Alltoallw: the pair (src, dst) uses its own datatype; displacements are in bytes, placed out
 * of order with gaps of 0-2 bytes (so most are unaligned); data compared as bytes. */
static const MPI_Datatype kPool[] = {MPI_INT,   MPI_DOUBLE,           MPI_CHAR,
                                     MPI_SHORT, MPI_C_DOUBLE_COMPLEX, MPI_2INT};
static MPI_Datatype pair_type(int src, int dst, int symmetric) {
  return kPool[(symmetric ? src + dst + src * dst : src * 7 + dst * 3) % 6];
}
static int type_bytes(MPI_Datatype t) {
  int s = 0;
  MPI_Type_size(t, &s);
  return s;
}

static void check_alltoallw(int form, int scale, int in_place, int salt) {
  check_context("%s MPI_Alltoallw, counts up to %d per pair%s", form_name(form), 3 * scale,
                in_place ? ", MPI_IN_PLACE" : "");
  int* v = malloc(6 * (size_t)size * sizeof(int) + 2 * (size_t)size * sizeof(MPI_Datatype));
  CHECK(v);
  int *scounts = v, *sdispls = v + size, *rcounts = v + 2 * size, *rdispls = v + 3 * size;
  int *sbytes = v + 4 * size, *rbytes = v + 5 * size;
  MPI_Datatype* stypes = (MPI_Datatype*)(v + 6 * size);
  MPI_Datatype* rtypes = stypes + size;
  for (int peer = 0; peer < size; ++peer) {
    stypes[peer] = pair_type(rank, peer, in_place);
    rtypes[peer] = pair_type(peer, rank, in_place);
    scounts[peer] = pair_count(rank, peer, in_place, scale, salt);
    rcounts[peer] = pair_count(peer, rank, in_place, scale, salt);
    sbytes[peer] = scounts[peer] * type_bytes(stypes[peer]);
    rbytes[peer] = rcounts[peer] * type_bytes(rtypes[peer]);
  }
  const long sextent = vector_place(size, rank + 1, sbytes, sdispls);
  const long rextent = vector_place(size, rank + 2, rbytes, rdispls);
  unsigned char* send = malloc((size_t)sextent + 1);
  unsigned char* recv = malloc((size_t)rextent + GUARD_BYTES);
  unsigned char* want = malloc((size_t)rextent + 1);
  CHECK(send && recv && want);
  memset(send, 0xEE, (size_t)sextent);
  memset(recv, 0x5A, (size_t)rextent);
  memset(want, 0x5A, (size_t)rextent);
  for (int peer = 0; peer < size; ++peer) {
    for (int i = 0; i < sbytes[peer]; ++i)
      send[sdispls[peer] + i] = (unsigned char)item(rank, peer, i, salt);
    for (int i = 0; i < rbytes[peer]; ++i)
      want[rdispls[peer] + i] = (unsigned char)item(peer, rank, i, salt);
  }
  guard_set(recv + rextent);
  if (in_place) {
    for (int peer = 0; peer < size; ++peer)
      for (int i = 0; i < rbytes[peer]; ++i)
        recv[rdispls[peer] + i] = (unsigned char)item(rank, peer, i, salt);
    alltoallw(form, MPI_IN_PLACE, NULL, NULL, NULL, recv, rcounts, rdispls, rtypes);
  } else {
    alltoallw(form, send, scounts, sdispls, stypes, recv, rcounts, rdispls, rtypes);
  }
  for (long i = 0; i < rextent; ++i) {
    if (recv[i] != want[i]) {
      fprintf(stderr, "rank %d: recvbuf byte %ld is %d, expected %d (%s)\n", rank, i, recv[i],
              want[i], check_context_);
      CHECK(0);
    }
  }
  guard_check(recv + rextent, "recvbuf");
  free(send);
  free(recv);
  free(want);
  free(v);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  world_ring(&rank, &size, NULL, NULL);
  errors_return();
  int salt = 1, call = 0;
  const int counts[] = {0, 1, 2, 3, size + 1, 100};
  for (size_t c = 0; c < sizeof counts / sizeof counts[0]; ++c)
    for (int in_place = 0; in_place < 2; ++in_place)
      check_alltoall(call++ % NUM_FORMS, counts[c], in_place, salt++);
  for (int form = 0; form < NUM_FORMS; ++form)
    check_alltoall(form, (int)large_count(form, 2, (1 << 18) / size + form),
                   form == FORM_PERSISTENT, salt++);

  const int scales[] = {1, 5, 300};
  for (int s = 0; s < 3; ++s)
    for (int in_place = 0; in_place < 2; ++in_place) {
      check_alltoallv(call++ % NUM_FORMS, scales[s], in_place, salt++);
      check_alltoallw(call++ % NUM_FORMS, scales[s], in_place, salt++);
    }
  check_alltoallv(FORM_NONBLOCKING, (1 << 17) / size / 3 + 1, 0, salt++);
  check_alltoallv(FORM_BLOCKING, (1 << 13) / size / 3 + 1, 1, salt++);
  check_alltoallw(FORM_PERSISTENT, (1 << 13) / size / 3 + 1, 0, salt++);
  MPI_Finalize();
  return 0;
}
