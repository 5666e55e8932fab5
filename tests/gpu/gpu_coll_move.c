/* The collectives that move data, on device buffers: barrier, bcast and ibcast, allgather (also
 * in place), allgatherv, gather, gatherv, scatter, scatterv, alltoall, alltoallv and alltoallw,
 * at blocks of 8 B, 100 kB and 1 MiB per rank (uneven for the v forms, with gaps between
 * blocks). Each rank's bytes follow a pattern of (rank, offset); every received block is copied
 * to the host and compared with the pattern of the rank that sent it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_common.h"

static const size_t kBlocks[] = {8, 100000, 1u << 20};
enum { kNumBlocks = sizeof kBlocks / sizeof kBlocks[0], kGap = 16 };

static unsigned char* zeroed_device(size_t bytes) {
  unsigned char* buf = mem_alloc(MEM_DEVICE, bytes);
  mem_set(MEM_DEVICE, buf, 0, bytes);
  return buf;
}

/* Checks `bytes` of device memory at `at` against `rank`'s pattern from `first`. */
static void check_block(const char* what, const unsigned char* at, size_t bytes, int rank,
                        size_t first, int salt) {
  unsigned char* host = malloc(bytes + 1);
  mem_copy(host, at, bytes);
  char label[128];
  snprintf(label, sizeof label, "%s, block of rank %d (%zu bytes)", what, rank, bytes);
  check_pattern(label, host, bytes, rank, first, salt);
  free(host);
}

/* Uneven blocks with gaps: block r has b + ((shift + r) % 3) * 5 bytes at displs[r]; returns
 * the bytes the whole layout spans. */
static size_t layout(size_t b, int shift, int* counts, int* displs) {
  size_t at = 0;
  for (int r = 0; r < g_size; ++r) {
    counts[r] = (int)(b + (size_t)((shift + r) % 3) * 5);
    displs[r] = (int)at;
    at += (size_t)counts[r] + kGap;
  }
  return at;
}

static void bcasts(size_t b, int salt) {
  int root = 1 % g_size;
  unsigned char* buf = g_rank == root ? pattern_in(MEM_DEVICE, b, root, salt) : zeroed_device(b);
  check_mpi(MPI_Bcast(buf, (int)b, MPI_BYTE, root, MPI_COMM_WORLD), "MPI_Bcast");
  check_block("Bcast", buf, b, root, 0, salt);
  mem_free(MEM_DEVICE, buf);
  buf = g_rank == 0 ? pattern_in(MEM_DEVICE, b, 0, salt + 1) : zeroed_device(b);
  MPI_Request request;
  check_mpi(MPI_Ibcast(buf, (int)b, MPI_BYTE, 0, MPI_COMM_WORLD, &request), "MPI_Ibcast");
  check_mpi(MPI_Wait(&request, MPI_STATUS_IGNORE), "MPI_Wait(Ibcast)");
  check_block("Ibcast", buf, b, 0, 0, salt + 1);
  mem_free(MEM_DEVICE, buf);
}

