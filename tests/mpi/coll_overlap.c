/* Nonblocking collectives overlapped with each other and with point-to-point traffic on the same
 * communicator: a dozen different MPI_I* collectives and a blocking one in flight at once with
 * user messages on tags 0..13 (some to MPI_ANY_SOURCE/MPI_ANY_TAG receives), completed with
 * Waitall, Testany and Waitsome in orders that differ per rank. Collective traffic must never
 * match or be probed by user receives, and calls of one kind must match in the order issued. */
#include <stdlib.h>

#include "coll_ops.h"

enum { MAGIC = 0x5EED };
static int rank, size, left, right;

/* A user message: who sent it, with what tag. */
static void message(int* m, int tag) {
  m[0] = MAGIC;
  m[1] = rank;
  m[2] = tag;
  m[3] = mix3(rank, tag, 99);
}
static void check_message(const int* m, const MPI_Status* st, int from, int tag) {
  CHECK(m[0] == MAGIC && m[1] == st->MPI_SOURCE && m[2] == st->MPI_TAG);
  CHECK(m[3] == mix3(m[1], m[2], 99));
  if (from != MPI_ANY_SOURCE) CHECK(st->MPI_SOURCE == from);
  if (tag != MPI_ANY_TAG) CHECK(st->MPI_TAG == tag);
}

/* Completes all n requests: strategy 0 Waitsome, 1 Testany, 2 Waitall of the second half in
 * reverse order then Waitany; statuses land at the request's index. */
static void complete(int strategy, int n, MPI_Request* reqs, MPI_Status* sts) {
  int left_to_do = n;
  if (strategy == 2) {
    MPI_Request rev[64];
    MPI_Status rev_sts[64];
    const int h = n / 2;
    for (int i = 0; i < n - h; ++i) rev[i] = reqs[n - 1 - i];
    CHECK_MPI(MPI_Waitall(n - h, rev, rev_sts));
    for (int i = 0; i < n - h; ++i) {
      reqs[n - 1 - i] = rev[i];
      sts[n - 1 - i] = rev_sts[i];
      CHECK(rev[i] == MPI_REQUEST_NULL);
    }
    left_to_do = h;
    while (left_to_do > 0) {
      int index = -1;
      MPI_Status st;
      CHECK_MPI(MPI_Waitany(n, reqs, &index, &st));
      CHECK(index >= 0 && index < h);
      sts[index] = st;
      --left_to_do;
    }
  } else if (strategy == 1) {
    while (left_to_do > 0) {
      int index = -1, flag = 0;
      MPI_Status st;
      CHECK_MPI(MPI_Testany(n, reqs, &index, &flag, &st));
      if (flag) {
        CHECK(index >= 0 && index < n && reqs[index] == MPI_REQUEST_NULL);
        sts[index] = st;
        --left_to_do;
      }
    }
  } else {
    while (left_to_do > 0) {
      int out = 0, idx[64];
      MPI_Status some[64];
      CHECK_MPI(MPI_Waitsome(n, reqs, &out, idx, some));
      CHECK(out > 0 && out != MPI_UNDEFINED);
      for (int k = 0; k < out; ++k) sts[idx[k]] = some[k];
      left_to_do -= out;
    }
  }
  for (int i = 0; i < n; ++i) CHECK(reqs[i] == MPI_REQUEST_NULL);
}

