/* Messages to oneself (Isend then Recv, Sendrecv with self, on MPI_COMM_WORLD and MPI_COMM_SELF)
 * and Sendrecv / Sendrecv_replace around the ring. */
#include "check.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, left, right;
  world_ring(&rank, &size, &left, &right);
  int out = 40 + rank, in = -1;
  MPI_Request req;
  MPI_Isend(&out, 1, MPI_INT, rank, 3, MPI_COMM_WORLD, &req);
  MPI_Recv(&in, 1, MPI_INT, rank, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  CHECK(in == out);

  int self_rank = -1, self_size = -1;
  MPI_Comm_rank(MPI_COMM_SELF, &self_rank);
  MPI_Comm_size(MPI_COMM_SELF, &self_size);
  CHECK(self_rank == 0 && self_size == 1);
  MPI_Status st;
  in = -1;
  MPI_Sendrecv(&out, 1, MPI_INT, 0, 4, &in, 1, MPI_INT, 0, 4, MPI_COMM_SELF, &st);
  CHECK(in == out && st.MPI_SOURCE == 0 && st.MPI_TAG == 4);

  in = -1;
  MPI_Sendrecv(&out, 1, MPI_INT, right, 5, &in, 1, MPI_INT, left, 5, MPI_COMM_WORLD, &st);
  CHECK(in == 40 + left && st.MPI_SOURCE == left);

  double values[1000];
  for (int i = 0; i < 1000; ++i) values[i] = rank * 1000.0 + i;
  MPI_Sendrecv_replace(values, 1000, MPI_DOUBLE, right, 6, left, 6, MPI_COMM_WORLD, &st);
  for (int i = 0; i < 1000; ++i) CHECK(values[i] == left * 1000.0 + i);
  CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 6);
  MPI_Finalize();
  return 0;
}
