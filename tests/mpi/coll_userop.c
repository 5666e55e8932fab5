/* User-defined ops (MPI_Op_create) and MPI_REPLACE/MPI_NO_OP in every reduction: Reduce at
 * several roots, Allreduce, Reduce_scatter(_block), Scan and Exscan, all three forms, in place
 * or not. The non-commutative ops (composition of affine maps mod 2^31-1, composition of
 * permutations) give a different result for any other operand order, so an algorithm that
 * reorders operands fails. Also MPI_Op_commutative, MPI_Op_free and MPI_Reduce_local. Linked
 * into the program of each reduction, which calls userop_tests for its collective. */
#include <stdlib.h>

#include "coll_ops.h"

static int rank, size;
static long user_calls; /* how often this rank's user functions ran */

/* x -> a*x + b mod P. op(u, v) with u from lower ranks is "u, then v": x -> v(u(x)). */
enum { P = 2147483647 };
struct affine {
  int a, b;
};
static void affine_op(void* in, void* inout, int* len, MPI_Datatype* type) {
  CHECK(*type == MPI_2INT && *len >= 0);
  ++user_calls;
  const struct affine* u = (const struct affine*)in;
  struct affine* v = (struct affine*)inout;
  for (int i = 0; i < *len; ++i) {
    const long long a = (long long)v[i].a * u[i].a % P;
    const long long b = ((long long)v[i].a * u[i].b + v[i].b) % P;
    v[i].a = (int)a;
    v[i].b = (int)b;
  }
}
static void fill_affine(MPI_Op op, void* buf, long n, int r, int s, int salt) {
  (void)op, (void)s;
  struct affine* m = (struct affine*)buf;
  for (long i = 0; i < n; ++i) {
    m[i].a = mix3(r, (int)i, salt) % (P - 2) + 2; /* never 0 or 1 */
    m[i].b = mix3(r, (int)i, salt + 1) % P;
  }
}
static void ref_affine(MPI_Op op, const void* in, void* inout, long n) {
  (void)op;
  int len = (int)n;
  MPI_Datatype t = MPI_2INT;
  affine_op((void*)in, inout, &len, &t);
  --user_calls;
}
#define AFFINE_EQ(x, y) ((x).a == (y).a && (x).b == (y).b)
DEFINE_DIFFER(affine, struct affine, AFFINE_EQ)

/* A permutation of 0..15, 4 bits per image. op(p, q) with p from lower ranks: i -> q(p(i)). */
typedef unsigned long long perm;
static perm compose(perm p, perm q) {
  perm r = 0;
  for (int i = 0; i < 16; ++i) {
    const unsigned pi = (unsigned)(p >> (4 * i)) & 15u;
    r |= ((q >> (4 * pi)) & 15u) << (4 * i);
  }
  return r;
}
static void perm_op(void* in, void* inout, int* len, MPI_Datatype* type) {
  CHECK(*type == MPI_UNSIGNED_LONG_LONG && *len >= 0);
  ++user_calls;
  for (int i = 0; i < *len; ++i) ((perm*)inout)[i] = compose(((perm*)in)[i], ((perm*)inout)[i]);
}
static void fill_perm(MPI_Op op, void* buf, long n, int r, int s, int salt) {
  (void)op, (void)s;
  for (long i = 0; i < n; ++i) {
    int items[16];
    for (int k = 0; k < 16; ++k) items[k] = k;
    for (int k = 15; k > 0; --k) { /* Fisher-Yates with reproducible choices */
      const int j = mix3(r, (int)(i * 16 + k), salt) % (k + 1), x = items[k];
      items[k] = items[j];
      items[j] = x;
    }
    perm p = 0;
    for (int k = 0; k < 16; ++k) p |= (perm)items[k] << (4 * k);
    ((perm*)buf)[i] = p;
  }
}
static void ref_perm(MPI_Op op, const void* in, void* inout, long n) {
  (void)op;
  for (long i = 0; i < n; ++i) ((perm*)inout)[i] = compose(((const perm*)in)[i], ((perm*)inout)[i]);
}
DEFINE_DIFFER(perm, perm, PLAIN_EQ)

