/* One-sided calls with GPU buffers: windows made on CUDA device memory (MPI_Win_create) or
 * attached to a dynamic window (MPI_Win_attach, its address shared with MPI_Allgather), and host
 * windows (MPI_Win_create, reached by cross-memory attach; MPI_Win_allocate, mapped; dynamic)
 * used with device origin and result buffers. In fence epochs: a get of the left neighbour's
 * window, a strided put (a vector target type) into the right neighbour's and a put into this
 * rank's own, a sum accumulated by every rank into rank 0's. In lock epochs: fetch-and-op and
 * get-accumulate on the last rank's window, compare-and-swap on rank 0's. Every window and result
 * is copied back to the host and compared with a host computation.
 * usage: gpu_rma mapped | unmapped
 *   mapped:   each rank maps the device windows of the other ranks of its node (CUDA IPC), the
 *             default; the MPI_T counter rma_device_windows_mapped says so;
 *   unmapped: they reach them by messages (WEFT_RMA_PATH=messages, or GPUs without peer
 *             access), and the counter stays 0. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_common.h"

/* Doubles per window: 64 KiB, so that an accumulate of all of it may run on the GPU. */
enum { kN = 8192 };

typedef enum { CREATE, ALLOCATE, DYNAMIC } Flavor;
static const char* const kFlavorNames[] = {"MPI_Win_create", "MPI_Win_allocate", "MPI_Win_attach"};
typedef struct {
  MemKind window; /* MEM_DEVICE: device memory; MPI_Win_allocate's is host memory */
  Flavor flavor;
  MemKind origin; /* origin and result buffers */
} Case;
static const Case kCases[] = {
    {MEM_DEVICE, CREATE, MEM_DEVICE}, {MEM_DEVICE, CREATE, MEM_HOST},
    {MEM_HOST, CREATE, MEM_DEVICE},   {MEM_HOST, ALLOCATE, MEM_DEVICE},
    {MEM_DEVICE, CREATE, MEM_PINNED}, {MEM_DEVICE, DYNAMIC, MEM_DEVICE},
    {MEM_DEVICE, DYNAMIC, MEM_HOST},  {MEM_HOST, DYNAMIC, MEM_DEVICE},
};
enum { kNumCases = sizeof kCases / sizeof kCases[0] };

static double* g_window; /* the window's memory (device or host) */
/* Where element i of rank r's window is for the calls: element i (disp_unit 8), or in a dynamic
 * window the address of the element (disp_unit 1). */
static MPI_Aint* g_base;
static int g_dynamic;
static MPI_Aint disp(int rank, size_t i) {
  return g_dynamic ? MPI_Aint_add(g_base[rank], (MPI_Aint)(i * sizeof(double))) : (MPI_Aint)i;
}
static MPI_T_pvar_session g_session;
static MPI_T_pvar_handle g_mapped; /* rma_device_windows_mapped */

static unsigned long long windows_mapped(void) {
  unsigned long long v = 0;
  check_mpi(MPI_T_pvar_read(g_session, g_mapped, &v), "MPI_T_pvar_read");
  return v;
}

static int ranks_on_my_node(void) {
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int n = 0;
  MPI_Comm_size(node, &n);
  MPI_Comm_free(&node);
  return n;
}
static char g_what[160];

/* Sets this rank's window to value_of(g_rank, i, salt); separated from the epochs by fences. */
static void fill_window(int salt) {
  double* host = malloc(kN * sizeof(double));
  fill_values(MPI_DOUBLE, host, kN, g_rank, 0, salt);
  mem_copy(g_window, host, kN * sizeof(double));
  free(host);
}

static double* window_copy(void) {
  double* host = malloc(kN * sizeof(double));
  mem_copy(host, g_window, kN * sizeof(double));
  return host;
}

static void expect_element(const char* what, double got, double want, size_t i) {
  if (got != want) fail("%s: %s element %zu is %g, expected %g", g_what, what, i, got, want);
}

