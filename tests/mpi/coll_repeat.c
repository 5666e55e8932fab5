/* Repeated collective calls, as the library's cache of prepared calls serves them: the same call
 * again with other buffers and data, two equal nonblocking calls in flight at once with an equal
 * blocking call and an equal persistent request between them, more different calls in turn than
 * the cache keeps, in place and not, and equal calls on a communicator freed while they are
 * pending and on the one made after it. */
#include "coll_check.h"

enum { N = 6, DISTINCT = 13 };

static int rank, size;

/* What rank r contributes at position i for data `salt`. */
static int input(int r, int salt, int i) { return (r + 1) * 7 + salt * 3 + i; }

static void fill(int* in, int salt, int n) {
  for (int i = 0; i < n; ++i) in[i] = input(rank, salt, i);
}

/* Checks out[0..n) against the sum over all ranks of input(., salt, .). */
static void check_sum(const int* out, int salt, int n) {
  int want[N * DISTINCT];
  for (int i = 0; i < n; ++i) {
    want[i] = 0;
    for (int r = 0; r < size; ++r) want[i] += input(r, salt, i);
  }
  check_ints(out, want, n, "allreduce result");
}

/* The same allreduce and bcast again and again, each time from other buffers with other data;
 * the bcast's root moves, so two kinds of call alternate on one communicator. */
static void same_calls_new_buffers(void) {
  static int in[3][N], out[3][N], data[3][N];
  for (int it = 0; it < 24; ++it) {
    const int k = it % 3, root = it % size;
    check_context("repetition %d (buffers %d, bcast root %d)", it, k, root);
    fill(in[k], it, N);
    for (int i = 0; i < N; ++i) out[k][i] = -1;
    CHECK_MPI(MPI_Allreduce(in[k], out[k], N, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    check_sum(out[k], it, N);
    for (int i = 0; i < N; ++i) data[k][i] = rank == root ? input(root, it, i) : -1;
    CHECK_MPI(MPI_Bcast(data[k], N, MPI_INT, root, MPI_COMM_WORLD));
    for (int i = 0; i < N; ++i) CHECK(data[k][i] == input(root, it, i));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  }
}

/* Equal calls at once: two nonblocking ones pending, a blocking one and a persistent one
 * started while they are; each has its own buffers and data. */
static void equal_calls_at_once(void) {
  static int in[4][N], out[4][N];
  MPI_Request persistent, pending[3];
  CHECK_MPI(MPI_Allreduce_init(in[3], out[3], N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL,
                               &persistent));
  for (int it = 0; it < 5; ++it) {
    check_context("equal calls at once, round %d", it);
    for (int k = 0; k < 4; ++k) {
      fill(in[k], 10 * it + k, N);
      for (int i = 0; i < N; ++i) out[k][i] = -1;
    }
    CHECK_MPI(MPI_Iallreduce(in[0], out[0], N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &pending[0]));
    CHECK_MPI(MPI_Iallreduce(in[1], out[1], N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &pending[1]));
    CHECK_MPI(MPI_Allreduce(in[2], out[2], N, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Start(&persistent));
    pending[2] = persistent;
    CHECK_MPI(MPI_Waitall(3, pending, MPI_STATUSES_IGNORE));
    for (int k = 0; k < 4; ++k) check_sum(out[k], 10 * it + k, N);
  }
  CHECK_MPI(MPI_Request_free(&persistent));
}

/* More different calls than the cache keeps, in turn, blocking and nonblocking, in place and
 * not: each must still find (or rebuild) its own schedule. */
static void many_calls_in_turn(void) {
  static int in[N * DISTINCT], out[N * DISTINCT];
  for (int it = 0; it < 3 * DISTINCT; ++it) {
    const int n = N * (1 + it % DISTINCT), in_place = (it / DISTINCT) % 2;
    check_context("call %d in turn (%d ints, %s)", it, n, in_place ? "in place" : "not in place");
    fill(in_place ? out : in, it, n);
    if (!in_place)
      for (int i = 0; i < n; ++i) out[i] = -1;
    const void* send = in_place ? MPI_IN_PLACE : in;
    if (it % 2) {
      MPI_Request r;
      CHECK_MPI(MPI_Iallreduce(send, out, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r));
      CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    } else {
      CHECK_MPI(MPI_Allreduce(send, out, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    }
    check_sum(out, it, n);
  }
}

/* Calls pending on a communicator when it is freed complete; the next communicator, likely
 * under the same handle, runs equal calls from scratch. */
static void freed_while_pending(void) {
  static int in[N], out[N];
  for (int it = 0; it < 3; ++it) {
    check_context("communicator %d freed while its calls are pending", it);
    MPI_Comm dup;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK_MPI(MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN));
    fill(in, it, N);
    for (int i = 0; i < N; ++i) out[i] = -1;
    MPI_Request pending[2];
    CHECK_MPI(MPI_Iallreduce(in, out, N, MPI_INT, MPI_SUM, dup, &pending[0]));
    CHECK_MPI(MPI_Ibarrier(dup, &pending[1]));
    CHECK_MPI(MPI_Comm_free(&dup));
    CHECK_MPI(MPI_Waitall(2, pending, MPI_STATUSES_IGNORE));
    check_sum(out, it, N);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  world_ring(&rank, &size, NULL, NULL);
  same_calls_new_buffers();
  equal_calls_at_once();
  many_calls_in_turn();
  freed_while_pending();
  MPI_Finalize();
  if (rank == 0) printf("coll_repeat: ok\n");
  return 0;
}