/* Commutative and associative: a + b + a*b mod P, i.e. (1+a)(1+b) - 1. */
static void star_op(void* in, void* inout, int* len, MPI_Datatype* type) {
  CHECK(*type == MPI_LONG_LONG && *len >= 0);
  ++user_calls;
  for (int i = 0; i < *len; ++i) {
    const long long a = ((long long*)in)[i], b = ((long long*)inout)[i];
    ((long long*)inout)[i] = (a + b + a * b % P) % P;
  }
}
static void fill_star(MPI_Op op, void* buf, long n, int r, int s, int salt) {
  (void)op, (void)s;
  for (long i = 0; i < n; ++i) ((long long*)buf)[i] = mix3(r, (int)i, salt) % P;
}
static void ref_star(MPI_Op op, const void* in, void* inout, long n) {
  (void)op;
  for (long i = 0; i < n; ++i) {
    const long long a = ((const long long*)in)[i], b = ((long long*)inout)[i];
    ((long long*)inout)[i] = (a + b + a * b % P) % P;
  }
}
DEFINE_DIFFER(star, long long, PLAIN_EQ)

struct user_case {
  struct type_case tc;
  MPI_Op op;
};

enum { REDUCE, ALLREDUCE, REDUCE_SCATTER_BLOCK, REDUCE_SCATTER, SCAN, EXSCAN, NUM_KINDS };
static const char* const kKindNames[] = {
    "MPI_Reduce",         "MPI_Allreduce", "MPI_Reduce_scatter_block",
    "MPI_Reduce_scatter", "MPI_Scan",      "MPI_Exscan"};

/* Issues one reduction of `kind` in `form` and completes it. */
static void reduction(int kind, int form, const void* sb, void* rb, int n, const int* counts,
                      MPI_Datatype t, MPI_Op op, int root) {
  MPI_Request req = MPI_REQUEST_NULL, *r = &req;
  MPI_Comm w = MPI_COMM_WORLD;
  MPI_Info i = MPI_INFO_NULL;
  const int b = form == FORM_BLOCKING, nb = form == FORM_NONBLOCKING;
  int rc = MPI_ERR_OTHER;
  switch (kind) {
    case REDUCE:
      rc = b    ? MPI_Reduce(sb, rb, n, t, op, root, w)
           : nb ? MPI_Ireduce(sb, rb, n, t, op, root, w, r)
                : MPI_Reduce_init(sb, rb, n, t, op, root, w, i, r);
      break;
    case ALLREDUCE:
      rc = b    ? MPI_Allreduce(sb, rb, n, t, op, w)
           : nb ? MPI_Iallreduce(sb, rb, n, t, op, w, r)
                : MPI_Allreduce_init(sb, rb, n, t, op, w, i, r);
      break;
    case REDUCE_SCATTER_BLOCK:
      rc = b    ? MPI_Reduce_scatter_block(sb, rb, n, t, op, w)
           : nb ? MPI_Ireduce_scatter_block(sb, rb, n, t, op, w, r)
                : MPI_Reduce_scatter_block_init(sb, rb, n, t, op, w, i, r);
      break;
    case REDUCE_SCATTER:
      rc = b    ? MPI_Reduce_scatter(sb, rb, counts, t, op, w)
           : nb ? MPI_Ireduce_scatter(sb, rb, counts, t, op, w, r)
                : MPI_Reduce_scatter_init(sb, rb, counts, t, op, w, i, r);
      break;
    case SCAN:
      rc = b    ? MPI_Scan(sb, rb, n, t, op, w)
           : nb ? MPI_Iscan(sb, rb, n, t, op, w, r)
                : MPI_Scan_init(sb, rb, n, t, op, w, i, r);
      break;
    case EXSCAN:
      rc = b    ? MPI_Exscan(sb, rb, n, t, op, w)
           : nb ? MPI_Iexscan(sb, rb, n, t, op, w, r)
                : MPI_Exscan_init(sb, rb, n, t, op, w, i, r);
      break;
  }
  CHECK_MPI(rc);
  finish_form(form, &req);
}

/* One reduction of `kind` over n elements (per rank for the reduce-scatters; Reduce_scatter's
 * blocks are n * ((r + salt) % 3), so some are empty), checked against the reference. */
