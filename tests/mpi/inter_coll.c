/* Collectives on an intercommunicator, blocking, nonblocking and persistent (two runs each),
 * with every value checked: barrier, bcast, reduce, allreduce, gather(v), scatter(v),
 * allgather(v), alltoall(v/w), reduce_scatter(_block); the rooted ones with the root in either
 * group, MPI_ROOT at the root and MPI_PROC_NULL at the rest of its group. */
#include <stdlib.h>

#include "inter_common.h"

static MPI_Request req;
static int in_a, me, them, rank, size, rsize;

/* The call in the given form: 0 blocking, 1 nonblocking, 2 persistent. */
#define COLL(form, B, I, ...)                 \
  ((form) == 0   ? MPI_##B(__VA_ARGS__)       \
   : (form) == 1 ? MPI_##I(__VA_ARGS__, &req) \
                 : MPI_##B##_init(__VA_ARGS__, MPI_INFO_NULL, &req))
/* Persistent calls run twice (the output cleared in between); the others once. */
#define ROUNDS(form) for (int round = 0; round < ((form) == 2 ? 2 : 1); ++round)

static void done(int form) {
  if (form == 2) CHECK_MPI(MPI_Start(&req));
  if (form >= 1) CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
}
static void finish(int form) {
  if (form == 2) CHECK_MPI(MPI_Request_free(&req));
}
static int val(int group, int r, int i) { return mix3(group, r, i) % 1000; }
static void fill(int* buf, int n, int v) {
  for (int i = 0; i < n; ++i) buf[i] = v;
}
/* `parts` counts summing to `total`, as even as can be. */
static void split_counts(int total, int parts, int* counts) {
  for (int j = 0; j < parts; ++j) counts[j] = total / parts + (j < total % parts);
}
/* The root argument for a call rooted at rank `rr` of group `g` (1: A). */
static int root_arg(int g, int rr) {
  if (g != in_a) return rr;
  return rank == rr ? MPI_ROOT : MPI_PROC_NULL;
}

static MPI_Comm inter;
enum { N = 5, MAXR = 16 };

static void test_barrier(int form) {
  ROUNDS(form) {
    if (round == 0) CHECK_MPI(COLL(form, Barrier, Ibarrier, inter));
    done(form);
  }
  finish(form);
}

static void test_bcast(int form, int g, int rr) {
  int buf[N];
  ROUNDS(form) {
    const int root = root_arg(g, rr);
    for (int i = 0; i < N; ++i) buf[i] = root == MPI_ROOT ? val(g, rr, i) : -1;
    if (round == 0) CHECK_MPI(COLL(form, Bcast, Ibcast, buf, N, MPI_INT, root, inter));
    done(form);
    for (int i = 0; i < N; ++i)
      CHECK(buf[i] == (g == in_a ? (root == MPI_ROOT ? val(g, rr, i) : -1) : val(g, rr, i)));
  }
  finish(form);
}

static void test_reduce(int form, int g, int rr) {
  int in[N], out[N];
  for (int i = 0; i < N; ++i) in[i] = val(me, rank, i);
  ROUNDS(form) {
    const int root = root_arg(g, rr);
    fill(out, N, -1);
    if (round == 0)
      CHECK_MPI(COLL(form, Reduce, Ireduce, in, out, N, MPI_INT, MPI_SUM, root, inter));
    done(form);
    for (int i = 0; i < N; ++i) {
      int want = -1;
      if (root == MPI_ROOT) {
        want = 0;
        for (int r = 0; r < rsize; ++r) want += val(them, r, i);
      }
      CHECK(out[i] == want);
    }
  }
  finish(form);
}

static void test_allreduce(int form) {
  int in[N], out[N];
  for (int i = 0; i < N; ++i) in[i] = val(me, rank, i);
  ROUNDS(form) {
    fill(out, N, -1);
    if (round == 0)
      CHECK_MPI(COLL(form, Allreduce, Iallreduce, in, out, N, MPI_INT, MPI_MAX, inter));
    done(form);
    for (int i = 0; i < N; ++i) {
      int want = 0;
      for (int r = 0; r < rsize; ++r) want = val(them, r, i) > want ? val(them, r, i) : want;
      CHECK(out[i] == want);
    }
  }
  finish(form);
}

/* The blocks of the remote ranks in a gather(v)/scatter(v)/allgather(v): 2 ints each, or
 * r % 3 + 1 for remote rank r in the v form (`gap` ints after each then). Returns this rank's
 * own count. */
static int remote_layout(int v, int gap, int* counts, int* displs) {
  for (int r = 0, at = 0; r < rsize; ++r) {
    counts[r] = v ? r % 3 + 1 : 2;
    displs[r] = at;
    at += counts[r] + gap;
  }
  return v ? rank % 3 + 1 : 2;
}

/* Gather (v = 0) or gatherv (v = 1): remote rank r's block has r % 3 + 1 ints in the v form. */
static void test_gather(int form, int v, int g, int rr) {
  int in[3], out[MAXR * 4], counts[MAXR], displs[MAXR];
  const int mine = remote_layout(v, v, counts, displs);
  for (int i = 0; i < mine; ++i) in[i] = val(me, rank, i);
  ROUNDS(form) {
    const int root = root_arg(g, rr);
    fill(out, MAXR * 4, -1);
    if (round == 0) {
      if (v) {
        CHECK_MPI(COLL(form, Gatherv, Igatherv, in, mine, MPI_INT, out, counts, displs, MPI_INT,
                       root, inter));
      } else {
        CHECK_MPI(COLL(form, Gather, Igather, in, mine, MPI_INT, out, 2, MPI_INT, root, inter));
      }
    }
    done(form);
    for (int r = 0; r < rsize; ++r)
      for (int i = 0; i < counts[r] + v; ++i) {
        const int want = root != MPI_ROOT || i == counts[r] ? -1 : val(them, r, i);
        CHECK(out[displs[r] + i] == want);
      }
  }
  finish(form);
}

static void test_scatter(int form, int v, int g, int rr) {
  int in[MAXR * 4], out[4], counts[MAXR], displs[MAXR];
  const int mine = remote_layout(v, v, counts, displs);
  for (int r = 0; r < rsize; ++r)
    for (int i = 0; i < counts[r]; ++i) in[displs[r] + i] = val(me, r, i);
  ROUNDS(form) {
    const int root = root_arg(g, rr);
    fill(out, 4, -1);
    if (round == 0) {
      if (v) {
        CHECK_MPI(COLL(form, Scatterv, Iscatterv, in, counts, displs, MPI_INT, out, mine, MPI_INT,
                       root, inter));
      } else {
        CHECK_MPI(COLL(form, Scatter, Iscatter, in, 2, MPI_INT, out, mine, MPI_INT, root, inter));
      }
    }
    done(form);
    for (int i = 0; i < 4; ++i) CHECK(out[i] == (g != in_a && i < mine ? val(them, rank, i) : -1));
  }
  finish(form);
}

static void test_allgather(int form, int v) {
  int in[3], out[MAXR * 4], counts[MAXR], displs[MAXR];
  const int mine = remote_layout(v, 0, counts, displs);
  for (int i = 0; i < mine; ++i) in[i] = val(me, rank, i);
  ROUNDS(form) {
    fill(out, MAXR * 4, -1);
    if (round == 0) {
      if (v) {
        CHECK_MPI(COLL(form, Allgatherv, Iallgatherv, in, mine, MPI_INT, out, counts, displs,
                       MPI_INT, inter));
      } else {
        CHECK_MPI(COLL(form, Allgather, Iallgather, in, mine, MPI_INT, out, 2, MPI_INT, inter));
      }
    }
    done(form);
    for (int r = 0; r < rsize; ++r)
      for (int i = 0; i < counts[r]; ++i) CHECK(out[displs[r] + i] == val(them, r, i));
  }
  finish(form);
}

/* Alltoall (variant 0), alltoallv (1: (sender + receiver) % 3 + 1 ints), alltoallw (2). */
static void test_alltoall(int form, int variant) {
  int in[MAXR * 4], out[MAXR * 4], sc[MAXR], sd[MAXR], rc[MAXR], rd[MAXR];
  int sb[MAXR], rb[MAXR];
  MPI_Datatype types[MAXR];
  for (int r = 0, s_at = 0, r_at = 0; r < rsize; ++r) {
    sc[r] = rc[r] = variant ? (rank + r) % 3 + 1 : 2;
    sd[r] = s_at;
    rd[r] = r_at;
    sb[r] = s_at * (int)sizeof(int);
    rb[r] = r_at * (int)sizeof(int);
    types[r] = MPI_INT;
    for (int i = 0; i < sc[r]; ++i) in[s_at + i] = val(me, rank, r * 10 + i);
    s_at += sc[r];
    r_at += rc[r];
  }
  ROUNDS(form) {
    fill(out, MAXR * 4, -1);
    if (round == 0) {
      if (variant == 0) {
        CHECK_MPI(COLL(form, Alltoall, Ialltoall, in, 2, MPI_INT, out, 2, MPI_INT, inter));
      } else if (variant == 1) {
        CHECK_MPI(
            COLL(form, Alltoallv, Ialltoallv, in, sc, sd, MPI_INT, out, rc, rd, MPI_INT, inter));
      } else {
        CHECK_MPI(COLL(form, Alltoallw, Ialltoallw, in, sc, sb, types, out, rc, rb, types, inter));
      }
    }
    done(form);
    for (int r = 0; r < rsize; ++r)
      for (int i = 0; i < rc[r]; ++i) CHECK(out[rd[r] + i] == val(them, r, rank * 10 + i));
  }
  finish(form);
}

/* Reduce_scatter_block (block = 1: each group's vector is size_A * size_B long) or
 * reduce_scatter (uneven counts over a vector of size_A * size_B + 1). */
static void test_reduce_scatter(int form, int block) {
  const int total = size * rsize + !block;
  int* in = malloc(sizeof(int) * (size_t)total);
  int counts[MAXR], out[MAXR + 2];
  split_counts(total, size, counts);
  int at = 0;
  for (int j = 0; j < rank; ++j) at += counts[j];
  for (int e = 0; e < total; ++e) in[e] = val(me, rank, e);
  ROUNDS(form) {
    fill(out, MAXR + 2, -1);
    if (round == 0) {
      if (block) {
        CHECK_MPI(COLL(form, Reduce_scatter_block, Ireduce_scatter_block, in, out, rsize, MPI_INT,
                       MPI_SUM, inter));
      } else {
        CHECK_MPI(
            COLL(form, Reduce_scatter, Ireduce_scatter, in, out, counts, MPI_INT, MPI_SUM, inter));
      }
    }
    done(form);
    for (int i = 0; i < counts[rank]; ++i) {
      int want = 0;
      for (int r = 0; r < rsize; ++r) want += val(them, r, at + i);
      CHECK(out[i] == want);
    }
    CHECK(out[counts[rank]] == -1);
  }
  finish(form);
  free(in);
}

int main(int argc, char** argv) {
  int world_rank, world_size;
  if (!inter_init(&argc, &argv, &world_rank, &world_size)) return 0;
  MPI_Comm local;
  inter_make(0, &in_a, &local, &inter);
  MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
  MPI_Comm_rank(inter, &rank);
  MPI_Comm_size(inter, &size);
  MPI_Comm_remote_size(inter, &rsize);
  CHECK(rsize <= MAXR && size <= MAXR);
  me = in_a;
  them = !in_a;
  const int na = inter_size_a(world_size), nb = world_size - na;
  for (int form = 0; form < 3; ++form) {
    check_context("form %d barrier", form);
    test_barrier(form);
    for (int g = 0; g < 2; ++g) {
      const int gsize = g ? na : nb;
      for (int rr = 0; rr<gsize; rr += gsize> 1 ? gsize - 1 : 1) {
        check_context("form %d, root %d of group %c", form, rr, g ? 'A' : 'B');
        test_bcast(form, g, rr);
        test_reduce(form, g, rr);
        test_gather(form, 0, g, rr);
        test_gather(form, 1, g, rr);
        test_scatter(form, 0, g, rr);
        test_scatter(form, 1, g, rr);
      }
    }
    check_context("form %d allreduce", form);
    test_allreduce(form);
    for (int v = 0; v < 2; ++v) {
      check_context("form %d allgather%s", form, v ? "v" : "");
      test_allgather(form, v);
    }
    for (int v = 0; v < 3; ++v) {
      check_context("form %d alltoall variant %d", form, v);
      test_alltoall(form, v);
    }
    for (int b = 0; b < 2; ++b) {
      check_context("form %d reduce_scatter%s", form, b ? "_block" : "");
      test_reduce_scatter(form, b);
    }
  }
  MPI_Comm_free(&inter);
  MPI_Comm_free(&local);
  MPI_Finalize();
  return 0;
}
