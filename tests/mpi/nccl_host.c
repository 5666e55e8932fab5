/* WEFT_<COLL>_ALGORITHM=nccl on host buffers: every call still gives the right result, and each
 * runs as exactly one call of one of Weft's own algorithms (the MPI_T counters of calls per
 * algorithm), so host buffers never reach NCCL. Where CUDA is in use the ranks first agree on
 * whether their buffers are all on the device, by one small allreduce of Weft's own (counted
 * with the allreduces); where it is not, nothing extra is exchanged. Large sizes, in place and
 * not. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

enum { ALLREDUCE, BCAST, ALLGATHER, NUM_KINDS };
static const char* const kKinds[NUM_KINDS] = {"allreduce", "bcast", "allgather"};
static MPI_T_pvar_session session;
static MPI_T_pvar_handle* handles[NUM_KINDS];
static int handle_count[NUM_KINDS];

/* Every counter coll_<kind>_<algorithm>_calls of the library, whatever its algorithms are. */
static void find_counters(void) {
  int num = 0;
  CHECK(MPI_T_pvar_get_num(&num) == MPI_SUCCESS);
  for (int k = 0; k < NUM_KINDS; ++k) handles[k] = malloc(sizeof(MPI_T_pvar_handle) * (size_t)num);
  for (int i = 0; i < num; ++i) {
    char name[256], desc[512];
    int name_len = sizeof name, desc_len = sizeof desc, verbosity, var_class, bind, readonly,
        continuous, atomic;
    MPI_Datatype type;
    MPI_T_enum enumtype;
    CHECK(MPI_T_pvar_get_info(i, name, &name_len, &verbosity, &var_class, &type, &enumtype, desc,
                              &desc_len, &bind, &readonly, &continuous, &atomic) == MPI_SUCCESS);
    for (int k = 0; k < NUM_KINDS; ++k) {
      char prefix[64];
      snprintf(prefix, sizeof prefix, "coll_%s_", kKinds[k]);
      const size_t len = strlen(name);
      if (strncmp(name, prefix, strlen(prefix)) != 0 || len < 6 ||
          strcmp(name + len - 6, "_calls") != 0)
        continue;
      int count = 0;
      CHECK(MPI_T_pvar_handle_alloc(session, i, NULL, &handles[k][handle_count[k]], &count) ==
            MPI_SUCCESS);
      ++handle_count[k];
    }
  }
  for (int k = 0; k < NUM_KINDS; ++k) CHECK(handle_count[k] >= 2);
}

/* Calls of any Weft algorithm of `kind` so far. */
static unsigned long long weft_calls(int kind) {
  unsigned long long total = 0;
  for (int h = 0; h < handle_count[kind]; ++h) {
    unsigned long long v = 0;
    CHECK(MPI_T_pvar_read(session, handles[kind][h], &v) == MPI_SUCCESS);
    total += v;
  }
  return total;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  int rank, size, provided;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) == MPI_SUCCESS);
  CHECK(MPI_T_pvar_session_create(&session) == MPI_SUCCESS);
  find_counters();
  int agreement = 0; /* allreduces each NCCL-eligible call adds: 1 where CUDA is in use */
#ifdef MPIX_GPU_SUPPORT_CUDA
  agreement = MPIX_Query_cuda_support();
#endif
  const char* forced = getenv("WEFT_ALLREDUCE_ALGORITHM");
  CHECK(forced != NULL && strcmp(forced, "nccl") == 0);

  const int n = 1 << 18; /* 1 MiB of floats */
  float* in = malloc(sizeof(float) * (size_t)n);
  float* out = malloc(sizeof(float) * (size_t)n);
  for (int inplace = 0; inplace < 2; ++inplace) {
    check_context("allreduce of %d floats, %s", n, inplace ? "in place" : "out of place");
    for (int i = 0; i < n; ++i) (inplace ? out : in)[i] = (float)(rank + 1) * (float)(i % 7);
    const unsigned long long before = weft_calls(ALLREDUCE);
    CHECK_MPI(
        MPI_Allreduce(inplace ? MPI_IN_PLACE : in, out, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD));
    CHECK(weft_calls(ALLREDUCE) - before == 1 + (unsigned long long)agreement);
    const float ranks_sum = (float)size * (float)(size + 1) / 2;
    for (int i = 0; i < n; ++i) CHECK(out[i] == ranks_sum * (float)(i % 7));
  }

  check_context("bcast of 1 MiB from the last rank");
  for (int i = 0; i < n; ++i) out[i] = rank == size - 1 ? (float)i : -1.0f;
  unsigned long long before = weft_calls(BCAST);
  CHECK_MPI(MPI_Bcast(out, n, MPI_FLOAT, size - 1, MPI_COMM_WORLD));
  CHECK(weft_calls(BCAST) - before == 1);  /* the agreement is an allreduce */
  for (int i = 0; i < n; ++i) CHECK(out[i] == (float)i);

  check_context("allgather of 1 MiB in all, in place");
  const int block = n / size;
  for (int i = 0; i < block; ++i) out[rank * block + i] = (float)(rank * 1000 + i % 1000);
  before = weft_calls(ALLGATHER);
  CHECK_MPI(
      MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, out, block, MPI_FLOAT, MPI_COMM_WORLD));
  CHECK(weft_calls(ALLGATHER) - before == 1);
  for (int r = 0; r < size; ++r)
    for (int i = 0; i < block; ++i) CHECK(out[r * block + i] == (float)(r * 1000 + i % 1000));

  free(in);
  free(out);
  for (int k = 0; k < NUM_KINDS; ++k) {
    for (int h = 0; h < handle_count[k]; ++h) MPI_T_pvar_handle_free(session, &handles[k][h]);
    free(handles[k]);
  }
  MPI_T_pvar_session_free(&session);
  MPI_T_finalize();
  MPI_Finalize();
  return 0;
}