/* Round 1: every kind of collective at once, plus user messages, plus a blocking collective. */
static void mixed_round(int round) {
  check_context("round %d of mixed nonblocking collectives and user messages", round);
  enum { NTAGGED = 11, NANY = 3, N = 640 };
  MPI_Request reqs[64];
  MPI_Status sts[64];
  int nreq = 0;
  int tagged_in[NTAGGED][4], any_in[NANY][4], tagged_out[NTAGGED][4], any_out[NANY][4];

  /* Receives first: tags 0..10 from the left, then three to anyone with any tag. */
  const int first_recv = nreq;
  for (int t = 0; t < NTAGGED; ++t)
    CHECK_MPI(MPI_Irecv(tagged_in[t], 4, MPI_INT, left, t, MPI_COMM_WORLD, &reqs[nreq++]));
  const int first_any = nreq;
  for (int k = 0; k < NANY; ++k)
    CHECK_MPI(MPI_Irecv(any_in[k], 4, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
                        &reqs[nreq++]));

  /* Collectives, all in flight together. */
  int* bc = malloc(N * sizeof(int));
  int* ar_in = malloc(N * sizeof(int));
  int* ar_out = malloc(N * sizeof(int));
  int* ar2_out = malloc(N * sizeof(int));
  int* a2a_in = malloc((size_t)size * 5 * sizeof(int));
  int* a2a_out = malloc((size_t)size * 5 * sizeof(int));
  int* g_out = malloc((size_t)size * 3 * sizeof(int));
  int* sc_out = malloc(N * sizeof(int));
  int* ex_out = malloc(N * sizeof(int));
  int* rsb_in = malloc((size_t)size * 7 * sizeof(int));
  int* rsb_out = malloc(7 * sizeof(int));
  int* agv_out = malloc((size_t)size * (size + 1) * sizeof(int));
  int* scat_in = malloc((size_t)size * 4 * sizeof(int));
  int scat_out[4], red_out[N], blocking_out[N], g_in[3], agv_in[64], self_out[N];
  CHECK(bc && ar_in && ar_out && ar2_out && a2a_in && a2a_out && g_out && sc_out && ex_out &&
        rsb_in && rsb_out && agv_out && scat_in);
  for (int i = 0; i < N; ++i) {
    bc[i] = rank == size - 1 ? mix3(round, i, 1) : -1;
    ar_in[i] = mix3(rank, i, round) % 1000;
  }
  for (int i = 0; i < size * 5; ++i) a2a_in[i] = mix3(rank, i, round + 2);
  for (int i = 0; i < 3; ++i) g_in[i] = mix3(rank, i, round + 3);
  for (int i = 0; i < size * 7; ++i) rsb_in[i] = mix3(rank, i, round + 4) % 1000;
  for (int i = 0; i <= rank && i < 64; ++i) agv_in[i] = mix3(rank, i, round + 5);
  for (int i = 0; i < size * 4; ++i) scat_in[i] = mix3(round, i, 6);
  int* agv_counts = malloc((size_t)size * sizeof(int));
  int* agv_displs = malloc((size_t)size * sizeof(int));
  CHECK(agv_counts && agv_displs);
  long agv_extent = 0;
  for (int r = 0; r < size; ++r) agv_counts[r] = r + 1 < 64 ? r + 1 : 64;
  agv_extent = vector_place(size, round, agv_counts, agv_displs);
  for (long i = 0; i < agv_extent; ++i) agv_out[i] = -1;
  for (int i = 0; i < N; ++i) ex_out[i] = -7;

  const int first_coll = nreq;
  MPI_Comm w = MPI_COMM_WORLD;
  CHECK_MPI(MPI_Ibcast(bc, N, MPI_INT, size - 1, w, &reqs[nreq++]));
  CHECK_MPI(MPI_Iallreduce(ar_in, ar_out, N, MPI_INT, MPI_SUM, w, &reqs[nreq++]));
  CHECK_MPI(MPI_Ialltoall(a2a_in, 5, MPI_INT, a2a_out, 5, MPI_INT, w, &reqs[nreq++]));
  CHECK_MPI(MPI_Ibarrier(w, &reqs[nreq++]));
  CHECK_MPI(MPI_Igather(g_in, 3, MPI_INT, g_out, 3, MPI_INT, 0, w, &reqs[nreq++]));
  CHECK_MPI(MPI_Iscan(ar_in, sc_out, N, MPI_INT, MPI_SUM, w, &reqs[nreq++]));
  CHECK_MPI(MPI_Iallreduce(ar_in, ar2_out, N, MPI_INT, MPI_MAX, w, &reqs[nreq++]));
  CHECK_MPI(MPI_Iexscan(ar_in, ex_out, N, MPI_INT, MPI_SUM, w, &reqs[nreq++]));
  CHECK_MPI(MPI_Ireduce_scatter_block(rsb_in, rsb_out, 7, MPI_INT, MPI_SUM, w, &reqs[nreq++]));
  CHECK_MPI(MPI_Iallgatherv(agv_in, agv_counts[rank], MPI_INT, agv_out, agv_counts, agv_displs,
                            MPI_INT, w, &reqs[nreq++]));
  CHECK_MPI(MPI_Iscatter(scat_in, 4, MPI_INT, scat_out, 4, MPI_INT, size / 2, w, &reqs[nreq++]));
  CHECK_MPI(MPI_Ireduce(ar_in, red_out, N, MPI_INT, MPI_MIN, (size - 1) / 2, w, &reqs[nreq++]));
  CHECK_MPI(MPI_Iallreduce(ar_in, self_out, N, MPI_INT, MPI_SUM, MPI_COMM_SELF, &reqs[nreq++]));
  const int ncoll = nreq - first_coll;

  /* User messages while all that is in flight: tags 0..10 to the right in a shuffled order,
   * tags 11..13 to three different ranks (each rank gets one of each). */
  const int first_send = nreq;
  for (int k = 0; k < NTAGGED; ++k) {
    const int t = (k * 7 + rank) % NTAGGED;
    message(tagged_out[t], t);
    CHECK_MPI(MPI_Isend(tagged_out[t], 4, MPI_INT, right, t, w, &reqs[nreq++]));
  }
  for (int k = 0; k < NANY; ++k) {
    message(any_out[k], NTAGGED + k);
    CHECK_MPI(
        MPI_Issend(any_out[k], 4, MPI_INT, (rank + k + 1) % size, NTAGGED + k, w, &reqs[nreq++]));
  }

  /* A blocking collective while the others are outstanding. */
  CHECK_MPI(MPI_Allreduce(ar_in, blocking_out, N, MPI_INT, MPI_BOR, w));
  for (int i = 0; i < N; ++i) {
    int want = 0;
    for (int r = 0; r < size; ++r) want |= mix3(r, i, round) % 1000;
    CHECK(blocking_out[i] == want);
  }

  complete((rank + round) % 3, nreq, reqs, sts);

  /* User messages went where they were addressed. */
  for (int t = 0; t < NTAGGED; ++t) check_message(tagged_in[t], &sts[first_recv + t], left, t);
  int seen_any_tag[NANY] = {0};
  for (int k = 0; k < NANY; ++k) {
    check_message(any_in[k], &sts[first_any + k], MPI_ANY_SOURCE, MPI_ANY_TAG);
    const int t = sts[first_any + k].MPI_TAG - NTAGGED;
    CHECK(t >= 0 && t < NANY && !seen_any_tag[t]);
    CHECK(sts[first_any + k].MPI_SOURCE == (rank - t - 1 + 2 * size) % size);
    seen_any_tag[t] = 1;
  }
  (void)first_send;
  (void)ncoll;

  /* Collective results. */
  for (int i = 0; i < N; ++i) {
    CHECK(bc[i] == mix3(round, i, 1));
    int sum = 0, max = 0, min = 1 << 30, prefix = 0, exprefix = 0;
    for (int r = 0; r < size; ++r) {
      const int v = mix3(r, i, round) % 1000;
      sum += v;
      max = v > max ? v : max;
      min = v < min ? v : min;
      if (r <= rank) prefix += v;
      if (r < rank) exprefix += v;
    }
    CHECK(ar_out[i] == sum && ar2_out[i] == max && sc_out[i] == prefix);
    CHECK(ex_out[i] == (rank == 0 ? -7 : exprefix));
    CHECK(self_out[i] == ar_in[i]);
    if (rank == (size - 1) / 2) CHECK(red_out[i] == min);
  }
  for (int p = 0; p < size; ++p)
    for (int i = 0; i < 5; ++i) CHECK(a2a_out[p * 5 + i] == mix3(p, rank * 5 + i, round + 2));
  if (rank == 0)
    for (int p = 0; p < size; ++p)
      for (int i = 0; i < 3; ++i) CHECK(g_out[p * 3 + i] == mix3(p, i, round + 3));
  for (int i = 0; i < 7; ++i) {
    int sum = 0;
    for (int r = 0; r < size; ++r) sum += mix3(r, rank * 7 + i, round + 4) % 1000;
    CHECK(rsb_out[i] == sum);
  }
  for (int p = 0; p < size; ++p)
    for (int i = 0; i < agv_counts[p]; ++i)
      CHECK(agv_out[agv_displs[p] + i] == mix3(p, i, round + 5));
  for (int i = 0; i < 4; ++i) CHECK(scat_out[i] == mix3(round, rank * 4 + i, 6));

  free(bc), free(ar_in), free(ar_out), free(ar2_out), free(a2a_in), free(a2a_out), free(g_out);
  free(sc_out), free(ex_out), free(rsb_in), free(rsb_out), free(agv_out), free(scat_in);
  free(agv_counts), free(agv_displs);
  /* Nobody starts the next round (and its user messages) before everyone finished this one:
   * an allreduce cannot complete anywhere before every rank joined it. */
  int one = 1, all = 0;
  CHECK_MPI(MPI_Allreduce(&one, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  CHECK(all == size);
}

/* Round 2: many collectives of one kind in flight; each must match its own counterpart on the
 * other ranks (issue order), whatever order they complete in. No user message is in flight, so
 * a probe for any message must find nothing: collective traffic is invisible to it. */
static void same_kind_round(void) {
  check_context("16 outstanding MPI_Iallreduce and MPI_Ibcast completed out of order");
  enum { K = 16, N = 300 };
  static int in[K][N], out[K][N], bc[K][N];
  MPI_Request reqs[2 * K];
  for (int k = 0; k < K; ++k) {
    for (int i = 0; i < N; ++i) {
      in[k][i] = mix3(rank, i, k) % 1000;
      bc[k][i] = rank == k % size ? mix3(k, i, 55) : -1;
    }
    CHECK_MPI(MPI_Iallreduce(in[k], out[k], N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &reqs[2 * k]));
    CHECK_MPI(MPI_Ibcast(bc[k], N, MPI_INT, k % size, MPI_COMM_WORLD, &reqs[2 * k + 1]));
  }
  for (int j = 0; j < 2 * K; ++j) {
    int found = 1;
    CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &found, MPI_STATUS_IGNORE));
    CHECK(!found);
    const int i = (j * 5 + rank * 3) % (2 * K); /* 5 is coprime to 2K: every index once */
    CHECK_MPI(MPI_Wait(&reqs[i], MPI_STATUS_IGNORE));
  }
  for (int k = 0; k < K; ++k)
    for (int i = 0; i < N; ++i) {
      int sum = 0;
      for (int r = 0; r < size; ++r) sum += mix3(r, i, k) % 1000;
      CHECK(out[k][i] == sum);
      CHECK(bc[k][i] == mix3(k, i, 55));
    }
}

