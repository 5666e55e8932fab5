/* Conjugate gradients for the 2-D Poisson matrix (5-point Laplacian on an n x n grid), rows
 * distributed in blocks over the ranks: the matrix-vector product gathers the search direction
 * with MPI_Allgatherv, the stopping test takes MPI_Allreduce(MPI_MAX), and dot products are
 * reproducible: each rank contributes {row, product} records (a struct datatype, padded, so not
 * contiguous) gathered with MPI_Allgatherv and summed in row order everywhere. So the residual
 * history is bitwise the same on any number of ranks, and with any MPI; the program prints its
 * checksum. Usage: cg [n max_iterations] */
#include <math.h>
#include <mpi.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct Product {
  int row;
  double value;
};

static int n, rows_total, first_row, my_rows;
static int *counts, *displs;
static MPI_Datatype product_type;
static struct Product *mine, *all;

static void die(const char* what) {
  fprintf(stderr, "cg: %s\n", what);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

/* sum over all rows of a[i] * b[i] (local parts), added in row order on every rank */
static double dot(const double* a, const double* b) {
  for (int i = 0; i < my_rows; ++i) {
    mine[i].row = first_row + i;
    mine[i].value = a[i] * b[i];
  }
  MPI_Allgatherv(mine, my_rows, product_type, all, counts, displs, product_type, MPI_COMM_WORLD);
  double sum = 0;
  for (int r = 0; r < rows_total; ++r) {
    if (all[r].row != r) die("a dot-product record arrived in the wrong place");
    sum += all[r].value;
  }
  return sum;
}

/* y = A x for this rank's rows, x the full vector */
static void matvec(const double* x, double* y) {
  for (int i = 0; i < my_rows; ++i) {
    const int row = first_row + i, gi = row / n, gj = row % n;
    double v = 4 * x[row];
    if (gi > 0) v -= x[row - n];
    if (gi < n - 1) v -= x[row + n];
    if (gj > 0) v -= x[row - 1];
    if (gj < n - 1) v -= x[row + 1];
    y[i] = v;
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  n = argc > 2 ? atoi(argv[1]) : 24;
  const int max_iterations = argc > 2 ? atoi(argv[2]) : 400;
  rows_total = n * n;
  counts = malloc(sizeof(int) * (size_t)size);
  displs = malloc(sizeof(int) * (size_t)size);
  for (int r = 0; r < size; ++r) {
    counts[r] = rows_total / size + (r < rows_total % size ? 1 : 0);
    displs[r] = r == 0 ? 0 : displs[r - 1] + counts[r - 1];
  }
  first_row = displs[rank];
  my_rows = counts[rank];

  /* {int row; double value}: 12 bytes of data in a 16-byte element. */
  int blocklens[2] = {1, 1};
  MPI_Aint offsets[2] = {offsetof(struct Product, row), offsetof(struct Product, value)};
  MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE}, raw;
  MPI_Type_create_struct(2, blocklens, offsets, types, &raw);
  MPI_Type_create_resized(raw, 0, sizeof(struct Product), &product_type);
  MPI_Type_commit(&product_type);
  MPI_Type_free(&raw);
  mine = malloc(sizeof(struct Product) * (size_t)(my_rows + 1));
  all = malloc(sizeof(struct Product) * (size_t)rows_total);

  double *x = calloc((size_t)my_rows + 1, sizeof(double)), *r = malloc(sizeof(double) * (size_t)(my_rows + 1));
  double *p = malloc(sizeof(double) * (size_t)(my_rows + 1)), *q = malloc(sizeof(double) * (size_t)(my_rows + 1));
  double* full_p = malloc(sizeof(double) * (size_t)rows_total);
  for (int i = 0; i < my_rows; ++i) r[i] = p[i] = 1.0 + (double)((first_row + i) % 5) / 8.0;  /* b */
  double rr = dot(r, r);
  const double b_norm = sqrt(rr);
  uint64_t history = 1469598103934665603ULL;  /* FNV-1a over the bits of every residual norm */
  int iterations = 0;
  for (; iterations < max_iterations; ++iterations) {
    double local_max = 0, max_r = 0;
    for (int i = 0; i < my_rows; ++i) local_max = fmax(local_max, fabs(r[i]));
    MPI_Allreduce(&local_max, &max_r, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (sqrt(rr) <= 1e-10 * b_norm || max_r == 0) break;
    MPI_Allgatherv(p, my_rows, MPI_DOUBLE, full_p, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
    matvec(full_p, q);
    const double alpha = rr / dot(p, q);
    for (int i = 0; i < my_rows; ++i) {
      x[i] += alpha * p[i];
      r[i] -= alpha * q[i];
    }
    const double rr_next = dot(r, r);
    const double beta = rr_next / rr;
    rr = rr_next;
    for (int i = 0; i < my_rows; ++i) p[i] = r[i] + beta * p[i];
    const double norm = sqrt(rr);
    uint64_t bits;
    memcpy(&bits, &norm, sizeof bits);
    history = (history ^ bits) * 1099511628211ULL;
  }
  if (sqrt(rr) > 1e-10 * b_norm) die("did not converge");
  if (rank == 0) {
    printf("cg: %d unknowns, converged in %d iterations, relative residual %.3e, history "
           "checksum %016llx\n", rows_total, iterations, sqrt(rr) / b_norm,
           (unsigned long long)history);
  }
  MPI_Type_free(&product_type);
  free(x);
  free(r);
  free(p);
  free(q);
  free(full_p);
  free(mine);
  free(all);
  free(counts);
  free(displs);
  MPI_Finalize();
  return 0;
}
