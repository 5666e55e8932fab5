/* Bad handles under the profiler: an untimed call is counted before it runs (profile/), so the
 * profiler looks at its communicator and datatype first; what it finds wrong must stay its own
 * business. Each of many sends to a communicator that does not exist, and with a datatype that
 * does not exist, reaches the program's error handler exactly once, with the error of MPI_Send
 * itself. Run under weftrun --profile (WEFT_PROFILE=summary). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

enum { kCalls = 3000 }; /* well past the 1024 calls the profiler times before it samples */

static int g_handled, g_wrong;

static void count_error(MPI_Comm* comm, int* code, ...) {
  (void)comm;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(*code, text, &len);
  ++g_handled;
  if (strncmp(text, "MPI_Send:", 9) != 0) {
    if (g_wrong++ == 0) fprintf(stderr, "bad_handles: an error not from MPI_Send: %s\n", text);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Errhandler handler;
  MPI_Comm_create_errhandler(count_error, &handler);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, handler);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, handler);
  int v = 1;
  for (int i = 0; i < kCalls; ++i) {
    MPI_Send(&v, 1, MPI_INT, 0, 0, (MPI_Comm)12345);
    MPI_Send(&v, 1, (MPI_Datatype)54321, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
  MPI_Errhandler_free(&handler);
  const int ok = g_handled == 2 * kCalls && g_wrong == 0;
  if (!ok) fprintf(stderr, "bad_handles: %d errors handled (want %d), %d not from MPI_Send\n",
                   g_handled, 2 * kCalls, g_wrong);
  MPI_Finalize();
  return ok ? 0 : 1;
}