static void gathers(size_t b, int salt) {
  size_t n = (size_t)g_size;
  unsigned char* send = pattern_in(MEM_DEVICE, b, g_rank, salt);
  unsigned char* recv = zeroed_device(n * b);
  check_mpi(MPI_Allgather(send, (int)b, MPI_BYTE, recv, (int)b, MPI_BYTE, MPI_COMM_WORLD),
            "MPI_Allgather");
  for (int r = 0; r < g_size; ++r) check_block("Allgather", recv + r * b, b, r, 0, salt);
  mem_set(MEM_DEVICE, recv, 0, n * b);
  mem_copy(recv + (size_t)g_rank * b, send, b);
  check_mpi(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, recv, (int)b, MPI_BYTE,
                          MPI_COMM_WORLD), "MPI_Allgather(MPI_IN_PLACE)");
  for (int r = 0; r < g_size; ++r) check_block("Allgather in place", recv + r * b, b, r, 0, salt);
  mem_set(MEM_DEVICE, recv, 0, n * b);
  check_mpi(MPI_Gather(send, (int)b, MPI_BYTE, recv, (int)b, MPI_BYTE, 0, MPI_COMM_WORLD),
            "MPI_Gather");
  if (g_rank == 0)
    for (int r = 0; r < g_size; ++r) check_block("Gather", recv + r * b, b, r, 0, salt);
  mem_free(MEM_DEVICE, send);
  mem_free(MEM_DEVICE, recv);

  int* counts = malloc(n * sizeof(int));
  int* displs = malloc(n * sizeof(int));
  size_t span = layout(b, 0, counts, displs);
  send = pattern_in(MEM_DEVICE, (size_t)counts[g_rank], g_rank, salt + 1);
  recv = zeroed_device(span);
  check_mpi(MPI_Allgatherv(send, counts[g_rank], MPI_BYTE, recv, counts, displs, MPI_BYTE,
                           MPI_COMM_WORLD), "MPI_Allgatherv");
  for (int r = 0; r < g_size; ++r)
    check_block("Allgatherv", recv + displs[r], (size_t)counts[r], r, 0, salt + 1);
  int root = g_size - 1;
  mem_set(MEM_DEVICE, recv, 0, span);
  check_mpi(MPI_Gatherv(send, counts[g_rank], MPI_BYTE, recv, counts, displs, MPI_BYTE, root,
                        MPI_COMM_WORLD), "MPI_Gatherv");
  if (g_rank == root)
    for (int r = 0; r < g_size; ++r)
      check_block("Gatherv", recv + displs[r], (size_t)counts[r], r, 0, salt + 1);
  mem_free(MEM_DEVICE, send);
  mem_free(MEM_DEVICE, recv);
  free(counts);
  free(displs);
}

/* Puts rank r's pattern, counts[r] bytes, at buf + displs[r] for every rank r. */
static void place_patterns(unsigned char* buf, const int* counts, const int* displs, int salt) {
  for (int r = 0; r < g_size; ++r) {
    unsigned char* block = pattern_in(MEM_DEVICE, (size_t)counts[r], r, salt);
    mem_copy(buf + displs[r], block, (size_t)counts[r]);
    mem_free(MEM_DEVICE, block);
  }
}

/* The root's send buffer holds, for each rank r, r's pattern: what r must receive. Scatter
 * sends blocks of b bytes one after the other, Scatterv the uneven layout with gaps. */
static void scatters(size_t b, int salt) {
  size_t n = (size_t)g_size;
  int root = g_size / 2;
  int* counts = malloc(4 * n * sizeof(int));
  int *displs = counts + n, *even_counts = counts + 2 * n, *even_displs = counts + 3 * n;
  size_t span = layout(b, 1, counts, displs);
  for (int r = 0; r < g_size; ++r) even_counts[r] = (int)b, even_displs[r] = r * (int)b;
  unsigned char* even = zeroed_device(n * b);
  unsigned char* uneven = zeroed_device(span);
  if (g_rank == root) {
    place_patterns(even, even_counts, even_displs, salt);
    place_patterns(uneven, counts, displs, salt + 1);
  }
  unsigned char* recv = zeroed_device(b + 16);
  check_mpi(MPI_Scatter(even, (int)b, MPI_BYTE, recv, (int)b, MPI_BYTE, root, MPI_COMM_WORLD),
            "MPI_Scatter");
  check_block("Scatter", recv, b, g_rank, 0, salt);
  check_mpi(MPI_Scatterv(uneven, counts, displs, MPI_BYTE, recv, counts[g_rank], MPI_BYTE, root,
                         MPI_COMM_WORLD), "MPI_Scatterv");
  check_block("Scatterv", recv, (size_t)counts[g_rank], g_rank, 0, salt + 1);
  mem_free(MEM_DEVICE, even);
  mem_free(MEM_DEVICE, uneven);
  mem_free(MEM_DEVICE, recv);
  free(counts);
}

