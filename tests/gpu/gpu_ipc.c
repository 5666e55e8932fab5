/* Device messages between ranks (pt2pt/shm/device_messages.cpp, pt2pt/ucx_device_memory.hpp):
 * each arrives whole, and Weft's MPI_T counters say which way it went: mapped by a receiver of
 * the node (CUDA IPC), through a host copy (memory of the stream-ordered pool; a receiver that
 * cannot map it), or fed to a UCX without CUDA from a staging pipeline; and how many chunks
 * staging pipelines copied (gpu/staging.hpp: UCX's sends and receives, and host data the node's
 * transport delivers into device buffers). Then a ring allreduce of device data, whose messages
 * go the same way (coll/device_run.hpp).
 * usage: gpu_ipc mapped | refused | ucx
 *   mapped:  ranks of one node, the default;
 *   refused: the driver gives no peer access, so the first offer to each neighbour is refused
 *            and the rest go through host copies from the start;
 *   ucx:     WEFT_SHM=0, every message through UCX (Debian's, without CUDA). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_common.h"

enum { kLarge = 1 << 20 };
typedef enum { kMapped, kRefused, kUcx } Mode;
enum { kWays = 3 }; /* a device send mapped, staged (both shm), or packed for UCX */
static const char* const kCounterNames[kWays] = {"shm_device_mapped_messages_sent",
                                                 "shm_device_staged_messages_sent",
                                                 "ucx_device_packed_messages_sent"};
static const char* const kWayNames[kWays] = {"mapped", "staged", "packed"};

enum { kChunk = 64 * 1024, kChunksPerLarge = kLarge / kChunk }; /* WEFT_GPU_STAGING_CHUNK */

static MPI_T_pvar_session session;
static MPI_T_pvar_handle handles[kWays], chunks_handle;
static unsigned long long expected[kWays]; /* so far on this rank */
static unsigned long long chunks_seen;

static unsigned long long read_counter(int way) {
  unsigned long long v = 0;
  check_mpi(MPI_T_pvar_read(session, handles[way], &v), "MPI_T_pvar_read");
  return v;
}

static void expect_counts(const char* after) {
  for (int w = 0; w < kWays; ++w) {
    const unsigned long long got = read_counter(w);
    if (got != expected[w])
      fail("after %s: %llu %s device sends, expected %llu", after, got, kWayNames[w], expected[w]);
  }
}

/* Chunks copied by staging pipelines since the last look: `exactly` through the node's transport,
 * at least `at_least` through UCX (a fragment UCX delivers out of order starts a chunk). */
static void expect_chunks(const char* after, Mode mode, unsigned long long exactly,
                          unsigned long long at_least) {
  unsigned long long now = 0;
  check_mpi(MPI_T_pvar_read(session, chunks_handle, &now), "MPI_T_pvar_read");
  const unsigned long long got = now - chunks_seen;
  chunks_seen = now;
  if (mode == kUcx ? got < at_least : got != exactly)
    fail("after %s: staging pipelines copied %llu chunks, expected %s%llu", after, got,
         mode == kUcx ? "at least " : "", mode == kUcx ? at_least : exactly);
}

/* Sends `bytes` from `send` (the pattern from its offset `first` on) to the right neighbour and
 * receives as much from the left one into a new buffer of `recv_kind`; checks what came. */
static void ring(const char* what, const void* send, size_t first, MemKind recv_kind, size_t bytes,
                 int salt) {
  const int right = (g_rank + 1) % g_size, left = (g_rank + g_size - 1) % g_size;
  void* recv = mem_alloc(recv_kind, bytes);
  mem_set(recv_kind, recv, 0, bytes);
  MPI_Request r;
  check_mpi(MPI_Irecv(recv, (int)bytes, MPI_BYTE, left, salt, MPI_COMM_WORLD, &r), "MPI_Irecv");
  check_mpi(MPI_Send((void*)send, (int)bytes, MPI_BYTE, right, salt, MPI_COMM_WORLD), "MPI_Send");
  MPI_Status status;
  check_mpi(MPI_Wait(&r, &status), "MPI_Wait");
  int count = -1;
  MPI_Get_count(&status, MPI_BYTE, &count);
  if (count != (int)bytes) fail("%s: MPI_Get_count is %d, expected %zu", what, count, bytes);
  unsigned char* host = malloc(bytes);
  mem_copy(host, recv, bytes);
  check_pattern(what, host, bytes, left, first, salt);
  free(host);
  mem_free(recv_kind, recv);
}

