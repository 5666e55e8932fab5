/* MPI_Cancel of a send posted before any receive: the send completes (MPI_Wait returns) and
 * MPI_Test_cancelled tells the truth (MPI 4.1 §3.8.4): when it says "not cancelled" the receiver
 * gets the message, when it says "cancelled" the message never arrives. Eager and rendezvous
 * sizes. Ranks work in pairs (2k, 2k+1); a rank without a partner plays both sides itself. */
#include <stdlib.h>

#include "expect_error.h"

enum { kReady = 1, kVerdict = 2, kData = 3 };

static void cancel_one(int rank, int partner, int n) {
  check_context("MPI_Cancel of an MPI_Isend of %d ints before the receive is posted", n);
  const int sender = rank <= partner, receiver = rank >= partner;
  int *out = malloc((size_t)n * sizeof(int)), *in = malloc((size_t)n * sizeof(int));
  for (int k = 0; k < n; ++k) out[k] = mix3(rank, n, k);
  MPI_Request send = MPI_REQUEST_NULL, recv = MPI_REQUEST_NULL;
  int ready = 1, cancelled = -1;
  if (sender) {
    CHECK_MPI(MPI_Isend(out, n, MPI_INT, partner, kData, MPI_COMM_WORLD, &send));
    CHECK_MPI(MPI_Cancel(&send));
    CHECK_MPI(MPI_Send(&ready, 1, MPI_INT, partner, kReady, MPI_COMM_WORLD));
  }
  if (receiver) { /* the receive is posted only after the cancel */
    CHECK_MPI(MPI_Recv(&ready, 1, MPI_INT, partner, kReady, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Irecv(in, n, MPI_INT, partner, kData, MPI_COMM_WORLD, &recv));
  }
  if (sender) {
    MPI_Status st;
    CHECK_MPI(MPI_Wait(&send, &st));
    CHECK_MPI(MPI_Test_cancelled(&st, &cancelled));
    CHECK_MPI(MPI_Send(&cancelled, 1, MPI_INT, partner, kVerdict, MPI_COMM_WORLD));
  }
  if (receiver) {
    CHECK_MPI(
        MPI_Recv(&cancelled, 1, MPI_INT, partner, kVerdict, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    MPI_Status st;
    int recv_cancelled = -1;
    if (cancelled) { /* it must never arrive: our receive stays unmatched and can be cancelled */
      CHECK_MPI(MPI_Cancel(&recv));
    }
    CHECK_MPI(MPI_Wait(&recv, &st));
    CHECK_MPI(MPI_Test_cancelled(&st, &recv_cancelled));
    CHECK(recv_cancelled == cancelled);
    if (!cancelled) {
      int count = -1;
      CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
      CHECK(count == n && st.MPI_SOURCE == partner);
      for (int k = 0; k < n; ++k) CHECK(in[k] == mix3(partner, n, k));
    }
  }
  free(out);
  free(in);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  int rank, size;
  world_ring(&rank, &size, NULL, NULL);
  const int partner = (rank ^ 1) < size ? (rank ^ 1) : rank;
  const int lengths[] = {1, 256, 1 << 18}; /* 4 B, 1 KiB eager; 1 MiB by rendezvous */
  for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; ++i)
    cancel_one(rank, partner, lengths[i]);
  EXPECT_ERROR(MPI_Cancel(&(MPI_Request){MPI_REQUEST_NULL}), MPI_ERR_REQUEST, "MPI_Cancel",
               "MPI_REQUEST_NULL");
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