static void fence_epochs(MPI_Win win, MemKind origin_kind) {
  const int right = (g_rank + 1) % g_size, left = (g_rank + g_size - 1) % g_size;
  /* A get of the left neighbour's whole window. */
  fill_window(1);
  check_mpi(MPI_Win_fence(0, win), "MPI_Win_fence");
  double* got = mem_alloc(origin_kind, kN * sizeof(double));
  check_mpi(MPI_Get(got, kN, MPI_DOUBLE, left, disp(left, 0), kN, MPI_DOUBLE, win), "MPI_Get");
  check_mpi(MPI_Win_fence(0, win), "MPI_Win_fence");
  double* host = malloc(kN * sizeof(double));
  mem_copy(host, got, kN * sizeof(double));
  for (size_t i = 0; i < kN; ++i) expect_element("get", host[i], value_of(left, i, 1), i);
  mem_free(origin_kind, got);

  /* Every other element of the right neighbour's first half (a vector target type), and this
   * rank's own last 8 elements. */
  MPI_Datatype every_other;
  MPI_Type_vector(kN / 4, 1, 2, MPI_DOUBLE, &every_other);
  MPI_Type_commit(&every_other);
  void* strided = values_in(origin_kind, MPI_DOUBLE, kN / 4, g_rank, 0, 2);
  void* own = values_in(origin_kind, MPI_DOUBLE, 8, g_rank, 0, 3);
  check_mpi(MPI_Put(strided, kN / 4, MPI_DOUBLE, right, disp(right, 0), 1, every_other, win),
            "MPI_Put");
  check_mpi(MPI_Put(own, 8, MPI_DOUBLE, g_rank, disp(g_rank, kN - 8), 8, MPI_DOUBLE, win),
            "MPI_Put (self)");
  check_mpi(MPI_Win_fence(0, win), "MPI_Win_fence");
  free(host);
  host = window_copy();
  for (size_t i = 0; i < kN; ++i) {
    double want = value_of(g_rank, i, 1);
    if (i < kN / 2 && i % 2 == 0) want = value_of(left, i / 2, 2);
    if (i >= kN - 8) want = value_of(g_rank, i - (kN - 8), 3);
    expect_element("after the puts, window", host[i], want, i);
  }
  mem_free(origin_kind, strided);
  mem_free(origin_kind, own);
  MPI_Type_free(&every_other);
  free(host);

  /* Every rank adds its values into rank 0's window. */
  fill_window(4);
  check_mpi(MPI_Win_fence(0, win), "MPI_Win_fence");
  void* mine = values_in(origin_kind, MPI_DOUBLE, kN, g_rank, 0, 5);
  check_mpi(MPI_Accumulate(mine, kN, MPI_DOUBLE, 0, disp(0, 0), kN, MPI_DOUBLE, MPI_SUM, win),
            "MPI_Accumulate");
  check_mpi(MPI_Win_fence(0, win), "MPI_Win_fence");
  mem_free(origin_kind, mine);
  if (g_rank == 0) {
    double* expect = malloc(kN * sizeof(double));
    reduce_on_host(MPI_SUM, expect, kN, 0, g_size - 1, 0, 5);
    host = window_copy();
    for (size_t i = 0; i < kN; ++i)
      expect_element("after the accumulates, window", host[i], expect[i] + value_of(0, i, 4), i);
    free(expect);
    free(host);
  }
}

/* Each rank adds 1 to element 0 of the last rank's window (fetching what was there), reads
 * elements 1..16 with MPI_Get_accumulate and MPI_NO_OP, and rank 0 swaps element 2 of its own
 * window when it holds its initial value. */
