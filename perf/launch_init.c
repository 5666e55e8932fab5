/* The launch benchmark's program: what every MPI job does at least once (MPI_Init, one barrier,
 * MPI_Finalize), so that the time of `launcher -n N ./launch_init` is the cost of starting and
 * ending a job of N ranks. Built with each implementation's mpicc by perf/compare_launch.sh. */
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