static void check_path(Mode mode) {
  char path[MPIX_MAX_CUDA_PATH_STRING];
  int path_len = 0;
  check_mpi(MPIX_Query_cuda_path(path, &path_len), "MPIX_Query_cuda_path");
  const char* named = mode == kUcx ? "staging pipeline" : "(CUDA IPC)";
  if (strstr(path, "CUDA buffers: accepted") != path || strstr(path, named) == NULL ||
      (int)strlen(path) != path_len)
    fail("MPIX_Query_cuda_path does not say \"%s\": \"%s\"", named, path);
}

/* A ring allreduce (forced before MPI_Init) sends 2(p-1) blocks of 4 MiB / p to the right
 * neighbour, in segments, each a device send. */
static void ring_allreduce(Mode mode) {
  enum { kFloats = 1 << 20 };
  float* host = malloc(kFloats * sizeof(float));
  fill_values(MPI_FLOAT, host, kFloats, g_rank, 0, 6);
  float* device = mem_alloc(MEM_DEVICE, kFloats * sizeof(float));
  mem_copy(device, host, kFloats * sizeof(float));
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, device, kFloats, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD),
            "MPI_Allreduce");
  mem_copy(host, device, kFloats * sizeof(float));
  double* expect = malloc(kFloats * sizeof(double));
  reduce_on_host(MPI_SUM, expect, kFloats, 0, g_size - 1, 0, 6);
  for (size_t i = 0; i < kFloats; ++i) {
    if (host[i] != (float)expect[i]) {
      fail("ring allreduce on device data: element %zu is %g, expected %g", i, host[i], expect[i]);
      break;
    }
  }
  free(expect);
  free(host);
  mem_free(MEM_DEVICE, device);
  const int way = mode == kMapped ? 0 : mode == kRefused ? 1 : 2;
  const unsigned long long sends = read_counter(way) - expected[way];
  if (sends < 2 * (unsigned long long)(g_size - 1))
    fail(
        "a ring allreduce of 4 MiB of device data made %llu %s device sends, expected at least "
        "%d",
        sends, kWayNames[way], 2 * (g_size - 1));
  expected[way] += sends;
  expect_counts("a ring allreduce of 4 MiB of device data"); /* and none another way */
}

