/* The thread level: MPI_Init_thread with the level named by argv[1] ("single", "funneled",
 * "serialized", "multiple"; "init" for plain MPI_Init) provides exactly that level (Weft supports
 * all four), MPI_Query_thread reports it, and MPI_Is_thread_main holds in the thread that
 * initialised MPI only. */
#include <string.h>

#include "threads.h"

static void* not_main(void* arg) {
  (void)arg;
  int flag = -1, level = -1;
  CHECK_MPI(MPI_Is_thread_main(&flag));
  CHECK(flag == 0);
  CHECK_MPI(MPI_Query_thread(&level));
  CHECK(level == MPI_THREAD_MULTIPLE);
  return NULL;
}

int main(int argc, char** argv) {
  const char* names[] = {"single", "funneled", "serialized", "multiple"};
  const int levels[] = {MPI_THREAD_SINGLE, MPI_THREAD_FUNNELED, MPI_THREAD_SERIALIZED,
                        MPI_THREAD_MULTIPLE};
  int wanted = -1;
  for (int i = 0; i < 4; ++i)
    if (argc > 1 && strcmp(argv[1], names[i]) == 0) wanted = levels[i];
  int provided = -1;
  if (wanted < 0) {
    MPI_Init(&argc, &argv);
    wanted = provided = MPI_THREAD_SINGLE;
  } else {
    MPI_Init_thread(&argc, &argv, wanted, &provided);
  }
  errors_return();
  check_context("MPI_Init_thread(%s)", argc > 1 ? argv[1] : "");
  CHECK(provided == wanted);
  int level = -1, flag = -1;
  CHECK_MPI(MPI_Query_thread(&level));
  CHECK(level == wanted);
  CHECK_MPI(MPI_Is_thread_main(&flag));
  CHECK(flag == 1);
  if (wanted == MPI_THREAD_MULTIPLE) run_threads(2, not_main);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  MPI_Finalize();
  return 0;
}
