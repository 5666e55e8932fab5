/* The reducing collectives on GPU buffers: allreduce, reduce, reduce_scatter(_block), scan and
 * exscan with MPI_SUM and MPI_MAX on float, double and int, each also in its MPI_IN_PLACE form;
 * iallreduce, a persistent allreduce (MPI_Allreduce_init, started three times), and allreduce
 * on managed, pinned and mixed buffers. Every result is compared with the reduction computed on
 * the host from the values each rank put in (small integers, so float sums are exact). */
#include <stdio.h>
#include <stdlib.h>

#include "gpu_common.h"

static const size_t kCounts[] = {1, 1000, 262144}; /* up to 1 MiB of float per rank */
enum { kNumCounts = sizeof kCounts / sizeof kCounts[0] };

/* Copies n elements of `buf` to the host and compares them with the host reduction over ranks
 * first_rank..last_rank of elements first..first+n-1. */
static void check_reduced(const char* what, MPI_Datatype type, MPI_Op op, const void* buf,
                          size_t n, int first_rank, int last_rank, size_t first, int salt) {
  void* host = malloc(n * type_bytes(type) + 1);
  double* expect = malloc(n * sizeof(double) + 1);
  mem_copy(host, buf, n * type_bytes(type));
  reduce_on_host(op, expect, n, first_rank, last_rank, first, salt);
  char label[160];
  snprintf(label, sizeof label, "%s %s, %zu elements", what, op == MPI_SUM ? "SUM" : "MAX", n);
  check_values(label, type, host, expect, n);
  free(host);
  free(expect);
}

static void allreduce(MPI_Datatype type, MPI_Op op, size_t n, int salt) {
  void* send = values_in(MEM_DEVICE, type, n, g_rank, 0, salt);
  void* recv = mem_alloc(MEM_DEVICE, n * type_bytes(type));
  check_mpi(MPI_Allreduce(send, recv, (int)n, type, op, MPI_COMM_WORLD), "MPI_Allreduce");
  check_reduced("Allreduce", type, op, recv, n, 0, g_size - 1, 0, salt);
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, send, (int)n, type, op, MPI_COMM_WORLD),
            "MPI_Allreduce(MPI_IN_PLACE)");
  check_reduced("Allreduce in place", type, op, send, n, 0, g_size - 1, 0, salt);
  mem_free(MEM_DEVICE, send);
  mem_free(MEM_DEVICE, recv);
}

static void reduce(MPI_Datatype type, MPI_Op op, size_t n, int salt) {
  int root = g_size - 1;
  void* send = values_in(MEM_DEVICE, type, n, g_rank, 0, salt);
  void* recv = mem_alloc(MEM_DEVICE, n * type_bytes(type));
  check_mpi(MPI_Reduce(send, recv, (int)n, type, op, root, MPI_COMM_WORLD), "MPI_Reduce");
  if (g_rank == root) check_reduced("Reduce", type, op, recv, n, 0, g_size - 1, 0, salt);
  check_mpi(MPI_Reduce(g_rank == root ? MPI_IN_PLACE : send, g_rank == root ? send : NULL, (int)n,
                       type, op, root, MPI_COMM_WORLD), "MPI_Reduce(MPI_IN_PLACE)");
  if (g_rank == root) check_reduced("Reduce in place", type, op, send, n, 0, g_size - 1, 0, salt);
  mem_free(MEM_DEVICE, send);
  mem_free(MEM_DEVICE, recv);
}

/* Reduce_scatter_block (n per rank, also in place) and Reduce_scatter with uneven counts. */
static void reduce_scatter(MPI_Datatype type, MPI_Op op, size_t n, int salt) {
  size_t total = n * (size_t)g_size, bytes = type_bytes(type);
  void* send = values_in(MEM_DEVICE, type, total, g_rank, 0, salt);
  void* recv = mem_alloc(MEM_DEVICE, total * bytes);
  check_mpi(MPI_Reduce_scatter_block(send, recv, (int)n, type, op, MPI_COMM_WORLD),
            "MPI_Reduce_scatter_block");
  check_reduced("Reduce_scatter_block", type, op, recv, n, 0, g_size - 1, n * (size_t)g_rank, salt);
  check_mpi(MPI_Reduce_scatter_block(MPI_IN_PLACE, send, (int)n, type, op, MPI_COMM_WORLD),
            "MPI_Reduce_scatter_block(MPI_IN_PLACE)");
  check_reduced("Reduce_scatter_block in place", type, op, send, n, 0, g_size - 1,
                n * (size_t)g_rank, salt);
  mem_free(MEM_DEVICE, send);
  mem_free(MEM_DEVICE, recv);

  int* counts = malloc((size_t)g_size * sizeof(int));
  size_t sum = 0, mine = 0;
  for (int r = 0; r < g_size; ++r) {
    counts[r] = (int)(n / 2 + (size_t)r * 3 % 5);  /* uneven, some may be 0 */
    if (r < g_rank) mine += (size_t)counts[r];
    sum += (size_t)counts[r];
  }
  send = values_in(MEM_DEVICE, type, sum, g_rank, 0, salt + 1);
  recv = mem_alloc(MEM_DEVICE, (size_t)counts[g_rank] * bytes);
  check_mpi(MPI_Reduce_scatter(send, recv, counts, type, op, MPI_COMM_WORLD), "MPI_Reduce_scatter");
  check_reduced("Reduce_scatter", type, op, recv, (size_t)counts[g_rank], 0, g_size - 1, mine,
                salt + 1);
  mem_free(MEM_DEVICE, send);
  mem_free(MEM_DEVICE, recv);
  free(counts);
}