int main(int argc, char** argv) {
  const Mode mode = argc > 1 && strcmp(argv[1], "refused") == 0 ? kRefused
                    : argc > 1 && strcmp(argv[1], "ucx") == 0   ? kUcx
                                                                : kMapped;
  setenv("WEFT_ALLREDUCE_ALGORITHM", "ring", 1);
  setenv("WEFT_GPU_STAGING_CHUNK", "65536", 1); /* kChunk: a large message is many chunks */
  if (mode == kUcx) setenv("WEFT_SHM", "0", 1);
  gpu_test_init(&argc, &argv, "gpu_ipc");
  int provided = 0;
  check_mpi(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), "MPI_T_init_thread");
  check_mpi(MPI_T_pvar_session_create(&session), "MPI_T_pvar_session_create");
  for (int w = 0; w < kWays; ++w) {
    int index = -1, count = 0;
    check_mpi(MPI_T_pvar_get_index(kCounterNames[w], MPI_T_PVAR_CLASS_COUNTER, &index),
              kCounterNames[w]);
    check_mpi(MPI_T_pvar_handle_alloc(session, index, NULL, &handles[w], &count), kCounterNames[w]);
  }
  int index = -1, count = 0;
  check_mpi(MPI_T_pvar_get_index("gpu_staged_chunks", MPI_T_PVAR_CLASS_COUNTER, &index),
            "gpu_staged_chunks");
  check_mpi(MPI_T_pvar_handle_alloc(session, index, NULL, &chunks_handle, &count),
            "gpu_staged_chunks");
  check_path(mode);

  /* The same device buffer three times: mapped each time (the receiver keeps the mapping); or
   * offered once, refused, and sent through host copies from then on; or packed each time. */
  void* send = pattern_in(MEM_DEVICE, kLarge, g_rank, 1);
  for (int k = 0; k < 3; ++k) ring("device to device, 1 MiB", send, 0, MEM_DEVICE, kLarge, 1);
  expected[0] += mode == kMapped ? 3 : mode == kRefused ? 1 : 0;
  expected[1] += mode == kRefused ? 3 : 0;
  expected[2] += mode == kUcx ? 3 : 0;
  expect_counts("three sends of one device buffer");
  /* Mapped: no host copy. Refused: each host copy goes into the device receive buffer through
   * the pipeline. UCX: the sender's chunks and the receiver's. */
  expect_chunks("three sends of one device buffer", mode,
                mode == kRefused ? 3 * kChunksPerLarge : 0, 3 * 2 * kChunksPerLarge);

  /* Freed and allocated again (often at the same address): the receiver must not read the old
   * allocation through a mapping it kept. Then from inside an allocation, into host memory. */
  mem_free(MEM_DEVICE, send);
  send = pattern_in(MEM_DEVICE, kLarge, g_rank, 2);
  ring("device to device, a new allocation", send, 0, MEM_DEVICE, kLarge, 2);
  ring("device (at an offset) to host", (unsigned char*)send + 4096, 4096, MEM_HOST, 256 * 1024, 2);
  expected[mode == kMapped ? 0 : mode == kRefused ? 1 : 2] += 2;
  expect_counts("a new allocation and an offset");
  /* Only device receive buffers take host copies through the pipeline; UCX's sender reads
   * 256 KiB for the host receive. */
  expect_chunks("a new allocation and an offset", mode, mode == kRefused ? kChunksPerLarge : 0,
                2 * kChunksPerLarge + 256 * 1024 / kChunk);
  mem_free(MEM_DEVICE, send);

  /* Pool memory cannot be mapped: a host copy (UCX packs it like any other). Host memory into
   * device memory: no device send. A small device message is staged by pt2pt: no device send. */
  send = pattern_in(MEM_POOL, kLarge, g_rank, 3);
  ring("pool to device", send, 0, MEM_DEVICE, kLarge, 3);
  mem_free(MEM_POOL, send);
  send = pattern_in(MEM_HOST, kLarge, g_rank, 4);
  ring("host to device", send, 0, MEM_DEVICE, kLarge, 4);
  mem_free(MEM_HOST, send);
  send = pattern_in(MEM_DEVICE, 100, g_rank, 5);
  ring("device to device, 100 bytes", send, 0, MEM_DEVICE, 100, 5);
  mem_free(MEM_DEVICE, send);
  expected[1] += mode == kUcx ? 0 : 1;
  expected[2] += mode == kUcx ? 1 : 0;
  expect_counts("pool, host and small sends");
  /* Pool memory's host copy and the host buffer reach device buffers through the pipeline (and
   * through UCX the pool buffer leaves through one); 100 bytes are one copy, no pipeline. */
  expect_chunks("pool, host and small sends", mode, 2 * kChunksPerLarge, 3 * kChunksPerLarge);

  ring_allreduce(mode);

  for (int w = 0; w < kWays; ++w) MPI_T_pvar_handle_free(session, &handles[w]);
  MPI_T_pvar_handle_free(session, &chunks_handle);
  MPI_T_pvar_session_free(&session);
  MPI_T_finalize();
  return gpu_test_finish();
}
