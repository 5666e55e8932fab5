/* Large device messages between ranks of a node (pt2pt/shm/device_messages.cpp): each arrives
 * whole, and Weft's MPI_T counters say which way it went: mapped by the receiver (CUDA IPC), or
 * through a host copy (memory of the stream-ordered pool; a receiver that cannot map it). Then a
 * ring allreduce of device data, whose messages go the same way (coll/device_run.hpp).
 * usage: gpu_ipc mapped | refused   (refused: the driver gives no peer access, so the first
 * offer to each neighbour is refused and the rest go through host copies from the start). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_common.h"

enum { kLarge = 1 << 20 };

static MPI_T_pvar_session session;
static MPI_T_pvar_handle mapped_handle, staged_handle;

static MPI_T_pvar_handle counter(const char* name) {
  int index = -1, count = 0;
  MPI_T_pvar_handle h = MPI_T_PVAR_HANDLE_NULL;
  check_mpi(MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_COUNTER, &index), name);
  check_mpi(MPI_T_pvar_handle_alloc(session, index, NULL, &h, &count), name);
  return h;
}

static unsigned long long read_counter(MPI_T_pvar_handle h) {
  unsigned long long v = 0;
  check_mpi(MPI_T_pvar_read(session, h, &v), "MPI_T_pvar_read");
  return v;
}

static unsigned long long g_mapped, g_staged; /* expected so far on this rank */

static void expect_counts(const char* after) {
  const unsigned long long mapped = read_counter(mapped_handle);
  const unsigned long long staged = read_counter(staged_handle);
  if (mapped != g_mapped || staged != g_staged)
    fail("after %s: %llu mapped and %llu staged device sends, expected %llu and %llu", after,
         mapped, staged, g_mapped, g_staged);
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

/* A buffer of `kind` holding this rank's pattern for `salt`. */
static void* patterned(MemKind kind, size_t bytes, int salt) {
  void* buf = mem_alloc(kind, bytes); /* first: where a buffer just freed was, as likely as not */
  unsigned char* host = malloc(bytes);
  for (size_t i = 0; i < bytes; ++i) host[i] = pattern_byte(g_rank, i, salt);
  mem_copy(buf, host, bytes);
  free(host);
  return buf;
}

int main(int argc, char** argv) {
  setenv("WEFT_ALLREDUCE_ALGORITHM", "ring", 1);
  gpu_test_init(&argc, &argv, "gpu_ipc");
  const int refused = argc > 1 && strcmp(argv[1], "refused") == 0;
  int provided = 0;
  check_mpi(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), "MPI_T_init_thread");
  check_mpi(MPI_T_pvar_session_create(&session), "MPI_T_pvar_session_create");
  char path[MPIX_MAX_CUDA_PATH_STRING];
  int path_len = 0;
  check_mpi(MPIX_Query_cuda_path(path, &path_len), "MPIX_Query_cuda_path");
  if (strstr(path, "CUDA buffers: accepted") != path || strstr(path, "(CUDA IPC)") == NULL ||
      (int)strlen(path) != path_len)
    fail("MPIX_Query_cuda_path does not name CUDA IPC for the node: \"%s\"", path);
  mapped_handle = counter("shm_device_mapped_messages_sent");
  staged_handle = counter("shm_device_staged_messages_sent");

  /* The same device buffer three times: mapped each time (the receiver keeps the mapping); or
   * offered once, refused, and sent through host copies from then on. */
  void* send = patterned(MEM_DEVICE, kLarge, 1);
  for (int k = 0; k < 3; ++k) ring("device to device, 1 MiB", send, 0, MEM_DEVICE, kLarge, 1);
  g_mapped += refused ? 1 : 3;
  g_staged += refused ? 3 : 0;
  expect_counts("three sends of one device buffer");

  /* Freed and allocated again (often at the same address): the receiver must not read the old
   * allocation through a mapping it kept. */
  mem_free(MEM_DEVICE, send);
  send = patterned(MEM_DEVICE, kLarge, 2);
  ring("device to device, a new allocation", send, 0, MEM_DEVICE, kLarge, 2);
  /* From inside an allocation, into host memory. */
  ring("device (at an offset) to host", (unsigned char*)send + 4096, 4096, MEM_HOST, 256 * 1024, 2);
  g_mapped += refused ? 0 : 2;
  g_staged += refused ? 2 : 0;
  expect_counts("a new allocation and an offset");
  mem_free(MEM_DEVICE, send);

  /* Pool memory cannot be shared: a host copy. Host memory into device memory: no device send.
   * A small device message goes in a ring record: no device send either. */
  send = patterned(MEM_POOL, kLarge, 3);
  ring("pool to device", send, 0, MEM_DEVICE, kLarge, 3);
  mem_free(MEM_POOL, send);
  send = patterned(MEM_HOST, kLarge, 4);
  ring("host to device", send, 0, MEM_DEVICE, kLarge, 4);
  mem_free(MEM_HOST, send);
  send = patterned(MEM_DEVICE, 100, 5);
  ring("device to device, 100 bytes", send, 0, MEM_DEVICE, 100, 5);
  mem_free(MEM_DEVICE, send);
  g_staged += 1;
  expect_counts("pool, host and small sends");

  /* The ring allreduce (forced before MPI_Init) sends 2(p-1) blocks of 4 MiB / p to the right
   * neighbour, in segments, each a device send. */
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
  const unsigned long long sends =
      refused ? read_counter(staged_handle) - g_staged : read_counter(mapped_handle) - g_mapped;
  if (sends < 2 * (unsigned long long)(g_size - 1))
    fail(
        "a ring allreduce of 4 MiB of device data made %llu %s device sends, expected at least "
        "%d",
        sends, refused ? "staged" : "mapped", 2 * (g_size - 1));
  *(refused ? &g_staged : &g_mapped) += sends;
  expect_counts("a ring allreduce of 4 MiB of device data"); /* and none the other way */

  MPI_T_pvar_handle_free(session, &mapped_handle);
  MPI_T_pvar_handle_free(session, &staged_handle);
  MPI_T_pvar_session_free(&session);
  MPI_T_finalize();
  return gpu_test_finish();
}