/* Checks what each rank s sent this rank in the v/w all-to-all: rcounts[s] bytes at
 * recv + at[s], taken from s's pattern at the offset of this rank's block in s's layout. */
static void check_from_peers(const char* what, const unsigned char* recv, const int* rcounts,
                             const int* at, size_t b, int salt) {
  int* peer_counts = malloc(2 * (size_t)g_size * sizeof(int));
  int* peer_displs = peer_counts + g_size;
  for (int s = 0; s < g_size; ++s) {
    layout(b, s, peer_counts, peer_displs);
    check_block(what, recv + at[s], (size_t)rcounts[s], s, (size_t)peer_displs[g_rank], salt);
  }
  free(peer_counts);
}

/* Rank s's send buffer is s's pattern from offset 0; what it sends r starts at the offset of
 * r's block in s's layout, and r checks it at that offset. */
static void alltoalls(size_t b, int salt) {
  size_t n = (size_t)g_size;
  unsigned char* send = pattern_in(MEM_DEVICE, n * b, g_rank, salt);
  unsigned char* recv = zeroed_device(n * b);
  check_mpi(MPI_Alltoall(send, (int)b, MPI_BYTE, recv, (int)b, MPI_BYTE, MPI_COMM_WORLD),
            "MPI_Alltoall");
  for (int s = 0; s < g_size; ++s)
    check_block("Alltoall", recv + s * b, b, s, (size_t)g_rank * b, salt);
  mem_free(MEM_DEVICE, send);
  mem_free(MEM_DEVICE, recv);

  /* Block from s to r: b + ((s + r) % 3) * 5 bytes, the same in both layouts. */
  int* scounts = malloc(4 * n * sizeof(int));
  int *sdispls = scounts + n, *rcounts = scounts + 2 * n, *rdispls = scounts + 3 * n;
  size_t send_span = layout(b, g_rank, scounts, sdispls);
  size_t recv_span = layout(b, g_rank, rcounts, rdispls);
  send = pattern_in(MEM_DEVICE, send_span, g_rank, salt + 1);
  recv = zeroed_device(recv_span);
  check_mpi(MPI_Alltoallv(send, scounts, sdispls, MPI_BYTE, recv, rcounts, rdispls, MPI_BYTE,
                          MPI_COMM_WORLD), "MPI_Alltoallv");
  check_from_peers("Alltoallv", recv, rcounts, rdispls, b, salt + 1);

  /* Alltoallw: the same blocks, received in reverse order of their place in the buffer. */
  MPI_Datatype* types = malloc(n * sizeof(MPI_Datatype));
  int* wdispls = malloc(n * sizeof(int));
  for (int s = 0; s < g_size; ++s) types[s] = MPI_BYTE;
  for (int s = g_size - 1, at = 0; s >= 0; --s) {
    wdispls[s] = at;
    at += rcounts[s] + kGap;
  }
  mem_set(MEM_DEVICE, recv, 0, recv_span);
  check_mpi(MPI_Alltoallw(send, scounts, sdispls, types, recv, rcounts, wdispls, types,
                          MPI_COMM_WORLD), "MPI_Alltoallw");
  check_from_peers("Alltoallw", recv, rcounts, wdispls, b, salt + 1);
  mem_free(MEM_DEVICE, send);
  mem_free(MEM_DEVICE, recv);
  free(scounts);
  free(types);
  free(wdispls);
}

int main(int argc, char** argv) {
  gpu_test_init(&argc, &argv, "gpu_coll_move");
  for (int k = 0; k < 3; ++k) check_mpi(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
  int salt = 1;
  for (int k = 0; k < kNumBlocks; ++k, salt += 8) {
    bcasts(kBlocks[k], salt);
    gathers(kBlocks[k], salt + 2);
    scatters(kBlocks[k], salt + 4);
    alltoalls(kBlocks[k], salt + 6);
  }
  return gpu_test_finish();
}
