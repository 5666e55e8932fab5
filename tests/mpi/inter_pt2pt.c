/* Point-to-point on an intercommunicator: ranks name the remote group, in both directions;
 * MPI_ANY_SOURCE receives and probes report the remote rank in MPI_SOURCE; MPI_PROC_NULL,
 * nonblocking and combined send-receive; the local group's traffic never mixes in. */
#include "inter_common.h"

int main(int argc, char** argv) {
  int world_rank, world_size;
  if (!inter_init(&argc, &argv, &world_rank, &world_size)) return 0;
  int in_a, rank, rsize;
  MPI_Comm local, inter;
  inter_make(0, &in_a, &local, &inter);
  MPI_Comm_rank(inter, &rank);
  MPI_Comm_remote_size(inter, &rsize);
  const int me = in_a, them = !in_a;

  /* Every rank sends to every remote rank (tag = sender's group), then receives from
   * MPI_ANY_SOURCE; each message names its sender. */
  for (int dir = 0; dir < 2; ++dir) {
    check_context("direction %d", dir);
    const int sending = dir == 0 ? in_a : !in_a;
    if (sending) {
      for (int r = 0; r < rsize; ++r) {
        const int v = mix3(me, rank, r);
        CHECK_MPI(MPI_Send(&v, 1, MPI_INT, r, 10 + dir, inter));
      }
    } else {
      int seen[64] = {0};
      for (int i = 0; i < rsize; ++i) {
        MPI_Status st;
        int flag = 0;
        CHECK_MPI(MPI_Probe(MPI_ANY_SOURCE, 10 + dir, inter, &st));
        CHECK(st.MPI_SOURCE >= 0 && st.MPI_SOURCE < rsize && st.MPI_TAG == 10 + dir);
        CHECK_MPI(MPI_Iprobe(st.MPI_SOURCE, 10 + dir, inter, &flag, MPI_STATUS_IGNORE));
        CHECK(flag);
        int v = -1, count = -1;
        /* Direction 1's senders go on to send tag 5 next: only direction 0 may take any tag. */
        CHECK_MPI(
            MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, dir == 0 ? MPI_ANY_TAG : 11, inter, &st));
        MPI_Get_count(&st, MPI_INT, &count);
        CHECK(count == 1 && st.MPI_SOURCE >= 0 && st.MPI_SOURCE < rsize);
        CHECK(v == mix3(them, st.MPI_SOURCE, rank));
        CHECK(!seen[st.MPI_SOURCE]);
        seen[st.MPI_SOURCE] = 1;
      }
    }
  }

  /* Sendrecv with a partner in the other group, both ways at once, and named sources. */
  check_context("sendrecv");
  const int partner = rank % rsize;
  int out = mix3(me, rank, 99), in = -1;
  MPI_Request reqs[2];
  MPI_Status sts[2];
  /* Every rank of the other group whose partner I am sends to me. */
  int senders = 0, my_size;
  MPI_Comm_size(inter, &my_size);
  for (int r = 0; r < rsize; ++r)
    if (r % my_size == rank) ++senders;
  CHECK_MPI(MPI_Isend(&out, 1, MPI_INT, partner, 5, inter, &reqs[0]));
  for (int i = 0; i < senders; ++i) {
    MPI_Status st;
    CHECK_MPI(MPI_Recv(&in, 1, MPI_INT, MPI_ANY_SOURCE, 5, inter, &st));
    CHECK(st.MPI_SOURCE % my_size == rank && in == mix3(them, st.MPI_SOURCE, 99));
  }
  CHECK_MPI(MPI_Wait(&reqs[0], &sts[0]));

  /* Two messages between the leaders in each direction arrive in order: the first meets the
   * receive posted first, the second a Sendrecv's receive. */
  check_context("ordering between the leaders");
  if (rank == 0) {
    int first = 2000 + me, second = 3000 + me, w = -1, x = -1;
    MPI_Status st;
    CHECK_MPI(MPI_Irecv(&w, 1, MPI_INT, 0, 3, inter, &reqs[1]));
    CHECK_MPI(MPI_Isend(&first, 1, MPI_INT, 0, 3, inter, &reqs[0]));
    CHECK_MPI(
        MPI_Sendrecv(&second, 1, MPI_INT, 0, 3, &x, 1, MPI_INT, MPI_ANY_SOURCE, 3, inter, &st));
    CHECK(st.MPI_SOURCE == 0 && x == 3000 + them);
    CHECK_MPI(MPI_Waitall(2, reqs, sts));
    CHECK(w == 2000 + them && sts[1].MPI_SOURCE == 0);
  }

  /* MPI_PROC_NULL. */
  MPI_Status st;
  CHECK_MPI(MPI_Send(&out, 1, MPI_INT, MPI_PROC_NULL, 0, inter));
  CHECK_MPI(MPI_Recv(&in, 1, MPI_INT, MPI_PROC_NULL, 0, inter, &st));
  CHECK(st.MPI_SOURCE == MPI_PROC_NULL);

  MPI_Comm_free(&inter);
  MPI_Comm_free(&local);
  MPI_Finalize();
  return 0;
}
