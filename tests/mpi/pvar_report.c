/* A preload library for tests: allocates handles of the MPI_T counters named (comma-separated)
 * in WEFT_TEST_PVARS right after MPI_Init (a counter's handle counts from its allocation), and
 * at MPI_Finalize writes "pvar_report: rank=R NAME=VALUE ..." to stderr, so that a test can tell
 * which path a program's operations took. A counter that does not exist is written as
 * NAME=missing. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kMostCounters = 8 };
static MPI_T_pvar_session session;
static MPI_T_pvar_handle handles[kMostCounters];
static char names[512];
static const char* counter_names[kMostCounters];
static int have[kMostCounters], counters;

static void start_counting(void) {
  const char* wanted = getenv("WEFT_TEST_PVARS");
  if (wanted == NULL) return;
  int provided = 0;
  MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
  MPI_T_pvar_session_create(&session);
  snprintf(names, sizeof names, "%s", wanted);
  for (char* name = strtok(names, ","); name != NULL && counters < kMostCounters;
       name = strtok(NULL, ",")) {
    int index = -1, count = 0;
    counter_names[counters] = name;
    have[counters] = MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_COUNTER, &index) == MPI_SUCCESS &&
                     MPI_T_pvar_handle_alloc(session, index, NULL, &handles[counters], &count) ==
                         MPI_SUCCESS;
    ++counters;
  }
}

int MPI_Init(int* argc, char*** argv) {
  const int rc = PMPI_Init(argc, argv);
  start_counting();
  return rc;
}

int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  const int rc = PMPI_Init_thread(argc, argv, required, provided);
  start_counting();
  return rc;
}

int MPI_Finalize(void) {
  if (counters > 0) {
    int rank = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char line[1024];
    int at = snprintf(line, sizeof line, "pvar_report: rank=%d", rank);
    for (int i = 0; i < counters; ++i) {
      unsigned long long value[4] = {0};
      if (have[i]) MPI_T_pvar_read(session, handles[i], value);
      if (have[i])
        at += snprintf(line + at, sizeof line - (size_t)at, " %s=%llu", counter_names[i], value[0]);
      else
        at += snprintf(line + at, sizeof line - (size_t)at, " %s=missing", counter_names[i]);
    }
    fprintf(stderr, "%s\n", line);
  }
  return PMPI_Finalize();
}
