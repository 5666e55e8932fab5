/* MPI_T's coll_nccl_calls for the GPU test programs: how many collectives ran through NCCL since
 * open_nccl_counter, checked against WEFT_TEST_NCCL_CALLS where a test sets it ("all": every one
 * of the program's `calls`, "some", "none"). */
#ifndef WEFT_TESTS_GPU_NCCL_COUNTER_H
#define WEFT_TESTS_GPU_NCCL_COUNTER_H
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "../mpi/check.h"

static MPI_T_pvar_session nccl_session;
static MPI_T_pvar_handle nccl_counter;

static void open_nccl_counter(void) {
  int provided = 0, index = -1, count = 0;
  CHECK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) == MPI_SUCCESS);
  CHECK(MPI_T_pvar_session_create(&nccl_session) == MPI_SUCCESS);
  CHECK(MPI_T_pvar_get_index("coll_nccl_calls", MPI_T_PVAR_CLASS_COUNTER, &index) == MPI_SUCCESS);
  CHECK(MPI_T_pvar_handle_alloc(nccl_session, index, NULL, &nccl_counter, &count) == MPI_SUCCESS);
}

/* Reads the count, closes the counter and checks it; returns it. */
static unsigned long long check_nccl_calls(int calls) {
  unsigned long long n = 0;
  CHECK(MPI_T_pvar_read(nccl_session, nccl_counter, &n) == MPI_SUCCESS);
  MPI_T_pvar_handle_free(nccl_session, &nccl_counter);
  MPI_T_pvar_session_free(&nccl_session);
  MPI_T_finalize();
  const char* expect = getenv("WEFT_TEST_NCCL_CALLS");
  check_context("%llu of %d calls through NCCL, expecting %s", n, calls,
                expect ? expect : "any number");
  if (expect && strcmp(expect, "all") == 0) CHECK(n == (unsigned long long)calls);
  if (expect && strcmp(expect, "some") == 0) CHECK(n > 0 && n < (unsigned long long)calls);
  if (expect && strcmp(expect, "none") == 0) CHECK(n == 0);
  return n;
}

#endif
