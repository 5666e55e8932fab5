/* A profiling tool as users write them: it defines MPI_Send, MPI_Allreduce and MPI_Finalize,
 * counts the calls and forwards them to PMPI_*. At MPI_Finalize it prints its counts. */
#include <mpi.h>
#include <stdio.h>

static int g_sends, g_allreduces;

int MPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  ++g_sends;
  return PMPI_Send(buf, count, type, dest, tag, comm);
}

int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                  MPI_Comm comm) {
  ++g_allreduces;
  return PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm);
}

int MPI_Finalize(void) {
  int rank = -1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  printf("call_counter: rank %d: MPI_Send %d MPI_Allreduce %d\n", rank, g_sends, g_allreduces);
  fflush(stdout);
  return PMPI_Finalize();
}
