/* Collectives with derived datatypes: non-contiguous vectors and padded structs (packed), resized
 * types as strided blocks, contiguous derived types (zero-copy), reductions on derived types with
 * predefined and user ops, MPI_IN_PLACE with derived types, and alltoallw with a different type
 * per peer. Every result is checked element by element. */
#include <stddef.h>
#include <stdlib.h>

#include "check.h"

struct Pair {
  int key;
  double value;
};

/* (key, value) op: keys must match; values add. A user op on a padded struct type. */
static void add_pairs(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  struct Pair* a = in;
  struct Pair* b = inout;
  for (int i = 0; i < *len; ++i) {
    if (a[i].key != b[i].key) b[i].key = -1;
    b[i].value += a[i].value;
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  int rank, size;
  world_ring(&rank, &size, NULL, NULL);

  /* every other double: non-contiguous */
  MPI_Datatype every_other;
  CHECK_MPI(MPI_Type_vector(4, 1, 2, MPI_DOUBLE, &every_other));
  CHECK_MPI(MPI_Type_commit(&every_other));
  /* {int, double} with padding, extent 16 */
  MPI_Datatype pair_raw, pair;
  int lens[2] = {1, 1};
  MPI_Aint offs[2] = {offsetof(struct Pair, key), offsetof(struct Pair, value)};
  MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE};
  CHECK_MPI(MPI_Type_create_struct(2, lens, offs, types, &pair_raw));
  CHECK_MPI(MPI_Type_create_resized(pair_raw, 0, sizeof(struct Pair), &pair));
  CHECK_MPI(MPI_Type_commit(&pair));
  /* three doubles: contiguous derived */
  MPI_Datatype triple;
  CHECK_MPI(MPI_Type_contiguous(3, MPI_DOUBLE, &triple));
  CHECK_MPI(MPI_Type_commit(&triple));

  check_context("MPI_Bcast of a strided vector from the last rank");
  double strided[8];
  for (int i = 0; i < 8; ++i) strided[i] = rank == size - 1 ? 100 + i : -1;
  CHECK_MPI(MPI_Bcast(strided, 1, every_other, size - 1, MPI_COMM_WORLD));
  for (int i = 0; i < 8; ++i) CHECK(strided[i] == (i % 2 == 0 ? 100 + i : (rank == size - 1 ? 100 + i : -1)));

  check_context("MPI_Allreduce of contiguous(3, MPI_DOUBLE) and of a strided vector");
  double mine3[6], sum3[6];
  for (int i = 0; i < 6; ++i) mine3[i] = rank + i;
  CHECK_MPI(MPI_Allreduce(mine3, sum3, 2, triple, MPI_SUM, MPI_COMM_WORLD));
  for (int i = 0; i < 6; ++i) CHECK(sum3[i] == (double)size * (size - 1) / 2 + (double)size * i);
  double v[8], w[8];
  for (int i = 0; i < 8; ++i) {
    v[i] = rank * 10 + i;
    w[i] = -5;
  }
  CHECK_MPI(MPI_Allreduce(v, w, 1, every_other, MPI_MAX, MPI_COMM_WORLD));
  for (int i = 0; i < 8; ++i) CHECK(w[i] == (i % 2 == 0 ? (size - 1) * 10 + i : -5));
  /* in place: the odd elements stay this rank's */
  CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, v, 1, every_other, MPI_SUM, MPI_COMM_WORLD));
  for (int i = 0; i < 8; ++i) {
    const double want = i % 2 == 0 ? 10.0 * size * (size - 1) / 2 + (double)size * i : rank * 10 + i;
    CHECK(v[i] == want);
  }

  check_context("MPI_Reduce with a user op on a padded struct");
  MPI_Op pair_add;
  CHECK_MPI(MPI_Op_create(add_pairs, 1, &pair_add));
  struct Pair p[3], q[3];
  for (int i = 0; i < 3; ++i) {
    p[i].key = i;
    p[i].value = rank + 0.5 * i;
    q[i].key = -9;
    q[i].value = -9;
  }
  CHECK_MPI(MPI_Reduce(p, q, 3, pair, pair_add, 0, MPI_COMM_WORLD));
  if (rank == 0) {
    for (int i = 0; i < 3; ++i)
      CHECK(q[i].key == i && q[i].value == (double)size * (size - 1) / 2 + 0.5 * i * size);
  }
  check_context("a predefined op on a struct of mixed types is refused");
  CHECK(error_class(MPI_Allreduce(p, q, 3, pair, MPI_SUM, MPI_COMM_WORLD)) == MPI_ERR_OP);

  check_context("MPI_Allgatherv of padded structs, in place and not");
  int* counts = malloc(sizeof(int) * (size_t)size);
  int* displs = malloc(sizeof(int) * (size_t)size);
  int total = 0;
  for (int r = 0; r < size; ++r) {
    counts[r] = r % 3 + 1;
    displs[r] = total + 1; /* a one-element gap before each block */
    total += counts[r] + 1;
  }
  struct Pair* all = malloc(sizeof(struct Pair) * (size_t)total);
  struct Pair own[3];
  for (int i = 0; i < counts[rank]; ++i) {
    own[i].key = rank;
    own[i].value = rank * 100 + i;
  }
  for (int pass = 0; pass < 2; ++pass) {
    for (int i = 0; i < total; ++i) all[i].key = -7, all[i].value = -7;
    if (pass == 1)
      for (int i = 0; i < counts[rank]; ++i) all[displs[rank] + i] = own[i];
    CHECK_MPI(MPI_Allgatherv(pass == 0 ? (void*)own : MPI_IN_PLACE, counts[rank], pair, all, counts,
                             displs, pair, MPI_COMM_WORLD));
    for (int r = 0; r < size; ++r) {
      for (int i = 0; i < counts[r]; ++i)
        CHECK(all[displs[r] + i].key == r && all[displs[r] + i].value == r * 100 + i);
      if (displs[r] > 0) CHECK(all[displs[r] - 1].key == -7); /* the gaps stay untouched */
    }
  }

  check_context("MPI_Gather/MPI_Scatter with a resized type: every rank's double every 3rd slot");
  MPI_Datatype spaced;
  CHECK_MPI(MPI_Type_create_resized(MPI_DOUBLE, 0, 3 * sizeof(double), &spaced));
  CHECK_MPI(MPI_Type_commit(&spaced));
  double* gathered = malloc(sizeof(double) * 3 * (size_t)size);
  for (int i = 0; i < 3 * size; ++i) gathered[i] = -1;
  double x = 1000 + rank;
  CHECK_MPI(MPI_Gather(&x, 1, MPI_DOUBLE, gathered, 1, spaced, 0, MPI_COMM_WORLD));
  if (rank == 0) {
    for (int i = 0; i < 3 * size; ++i) CHECK(gathered[i] == (i % 3 == 0 ? 1000 + i / 3 : -1));
  }
  double back = -1;
  CHECK_MPI(MPI_Scatter(gathered, 1, spaced, &back, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD));
  CHECK(back == 1000 + rank);

  check_context("MPI_Alltoallw: a strided vector to every peer, doubles back");
  double* out = malloc(sizeof(double) * 8 * (size_t)size);
  double* in = malloc(sizeof(double) * 4 * (size_t)size);
  int* scounts = malloc(sizeof(int) * (size_t)size);
  int* rcounts = malloc(sizeof(int) * (size_t)size);
  int* sd = malloc(sizeof(int) * (size_t)size);
  int* rd = malloc(sizeof(int) * (size_t)size);
  MPI_Datatype* st = malloc(sizeof(MPI_Datatype) * (size_t)size);
  MPI_Datatype* rt = malloc(sizeof(MPI_Datatype) * (size_t)size);
  for (int r = 0; r < size; ++r) {
    for (int i = 0; i < 8; ++i) out[8 * r + i] = rank * 1000 + r * 10 + i;
    scounts[r] = 1;
    st[r] = every_other;
    sd[r] = 8 * r * (int)sizeof(double);
    rcounts[r] = 4;
    rt[r] = MPI_DOUBLE;
    rd[r] = 4 * r * (int)sizeof(double);
  }
  CHECK_MPI(MPI_Alltoallw(out, scounts, sd, st, in, rcounts, rd, rt, MPI_COMM_WORLD));
  for (int r = 0; r < size; ++r)
    for (int i = 0; i < 4; ++i) CHECK(in[4 * r + i] == r * 1000 + rank * 10 + 2 * i);

  check_context("nonblocking MPI_Iallreduce and MPI_Ireduce_scatter_block on derived types");
  double* rs_in = malloc(sizeof(double) * 6 * (size_t)size);
  double rs_out[6];
  for (int i = 0; i < 6 * size; ++i) rs_in[i] = rank + i;
  MPI_Request reqs[2];
  double mine2[6], sum2[6];
  for (int i = 0; i < 6; ++i) mine2[i] = 2 * rank + i;
  CHECK_MPI(MPI_Iallreduce(mine2, sum2, 2, triple, MPI_SUM, MPI_COMM_WORLD, &reqs[0]));
  CHECK_MPI(MPI_Ireduce_scatter_block(rs_in, rs_out, 2, triple, MPI_SUM, MPI_COMM_WORLD, &reqs[1]));
  CHECK_MPI(MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE));
  for (int i = 0; i < 6; ++i) {
    CHECK(sum2[i] == (double)size * (size - 1) + (double)size * i);
    CHECK(rs_out[i] == (double)size * (size - 1) / 2 + (double)size * (6 * rank + i));
  }

  MPI_Op_free(&pair_add);
  MPI_Type_free(&every_other);
  MPI_Type_free(&pair_raw);
  MPI_Type_free(&pair);
  MPI_Type_free(&triple);
  MPI_Type_free(&spaced);
  free(counts);
  free(displs);
  free(all);
  free(gathered);
  free(out);
  free(in);
  free(scounts);
  free(rcounts);
  free(sd);
  free(rd);
  free(st);
  free(rt);
  free(rs_in);
  MPI_Finalize();
  return 0;
}