static void scans(MPI_Datatype type, MPI_Op op, size_t n, int salt) {
  void* send = values_in(MEM_DEVICE, type, n, g_rank, 0, salt);
  void* recv = mem_alloc(MEM_DEVICE, n * type_bytes(type));
  check_mpi(MPI_Scan(send, recv, (int)n, type, op, MPI_COMM_WORLD), "MPI_Scan");
  check_reduced("Scan", type, op, recv, n, 0, g_rank, 0, salt);
  check_mpi(MPI_Exscan(send, recv, (int)n, type, op, MPI_COMM_WORLD), "MPI_Exscan");
  if (g_rank > 0) check_reduced("Exscan", type, op, recv, n, 0, g_rank - 1, 0, salt);
  check_mpi(MPI_Scan(MPI_IN_PLACE, send, (int)n, type, op, MPI_COMM_WORLD),
            "MPI_Scan(MPI_IN_PLACE)");
  check_reduced("Scan in place", type, op, send, n, 0, g_rank, 0, salt);
  mem_free(MEM_DEVICE, send);
  mem_free(MEM_DEVICE, recv);
}

/* MPI_Iallreduce, and MPI_Allreduce_init started three times with new values each time. */
static void nonblocking_and_persistent(size_t n, int salt) {
  void* send = values_in(MEM_DEVICE, MPI_FLOAT, n, g_rank, 0, salt);
  void* recv = mem_alloc(MEM_DEVICE, n * sizeof(float));
  MPI_Request request;
  check_mpi(MPI_Iallreduce(send, recv, (int)n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD, &request),
            "MPI_Iallreduce");
  check_mpi(MPI_Wait(&request, MPI_STATUS_IGNORE), "MPI_Wait(Iallreduce)");
  check_reduced("Iallreduce", MPI_FLOAT, MPI_SUM, recv, n, 0, g_size - 1, 0, salt);

  check_mpi(MPI_Allreduce_init(send, recv, (int)n, MPI_FLOAT, MPI_MAX, MPI_COMM_WORLD,
                               MPI_INFO_NULL, &request), "MPI_Allreduce_init");
  float* host = malloc(n * sizeof(float));
  for (int round = 0; round < 3; ++round) {
    fill_values(MPI_FLOAT, host, n, g_rank, 0, salt + 1 + round);
    mem_copy(send, host, n * sizeof(float));
    check_mpi(MPI_Start(&request), "MPI_Start");
    check_mpi(MPI_Wait(&request, MPI_STATUS_IGNORE), "MPI_Wait(persistent)");
    check_reduced("persistent Allreduce", MPI_FLOAT, MPI_MAX, recv, n, 0, g_size - 1, 0,
                  salt + 1 + round);
  }
  MPI_Request_free(&request);
  free(host);
  mem_free(MEM_DEVICE, send);
  mem_free(MEM_DEVICE, recv);
}

/* Allreduce where the buffers are managed, pinned, or of two different kinds. */
static void other_memory(size_t n, int salt) {
  static const MemKind kinds[][2] = {{MEM_MANAGED, MEM_MANAGED}, {MEM_PINNED, MEM_PINNED},
                                     {MEM_HOST, MEM_DEVICE},     {MEM_DEVICE, MEM_HOST},
                                     {MEM_MANAGED, MEM_DEVICE},  {MEM_PINNED, MEM_DEVICE}};
  for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; ++k, ++salt) {
    void* send = values_in(kinds[k][0], MPI_DOUBLE, n, g_rank, 0, salt);
    void* recv = mem_alloc(kinds[k][1], n * sizeof(double));
    check_mpi(MPI_Allreduce(send, recv, (int)n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD),
              "MPI_Allreduce");
    char what[64];
    snprintf(what, sizeof what, "Allreduce %s->%s", kMemKindNames[kinds[k][0]],
             kMemKindNames[kinds[k][1]]);
    check_reduced(what, MPI_DOUBLE, MPI_SUM, recv, n, 0, g_size - 1, 0, salt);
    mem_free(kinds[k][0], send);
    mem_free(kinds[k][1], recv);
  }
}

int main(int argc, char** argv) {
  gpu_test_init(&argc, &argv, "gpu_coll_reduce");
  const MPI_Datatype types[] = {MPI_FLOAT, MPI_DOUBLE, MPI_INT};
  int salt = 1;
  for (int t = 0; t < 3; ++t)
    for (int o = 0; o < 2; ++o)
      for (int c = 0; c < kNumCounts; ++c, salt += 4) {
        MPI_Datatype type = types[t];
        MPI_Op op = o == 0 ? MPI_SUM : MPI_MAX;
        allreduce(type, op, kCounts[c], salt);
        reduce(type, op, kCounts[c], salt + 1);
        reduce_scatter(type, op, kCounts[c], salt + 2);  /* and salt + 3 */
        scans(type, op, kCounts[c], salt);
      }
  nonblocking_and_persistent(1000, salt);
  nonblocking_and_persistent(262144, salt + 10);
  other_memory(4099, salt + 20);
  return gpu_test_finish();
}