static void check_case(int kind, int form, const struct user_case* uc, long n, int root,
                       int in_place, int salt) {
  const struct type_case* tc = &uc->tc;
  const MPI_Op op = uc->op;
  int* counts = malloc((size_t)size * sizeof(int));
  CHECK(counts);
  long total = n, mine = n, offset = 0;
  if (kind == REDUCE_SCATTER_BLOCK || kind == REDUCE_SCATTER) {
    total = 0;
    for (int r = 0; r < size; ++r) {
      counts[r] = (int)(kind == REDUCE_SCATTER ? n * ((r + salt) % 3) : n);
      if (r == rank) offset = total;
      total += counts[r];
    }
    mine = counts[rank];
  }
  char what[96], where[32] = "";
  if (op == MPI_REPLACE || op == MPI_NO_OP)
    snprintf(what, sizeof what, "%s on %s", op_name(op), tc->name);
  else
    snprintf(what, sizeof what, "%s", tc->name);
  if (kind == REDUCE) snprintf(where, sizeof where, " to root %d", root);
  if (kind == REDUCE && rank != root) in_place = 0; /* only the root may reduce in place */
  check_context("%s %s with %s, %ld elements in all%s%s", form_name(form), kKindNames[kind], what,
                total, where, in_place ? ", MPI_IN_PLACE" : "");
  const size_t esz = tc->size;
  const int receives = kind != REDUCE || rank == root;
  const size_t recv_bytes = (size_t)(in_place ? total : mine) * esz;
  unsigned char* send = malloc((size_t)total * esz + 1);
  unsigned char* recv = malloc(recv_bytes + GUARD_BYTES);
  unsigned char* want = malloc((size_t)total * esz + 1);
  CHECK(send && recv && want);
  op_input(tc, op, send, total, rank, size, salt);
  memset(recv, 0x5A, recv_bytes);
  guard_set(recv + recv_bytes);
  if (in_place) memcpy(recv, send, (size_t)total * esz);
  reduction(kind, form, in_place ? MPI_IN_PLACE : send, receives ? recv : NULL, (int)n, counts,
            tc->type, op, root);
  if (kind == EXSCAN && rank == 0) { /* rank 0's recvbuf is left as it was */
    if (in_place)
      op_check(tc, recv, send, total, "rank 0's recvbuf");
    else
      for (size_t b = 0; b < recv_bytes; ++b) CHECK(recv[b] == 0x5A);
  } else if (receives) {
    const int hi = kind == SCAN ? rank + 1 : kind == EXSCAN ? rank : size;
    op_expected(tc, op, want, total, 0, hi, size, salt);
    op_check(tc, recv, want + (size_t)offset * esz, mine, "recvbuf");
  }
  guard_check(recv + recv_bytes, "recvbuf");
  free(send);
  free(recv);
  free(want);
  free(counts);
}