static void lock_epochs(MPI_Win win, MemKind origin_kind) {
  const int last = g_size - 1;
  fill_window(6);
  MPI_Barrier(MPI_COMM_WORLD);
  const double one_value = 1.0;
  double* one = mem_alloc(origin_kind, sizeof one_value);
  mem_copy(one, &one_value, sizeof one_value);
  double* fetched = mem_alloc(origin_kind, 17 * sizeof(double));
  check_mpi(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, last, 0, win), "MPI_Win_lock");
  check_mpi(MPI_Fetch_and_op(one, fetched, MPI_DOUBLE, last, disp(last, 0), MPI_SUM, win),
            "MPI_Fetch_and_op");
  check_mpi(MPI_Get_accumulate(NULL, 0, MPI_DOUBLE, fetched + 1, 16, MPI_DOUBLE, last,
                               disp(last, 1), 16, MPI_DOUBLE, MPI_NO_OP, win),
            "MPI_Get_accumulate");
  check_mpi(MPI_Win_unlock(last, win), "MPI_Win_unlock");
  double host[17];
  mem_copy(host, fetched, sizeof host);
  const double initial = value_of(last, 0, 6);
  if (host[0] < initial || host[0] > initial + g_size - 1 || host[0] != (long)host[0])
    fail("%s: fetch-and-op fetched %g, expected %g plus at most %d", g_what, host[0], initial,
         g_size - 1);
  for (size_t i = 1; i <= 16; ++i)
    expect_element("get-accumulate (no-op)", host[i], value_of(last, i, 6), i);
  mem_free(origin_kind, fetched);
  mem_free(origin_kind, one);
  MPI_Barrier(MPI_COMM_WORLD);
  if (g_rank == last) {
    double* now = window_copy();
    expect_element("after the fetch-and-ops, window", now[0], initial + g_size, 0);
    free(now);
  }

  if (g_rank == 0) {
    double* value = values_in(origin_kind, MPI_DOUBLE, 1, 7, 2, 8);
    double* compare = values_in(origin_kind, MPI_DOUBLE, 1, 0, 2, 6); /* what element 2 holds */
    double* old = mem_alloc(origin_kind, sizeof(double));
    check_mpi(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win), "MPI_Win_lock");
    check_mpi(MPI_Compare_and_swap(value, compare, old, MPI_DOUBLE, 0, disp(0, 2), win),
              "MPI_Compare_and_swap");
    check_mpi(MPI_Win_unlock(0, win), "MPI_Win_unlock");
    double before = 0;
    mem_copy(&before, old, sizeof before);
    expect_element("compare-and-swap's old", before, value_of(0, 2, 6), 2);
    double* now = window_copy();
    expect_element("after compare-and-swap, window", now[2], value_of(7, 2, 8), 2);
    free(now);
    mem_free(origin_kind, value);
    mem_free(origin_kind, compare);
    mem_free(origin_kind, old);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char** argv) {
  const int mapped = !(argc > 1 && strcmp(argv[1], "unmapped") == 0);
  gpu_test_init(&argc, &argv, "gpu_rma");
  int provided = 0, index = -1, count = 0;
  check_mpi(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), "MPI_T_init_thread");
  check_mpi(MPI_T_pvar_session_create(&g_session), "MPI_T_pvar_session_create");
  check_mpi(MPI_T_pvar_get_index("rma_device_windows_mapped", MPI_T_PVAR_CLASS_COUNTER, &index),
            "rma_device_windows_mapped");
  check_mpi(MPI_T_pvar_handle_alloc(g_session, index, NULL, &g_mapped, &count),
            "MPI_T_pvar_handle_alloc");
  const int neighbours = ranks_on_my_node() - 1;
  g_base = malloc((size_t)g_size * sizeof(MPI_Aint));
  for (int c = 0; c < kNumCases; ++c) {
    const Case k = kCases[c];
    snprintf(g_what, sizeof g_what, "window in %s memory (%s), %s origin buffers",
             kMemKindNames[k.window], kFlavorNames[k.flavor], kMemKindNames[k.origin]);
    MPI_Win win;
    const unsigned long long mapped_before = windows_mapped();
    g_dynamic = k.flavor == DYNAMIC;
    if (k.flavor == ALLOCATE) {
      check_mpi(MPI_Win_allocate(kN * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD,
                                 &g_window, &win),
                "MPI_Win_allocate");
    } else if (k.flavor == CREATE) {
      g_window = mem_alloc(k.window, kN * sizeof(double));
      check_mpi(MPI_Win_create(g_window, kN * sizeof(double), sizeof(double), MPI_INFO_NULL,
                               MPI_COMM_WORLD, &win),
                "MPI_Win_create");
    } else {
      g_window = mem_alloc(k.window, kN * sizeof(double));
      check_mpi(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win),
                "MPI_Win_create_dynamic");
      check_mpi(MPI_Win_attach(win, g_window, kN * sizeof(double)), "MPI_Win_attach");
      MPI_Aint mine;
      MPI_Get_address(g_window, &mine);
      check_mpi(MPI_Allgather(&mine, 1, MPI_AINT, g_base, 1, MPI_AINT, MPI_COMM_WORLD),
                "MPI_Allgather");
    }
    const unsigned long long want =
        mapped && k.window == MEM_DEVICE && k.flavor == CREATE ? neighbours : 0;
    if (windows_mapped() - mapped_before != want)
      fail("%s: %llu windows of other ranks mapped, expected %llu", g_what,
           windows_mapped() - mapped_before, want);
    fence_epochs(win, k.origin);
    lock_epochs(win, k.origin);
    if (k.flavor == DYNAMIC) check_mpi(MPI_Win_detach(win, g_window), "MPI_Win_detach");
    check_mpi(MPI_Win_free(&win), "MPI_Win_free");
    if (k.flavor != ALLOCATE) mem_free(k.window, g_window);
  }
  free(g_base);
  MPI_T_pvar_handle_free(g_session, &g_mapped);
  MPI_T_pvar_session_free(&g_session);
  MPI_T_finalize();
  return gpu_test_finish();
}
