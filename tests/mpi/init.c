/* Environment queries around MPI_Init_thread and MPI_Finalize. */
#include <string.h>

#include "check.h"

int main(int argc, char** argv) {
  int flag = -1;
  MPI_Initialized(&flag);
  if (flag != 0) return 1;
  int provided = -1;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
  MPI_Initialized(&flag);
  CHECK(flag == 1);
#ifdef WEFT_MPI
  CHECK(provided == MPI_THREAD_SERIALIZED);
#else
  CHECK(provided >= MPI_THREAD_FUNNELED);
#endif
  int queried = -1;
  MPI_Query_thread(&queried);
  CHECK(queried == provided);
  MPI_Is_thread_main(&flag);
  CHECK(flag == 1);
  int version = 0, subversion = -1;
  MPI_Get_version(&version, &subversion);
  CHECK(version == MPI_VERSION && subversion == MPI_SUBVERSION);
#ifdef WEFT_MPI
  CHECK(version == 4 && subversion == 1); /* MPI 4.1 */
#endif
  char text[MPI_MAX_LIBRARY_VERSION_STRING];
  int len = 0;
  MPI_Get_library_version(text, &len);
#ifdef WEFT_MPI
  CHECK(len > 0 && (int)strlen(text) == len);
#else
  /* Open MPI counts the terminating NUL in the length. */
  CHECK(strlen(text) > 0 && (int)strlen(text) <= len && len <= (int)strlen(text) + 1);
#endif
  char host[MPI_MAX_PROCESSOR_NAME];
  MPI_Get_processor_name(host, &len);
  CHECK(len > 0 && (int)strlen(host) == len);
  CHECK(MPI_Wtick() > 0 && MPI_Wtick() < 1);
  double t0 = MPI_Wtime(), t1 = t0;
  for (int i = 0; i < 1000; ++i) {
    t1 = MPI_Wtime();
    CHECK(t1 >= t0);
  }
  int* appnum = NULL;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &appnum, &flag);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalized(&flag);
  CHECK(flag == 0);
  MPI_Finalize();
  MPI_Finalized(&flag);
  if (flag != 1) return 1;
  return 0;
}
