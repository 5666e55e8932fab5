/* Persistent collectives (MPI_*_init): initialized once and started many times with new input
 * each time, MPI_Startall over a dozen different ones (started in an order other than the one
 * they were made in), interleaved with blocking and nonblocking calls of the same kinds; inactive
 * requests answer MPI_Test/MPI_Wait at once and can be freed, started or not. */
#include <stdlib.h>

#include "coll_ops.h"

static int rank, size;

/* x -> a*x + b mod P, "lower rank first": a non-commutative user op. */
enum { P = 2147483647 };
static void affine(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  const int* u = (const int*)in;
  int* v = (int*)inout;
  for (int i = 0; i < *len; ++i) {
    const long long a = (long long)v[2 * i] * u[2 * i] % P;
    const long long b = ((long long)v[2 * i] * u[2 * i + 1] + v[2 * i + 1]) % P;
    v[2 * i] = (int)a;
    v[2 * i + 1] = (int)b;
  }
}

/* One allreduce request, restarted with new input (and in place) several times. */
static void restart_allreduce(void) {
  enum { N = 1000 };
  static int in[N], out[N], inplace[N];
  MPI_Request sum, inpl;
  CHECK_MPI(MPI_Allreduce_init(in, out, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &sum));
  CHECK_MPI(MPI_Allreduce_init(MPI_IN_PLACE, inplace, N, MPI_INT, MPI_MAX, MPI_COMM_WORLD,
                               MPI_INFO_NULL, &inpl));
  for (int it = 0; it < 6; ++it) {
    check_context("MPI_Allreduce_init started for the %d. time", it + 1);
    for (int i = 0; i < N; ++i) {
      in[i] = mix3(rank, i, it) % 1000;
      inplace[i] = mix3(rank, i, it + 100);
      out[i] = -1;
    }
    CHECK_MPI(MPI_Start(&sum));
    CHECK_MPI(MPI_Start(&inpl));
    if (it % 2) {
      CHECK_MPI(MPI_Wait(&inpl, MPI_STATUS_IGNORE));
      CHECK_MPI(MPI_Wait(&sum, MPI_STATUS_IGNORE));
    } else {
      MPI_Request both[2] = {sum, inpl};
      CHECK_MPI(MPI_Waitall(2, both, MPI_STATUSES_IGNORE));
      CHECK(both[0] == sum && both[1] == inpl); /* persistent: the handles stay */
    }
    for (int i = 0; i < N; ++i) {
      int s = 0, m = 0;
      for (int r = 0; r < size; ++r) {
        s += mix3(r, i, it) % 1000;
        m = mix3(r, i, it + 100) > m ? mix3(r, i, it + 100) : m;
      }
      CHECK(out[i] == s && inplace[i] == m);
    }
    /* Inactive now: test and wait return at once, the requests stay. */
    int flag = 0;
    CHECK(MPI_Test(&sum, &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS && flag &&
          sum != MPI_REQUEST_NULL);
    CHECK(MPI_Wait(&inpl, MPI_STATUS_IGNORE) == MPI_SUCCESS && inpl != MPI_REQUEST_NULL);
  }
  CHECK(MPI_Request_free(&sum) == MPI_SUCCESS && sum == MPI_REQUEST_NULL);
  CHECK(MPI_Request_free(&inpl) == MPI_SUCCESS && inpl == MPI_REQUEST_NULL);
}

/* A broadcast request per root, each restarted with new data. */
static void restart_bcast(void) {
  int roots[4];
  const int nroots = root_set(size, roots);
  enum { N = 333 };
  static int buf[4][N];
  MPI_Request reqs[4];
  for (int r = 0; r < nroots; ++r)
    CHECK_MPI(
        MPI_Bcast_init(buf[r], N, MPI_INT, roots[r], MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[r]));
  for (int it = 0; it < 4; ++it) {
    check_context("MPI_Bcast_init at every root of root_set, start %d", it + 1);
    for (int r = 0; r < nroots; ++r)
      for (int i = 0; i < N; ++i) buf[r][i] = rank == roots[r] ? mix3(roots[r], i, it) : -1;
    for (int r = nroots - 1; r >= 0; --r) CHECK_MPI(MPI_Start(&reqs[r]));
    CHECK_MPI(MPI_Waitall(nroots, reqs, MPI_STATUSES_IGNORE));
    for (int r = 0; r < nroots; ++r)
      for (int i = 0; i < N; ++i) CHECK(buf[r][i] == mix3(roots[r], i, it));
  }
  for (int r = 0; r < nroots; ++r) CHECK_MPI(MPI_Request_free(&reqs[r]));
}

/* A dozen different persistent collectives started together with MPI_Startall. */
static void startall(MPI_Op affine_op) {
  enum { N = 64, K = 14 };
  int* ar_in = malloc(N * sizeof(int));
  int* ar_out = malloc(N * sizeof(int));
  int* bc = malloc(N * sizeof(int));
  int* a2a_in = malloc((size_t)size * 3 * sizeof(int));
  int* a2a_out = malloc((size_t)size * 3 * sizeof(int));
  int* g_out = malloc((size_t)size * 2 * sizeof(int));
  int* sc_in = malloc((size_t)size * 2 * sizeof(int));
  int* ag_out = malloc((size_t)size * 2 * sizeof(int));
  int* red_out = malloc(N * sizeof(int));
  int* scan_out = malloc(N * sizeof(int));
  int* ex_out = malloc(N * sizeof(int));
  int* rsb_in = malloc((size_t)size * 4 * sizeof(int));
  int* aff_in = malloc(2 * N * sizeof(int));
  int* aff_out = malloc(2 * N * sizeof(int));
  int* v_counts = malloc((size_t)size * sizeof(int));
  int* v_displs = malloc((size_t)size * sizeof(int));
  int* gv_out = malloc((size_t)size * 8 * sizeof(int) + 1);
  CHECK(ar_in && ar_out && bc && a2a_in && a2a_out && g_out && sc_in && ag_out && red_out &&
        scan_out && ex_out && rsb_in && aff_in && aff_out && v_counts && v_displs && gv_out);
  int g_in[2], sc_out[2], rsb_out[4], self_in[N], self_out[N], gv_in[8];
  const long gv_extent = vector_layout(size, 0, size - 1, 2, v_counts, v_displs);
  const int g_root = size - 1, sc_root = size / 2, red_root = (size - 1) / 2;
  MPI_Comm w = MPI_COMM_WORLD;
  MPI_Info info = MPI_INFO_NULL;
  MPI_Request made[K]; /* in the order they were made */
  int k = 0;
  CHECK_MPI(MPI_Allreduce_init(ar_in, ar_out, N, MPI_INT, MPI_SUM, w, info, &made[k++]));
  CHECK_MPI(MPI_Bcast_init(bc, N, MPI_INT, size - 1, w, info, &made[k++]));
  CHECK_MPI(MPI_Alltoall_init(a2a_in, 3, MPI_INT, a2a_out, 3, MPI_INT, w, info, &made[k++]));
  CHECK_MPI(MPI_Gather_init(g_in, 2, MPI_INT, g_out, 2, MPI_INT, g_root, w, info, &made[k++]));
  CHECK_MPI(MPI_Scatter_init(sc_in, 2, MPI_INT, sc_out, 2, MPI_INT, sc_root, w, info, &made[k++]));
  CHECK_MPI(MPI_Allgather_init(g_in, 2, MPI_INT, ag_out, 2, MPI_INT, w, info, &made[k++]));
  CHECK_MPI(MPI_Reduce_init(ar_in, red_out, N, MPI_INT, MPI_MAX, red_root, w, info, &made[k++]));
  CHECK_MPI(MPI_Scan_init(ar_in, scan_out, N, MPI_INT, MPI_SUM, w, info, &made[k++]));
  CHECK_MPI(MPI_Exscan_init(ar_in, ex_out, N, MPI_INT, MPI_SUM, w, info, &made[k++]));
  CHECK_MPI(
      MPI_Reduce_scatter_block_init(rsb_in, rsb_out, 4, MPI_INT, MPI_SUM, w, info, &made[k++]));
  CHECK_MPI(MPI_Barrier_init(w, info, &made[k++]));
  CHECK_MPI(MPI_Allreduce_init(aff_in, aff_out, N, MPI_2INT, affine_op, w, info, &made[k++]));
  CHECK_MPI(
      MPI_Allreduce_init(self_in, self_out, N, MPI_INT, MPI_SUM, MPI_COMM_SELF, info, &made[k++]));
  CHECK_MPI(MPI_Gatherv_init(gv_in, v_counts[rank], MPI_INT, gv_out, v_counts, v_displs, MPI_INT, 0,
                             w, info, &made[k++]));
  CHECK(k == K);
  /* Started in another order than made (the same on every rank). */
  MPI_Request started[K];
  for (int j = 0; j < K; ++j) started[j] = made[(j * 5 + 3) % K];

  for (int it = 0; it < 4; ++it) {
    check_context("MPI_Startall over %d persistent collectives, round %d", K, it + 1);
    for (int i = 0; i < N; ++i) {
      ar_in[i] = mix3(rank, i, it) % 1000;
      bc[i] = rank == size - 1 ? mix3(it, i, 1) : -1;
      aff_in[2 * i] = mix3(rank, i, it + 7) % (P - 2) + 2;
      aff_in[2 * i + 1] = mix3(rank, i, it + 8);
      self_in[i] = mix3(rank, i, it + 9);
      ex_out[i] = -5;
    }
    for (int i = 0; i < size * 3; ++i) a2a_in[i] = mix3(rank, i, it + 2);
    for (int i = 0; i < 2; ++i) g_in[i] = mix3(rank, i, it + 3);
    for (int i = 0; i < size * 2; ++i) sc_in[i] = mix3(it, i, 4);
    for (int i = 0; i < size * 4; ++i) rsb_in[i] = mix3(rank, i, it + 5) % 1000;
    for (int i = 0; i < v_counts[rank]; ++i) gv_in[i] = mix3(rank, i, it + 6);
    for (long i = 0; i < gv_extent; ++i) gv_out[i] = -1;

    CHECK_MPI(MPI_Startall(K, started));
    /* A blocking and a nonblocking call of the same kinds while they run. */
    int x = rank, xs = 0, xb = rank;
    MPI_Request nb;
    CHECK_MPI(MPI_Iallreduce(&x, &xs, 1, MPI_INT, MPI_SUM, w, &nb));
    CHECK_MPI(MPI_Bcast(&xb, 1, MPI_INT, 0, w));
    if (it % 2) {
      CHECK_MPI(MPI_Waitall(K, started, MPI_STATUSES_IGNORE));
    } else {
      for (int done = 0; done < K;) {
        int out = 0, idx[K];
        CHECK_MPI(MPI_Waitsome(K, started, &out, idx, MPI_STATUSES_IGNORE));
        CHECK(out != MPI_UNDEFINED);
        done += out;
        /* a completed persistent request is inactive, not freed: Waitsome must not give it
         * again, so done counts every request once */
      }
    }
    CHECK_MPI(MPI_Wait(&nb, MPI_STATUS_IGNORE));
    CHECK(xs == size * (size - 1) / 2 && xb == 0);
    for (int j = 0; j < K; ++j) CHECK(started[j] != MPI_REQUEST_NULL);

    for (int i = 0; i < N; ++i) {
      int sum = 0, max = 0, prefix = 0, ex = 0;
      long long a = 1, b = 0; /* affine maps of ranks 0.., composed */
      for (int r = 0; r < size; ++r) {
        const int v = mix3(r, i, it) % 1000;
        sum += v;
        max = v > max ? v : max;
        if (r <= rank) prefix += v;
        if (r < rank) ex += v;
        const long long ua = mix3(r, i, it + 7) % (P - 2) + 2, ub = mix3(r, i, it + 8);
        b = (ua * b + ub) % P;
        a = ua * a % P;
      }
      CHECK(ar_out[i] == sum && bc[i] == mix3(it, i, 1) && scan_out[i] == prefix);
      CHECK(ex_out[i] == (rank == 0 ? -5 : ex));
      if (rank == red_root) CHECK(red_out[i] == max);
      CHECK(aff_out[2 * i] == a && aff_out[2 * i + 1] == b);
      CHECK(self_out[i] == self_in[i]);
    }
    for (int p = 0; p < size; ++p) {
      for (int i = 0; i < 3; ++i) CHECK(a2a_out[p * 3 + i] == mix3(p, rank * 3 + i, it + 2));
      for (int i = 0; i < 2; ++i) {
        if (rank == g_root) CHECK(g_out[p * 2 + i] == mix3(p, i, it + 3));
        CHECK(ag_out[p * 2 + i] == mix3(p, i, it + 3));
      }
      if (rank == 0)
        for (int i = 0; i < v_counts[p]; ++i) CHECK(gv_out[v_displs[p] + i] == mix3(p, i, it + 6));
    }
    for (int i = 0; i < 2; ++i) CHECK(sc_out[i] == mix3(it, rank * 2 + i, 4));
    for (int i = 0; i < 4; ++i) {
      int sum = 0;
      for (int r = 0; r < size; ++r) sum += mix3(r, rank * 4 + i, it + 5) % 1000;
      CHECK(rsb_out[i] == sum);
    }
  }
  for (int j = 0; j < K; ++j) {
    CHECK_MPI(MPI_Request_free(&made[j]));
    CHECK(made[j] == MPI_REQUEST_NULL);
  }
  free(ar_in), free(ar_out), free(bc), free(a2a_in), free(a2a_out), free(g_out), free(sc_in);
  free(ag_out), free(red_out), free(scan_out), free(ex_out), free(rsb_in), free(aff_in);
  free(aff_out), free(v_counts), free(v_displs), free(gv_out);
}

/* Requests made and freed without ever starting them, on both communicators; then the
 * collectives still line up (nothing of the freed ones was left behind). */
static void free_unstarted(void) {
  check_context("persistent requests freed without a start");
  int a[8] = {0}, b[8];
  MPI_Request reqs[5];
  CHECK_MPI(MPI_Allreduce_init(a, b, 8, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[0]));
  CHECK_MPI(MPI_Bcast_init(a, 8, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[1]));
  CHECK_MPI(MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[2]));
  CHECK_MPI(
      MPI_Alltoall_init(a, 1, MPI_INT, b, 1, MPI_INT, MPI_COMM_SELF, MPI_INFO_NULL, &reqs[3]));
  CHECK_MPI(MPI_Scan_init(a, b, 8, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[4]));
  int flag = 0;
  CHECK(MPI_Test(&reqs[0], &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS && flag);
  CHECK(MPI_Testall(5, reqs, &flag, MPI_STATUSES_IGNORE) == MPI_SUCCESS && flag);
  for (int i = 4; i >= 0; --i) {
    CHECK_MPI(MPI_Request_free(&reqs[i]));
    CHECK(reqs[i] == MPI_REQUEST_NULL);
  }
  int v = rank + 1, sum = 0;
  CHECK_MPI(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  CHECK(sum == size * (size + 1) / 2);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  world_ring(&rank, &size, NULL, NULL);
  errors_return();
  MPI_Op affine_op;
  CHECK_MPI(MPI_Op_create(affine, 0, &affine_op));
  restart_allreduce();
  restart_bcast();
  free_unstarted();
  startall(affine_op);
  free_unstarted();
  CHECK_MPI(MPI_Op_free(&affine_op));
  MPI_Finalize();
  return 0;
}