/* Round 3: a wildcard receive posted before a series of collectives stays pending through all
 * of them, then gets the one user message meant for it. */
static void wildcard_round(void) {
  check_context("a pending MPI_ANY_SOURCE/MPI_ANY_TAG receive during blocking collectives");
  int got[4] = {0}, msg[4];
  MPI_Request req;
  MPI_Status st;
  CHECK_MPI(MPI_Irecv(got, 4, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &req));
  int v = rank, sum = 0, all[64];
  int buf[128];
  for (int i = 0; i < 128; ++i) buf[i] = rank;
  CHECK_MPI(MPI_Bcast(buf, 128, MPI_INT, 0, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Alltoall(MPI_IN_PLACE, 0, MPI_INT, buf, 128 / size, MPI_INT, MPI_COMM_WORLD));
  if (size <= 64) CHECK_MPI(MPI_Allgather(&v, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  int flag = 1;
  CHECK_MPI(MPI_Test(&req, &flag, &st));
  CHECK(!flag); /* nobody has sent a user message yet */
  /* The allreduce is the synchronization: nobody sends before everyone has tested. */
  CHECK_MPI(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  CHECK(sum == size * (size - 1) / 2);
  message(msg, 7);
  CHECK_MPI(MPI_Send(msg, 4, MPI_INT, right, 7, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Wait(&req, &st));
  check_message(got, &st, left, 7);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  world_ring(&rank, &size, &left, &right);
  errors_return();
  for (int round = 0; round < 3; ++round) mixed_round(round);
  same_kind_round();
  wildcard_round();
  MPI_Finalize();
  return 0;
}
