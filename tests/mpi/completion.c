/* The completion calls with mixed orders and MPI_REQUEST_NULL entries, cancel of a receive,
 * Request_free of a send, MPI_PROC_NULL, and ready mode after the receiver posted. */
#include "check.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, left, right;
  world_ring(&rank, &size, &left, &right);
  enum { N = 6 };
  int out[N], in[N];
  MPI_Request recvs[N + 1], sends[N];
  MPI_Status sts[N + 1];

  /* Waitany: every receive completes exactly once, then index is MPI_UNDEFINED. */
  for (int i = 0; i < N; ++i) MPI_Irecv(&in[i], 1, MPI_INT, left, i, MPI_COMM_WORLD, &recvs[i]);
  recvs[N] = MPI_REQUEST_NULL;
  for (int i = N - 1; i >= 0; --i) {
    out[i] = 10 * rank + i;
    MPI_Isend(&out[i], 1, MPI_INT, right, i, MPI_COMM_WORLD, &sends[i]);
  }
  int done[N] = {0};
  for (int k = 0; k < N; ++k) {
    int index = -1;
    MPI_Waitany(N + 1, recvs, &index, &sts[0]);
    CHECK(index >= 0 && index < N && !done[index]);
    done[index] = 1;
    CHECK(in[index] == 10 * left + index && sts[0].MPI_TAG == index);
    CHECK(recvs[index] == MPI_REQUEST_NULL);
  }
  int index = 0;
  MPI_Waitany(N + 1, recvs, &index, MPI_STATUS_IGNORE);
  CHECK(index == MPI_UNDEFINED);
  int flag = 0;
  MPI_Testall(N, sends, &flag, MPI_STATUSES_IGNORE);
  if (!flag) MPI_Waitall(N, sends, MPI_STATUSES_IGNORE);
  for (int i = 0; i < N; ++i) CHECK(sends[i] == MPI_REQUEST_NULL);

  /* Waitsome / Testsome until all are in; the odd slots hold MPI_REQUEST_NULL, the sends go
   * out in a shuffled order. */
  enum { M = 2 * N };
  MPI_Request slots[M];
  MPI_Status slot_sts[M];
  for (int i = 0; i < M; ++i) {
    slots[i] = MPI_REQUEST_NULL;
    if (i % 2 == 0) MPI_Irecv(&in[i / 2], 1, MPI_INT, left, 100 + i / 2, MPI_COMM_WORLD, &slots[i]);
  }
  for (int k = 0; k < N; ++k) {
    const int i = (k * 5 + 3) % N; /* 5 is coprime to N: a permutation */
    MPI_Isend(&out[i], 1, MPI_INT, right, 100 + i, MPI_COMM_WORLD, &sends[i]);
  }
  int total = 0, indices[M], got[N] = {0};
  while (total < N) {
    int outcount = 0;
    if (total % 2 == 0) {
      MPI_Waitsome(M, slots, &outcount, indices, slot_sts);
      CHECK(outcount >= 1);
    } else {
      MPI_Testsome(M, slots, &outcount, indices, slot_sts);
      CHECK(outcount >= 0);
    }
    for (int k = 0; k < outcount; ++k) {
      const int i = indices[k];
      CHECK(i % 2 == 0 && !got[i / 2] && slots[i] == MPI_REQUEST_NULL);
      got[i / 2] = 1;
      CHECK(in[i / 2] == 10 * left + i / 2 && slot_sts[k].MPI_TAG == 100 + i / 2);
      CHECK(slot_sts[k].MPI_SOURCE == left);
    }
    total += outcount;
  }
  int outcount = 0;
  MPI_Waitsome(M, slots, &outcount, indices, slot_sts);
  CHECK(outcount == MPI_UNDEFINED);
  MPI_Testsome(M, slots, &outcount, indices, slot_sts);
  CHECK(outcount == MPI_UNDEFINED);
  MPI_Testany(M, slots, &index, &flag, MPI_STATUS_IGNORE);
  CHECK(flag == 1 && index == MPI_UNDEFINED);
  MPI_Waitall(N, sends, MPI_STATUSES_IGNORE);

  /* Testall / Testany on a receive whose message is only sent after a barrier: not complete
   * before it, complete after (null entries in between are skipped). */
  MPI_Request pair[3] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  MPI_Irecv(&in[0], 1, MPI_INT, left, 300, MPI_COMM_WORLD, &pair[1]);
  flag = 1;
  MPI_Testall(3, pair, &flag, MPI_STATUSES_IGNORE);
  CHECK(flag == 0 && pair[1] != MPI_REQUEST_NULL);
  MPI_Testany(3, pair, &index, &flag, MPI_STATUS_IGNORE);
  CHECK(flag == 0 && index == MPI_UNDEFINED);
  MPI_Barrier(MPI_COMM_WORLD);
  out[0] = 300 + rank;
  MPI_Send(&out[0], 1, MPI_INT, right, 300, MPI_COMM_WORLD);
  MPI_Status three[3];
  do MPI_Testall(3, pair, &flag, three);
  while (!flag);
  CHECK(in[0] == 300 + left && three[1].MPI_SOURCE == left && pair[1] == MPI_REQUEST_NULL);

  /* Cancel a receive nobody will match. */
  MPI_Request r;
  MPI_Irecv(&in[0], 1, MPI_INT, left, 999, MPI_COMM_WORLD, &r);
  MPI_Cancel(&r);
  MPI_Status st;
  MPI_Wait(&r, &st);
  MPI_Test_cancelled(&st, &flag);
  CHECK(flag == 1 && r == MPI_REQUEST_NULL);

  /* Request_free of an active send; the data still arrives. */
  out[0] = 77;
  MPI_Isend(&out[0], 1, MPI_INT, right, 5, MPI_COMM_WORLD, &r);
  MPI_Request_free(&r);
  CHECK(r == MPI_REQUEST_NULL);
  MPI_Recv(&in[0], 1, MPI_INT, left, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  CHECK(in[0] == 77);

  /* MPI_PROC_NULL: immediate, empty, with the standard's status. */
  MPI_Send(out, 1, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD);
  MPI_Recv(in, 1, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &st);
  int count = -1;
  MPI_Get_count(&st, MPI_INT, &count);
  CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG && count == 0);

  /* Ready mode: the receive is posted before the barrier, the send after it. */
  MPI_Irecv(&in[0], 1, MPI_INT, left, 6, MPI_COMM_WORLD, &r);
  MPI_Barrier(MPI_COMM_WORLD);
  out[0] = 88;
  MPI_Rsend(&out[0], 1, MPI_INT, right, 6, MPI_COMM_WORLD);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  CHECK(in[0] == 88);
  /* Test on a null request is complete with an empty status. */
  r = MPI_REQUEST_NULL;
  MPI_Test(&r, &flag, &st);
  CHECK(flag == 1 && st.MPI_SOURCE == MPI_ANY_SOURCE);
  MPI_Finalize();
  return 0;
}