void userop_tests(const char* which) {
  world_ring(&rank, &size, NULL, NULL);
  const char* names[] = {"reduce",         "allreduce", "reduce_scatter",
                         "reduce_scatter", "scan",      "exscan"};
  int wanted[NUM_KINDS];
  for (int kind = 0; kind < NUM_KINDS; ++kind) wanted[kind] = strcmp(which, names[kind]) == 0;
  CHECK(wanted[REDUCE] || wanted[ALLREDUCE] || wanted[REDUCE_SCATTER] || wanted[SCAN] ||
        wanted[EXSCAN]);
  int roots[4];
  const int nroots = root_set(size, roots);

  MPI_Op affine, permute, star;
  CHECK_MPI(MPI_Op_create(affine_op, 0, &affine));
  CHECK_MPI(MPI_Op_create(perm_op, 0, &permute));
  CHECK_MPI(MPI_Op_create(star_op, 1, &star));
  int commute = -1;
  CHECK(MPI_Op_commutative(affine, &commute) == MPI_SUCCESS && commute == 0);
  CHECK(MPI_Op_commutative(star, &commute) == MPI_SUCCESS && commute == 1);
  CHECK(MPI_Op_commutative(MPI_SUM, &commute) == MPI_SUCCESS && commute == 1);
  CHECK(MPI_Op_commutative(MPI_REPLACE, &commute) == MPI_SUCCESS && commute == 0);
  CHECK(MPI_Op_commutative(MPI_NO_OP, &commute) == MPI_SUCCESS && commute == 0);

  const struct user_case cases[] = {
      {{"user affine maps on MPI_2INT", MPI_2INT, sizeof(struct affine), 0, fill_affine, ref_affine,
        differ_affine},
       affine},
      {{"user permutations on MPI_UNSIGNED_LONG_LONG", MPI_UNSIGNED_LONG_LONG, sizeof(perm), 0,
        fill_perm, ref_perm, differ_perm},
       permute},
      {{"user commutative (1+a)(1+b)-1 on MPI_LONG_LONG", MPI_LONG_LONG, sizeof(long long), 0,
        fill_star, ref_star, differ_star},
       star},
      {*type_case(MPI_INT), MPI_REPLACE},
      {*type_case(MPI_DOUBLE_INT), MPI_NO_OP},
      {*type_case(MPI_C_DOUBLE_COMPLEX), MPI_REPLACE},
      {*type_case(MPI_SHORT), MPI_NO_OP},
  };
  enum { NUM_CASES = sizeof cases / sizeof cases[0] };

  /* MPI_Reduce_local applies inoutbuf = inbuf op inoutbuf. */
  for (int c = 0; c < NUM_CASES; ++c) {
    const struct type_case* tc = &cases[c].tc;
    check_context("MPI_Reduce_local with %s", tc->name);
    const long n = 21;
    unsigned char* in = malloc((size_t)n * tc->size);
    unsigned char* inout = malloc((size_t)n * tc->size);
    unsigned char* want = malloc((size_t)n * tc->size);
    CHECK(in && inout && want);
    op_input(tc, cases[c].op, in, n, 3, 5, 11);
    op_input(tc, cases[c].op, inout, n, 4, 5, 11);
    op_expected(tc, cases[c].op, want, n, 3, 5, 5, 11);
    CHECK_MPI(MPI_Reduce_local(in, inout, (int)n, tc->type, cases[c].op));
    op_check(tc, inout, want, n, "inoutbuf");
    free(in);
    free(inout);
    free(want);
  }

  int salt = 1, call = 0;
  user_calls = 0;
  for (int kind = 0; kind < NUM_KINDS; ++kind) {
    if (!wanted[kind]) continue;
    for (int c = 0; c < NUM_CASES; ++c) {
      /* user ops with 1, 5 and 1001 elements at every root of root_set, MPI_REPLACE and
       * MPI_NO_OP with 5 at one root; in place and not */
      const long counts[] = {5, 1, 1001};
      for (int k = 0; k < (c < 3 ? 3 : 1); ++k) {
        long n = counts[k];
        if (kind == REDUCE_SCATTER || kind == REDUCE_SCATTER_BLOCK) n = n / 3 + 1; /* per rank */
        for (int in_place = 0; in_place < 2; ++in_place)
          for (int r = 0; r < (kind == REDUCE ? nroots : 1); ++r)
            if (c < 3 || r == (k + in_place) % nroots)
              check_case(kind, call++ % NUM_FORMS, &cases[c], n, roots[r], in_place, salt++);
      }
    }
    /* About 1 MiB, where the algorithms cut vectors into pieces, and 64 KiB. */
    for (int c = 0; c < 3; ++c) {
      long n = (c == 0 ? 1 << 20 : 1 << 16) / (long)cases[c].tc.size + 3;
      if (kind == REDUCE_SCATTER || kind == REDUCE_SCATTER_BLOCK) n = n / size + 1;
      check_case(kind, (kind + c) % NUM_FORMS, &cases[c], n, (size - 1 + c) % size, (kind + c) % 2,
                 salt++);
    }
  }
  /* With more than one rank, the user functions ran somewhere (a rank may have nothing to
   * combine, e.g. a leaf of a tree). */
  check_context("the user functions ran somewhere");
  long all_calls = 0;
  CHECK_MPI(MPI_Allreduce(&user_calls, &all_calls, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD));
  const int only_exscan =
      !wanted[REDUCE] && !wanted[ALLREDUCE] && !wanted[REDUCE_SCATTER] && !wanted[SCAN];
  if (size > (only_exscan ? 2 : 1)) CHECK(all_calls > 0); /* Exscan combines from 3 ranks on */

  CHECK(MPI_Op_free(&affine) == MPI_SUCCESS && affine == MPI_OP_NULL);
  CHECK(MPI_Op_free(&permute) == MPI_SUCCESS && permute == MPI_OP_NULL);
  CHECK(MPI_Op_free(&star) == MPI_SUCCESS && star == MPI_OP_NULL);
  check_context("%s", "");
}
