/* Halo exchange with column vectors on a ring of ranks: blocking (MPI_Sendrecv) and nonblocking
 * (Irecv/Isend/Waitall) exchanges of non-contiguous columns, two columns at once with a resized
 * column type, a receive whose type is freed while it is pending, and a receive freed with
 * MPI_Request_free that still lands. */
#include "check.h"

enum { ROWS = 6, COLS = 5, WIDE = COLS + 2 };

static double value(int rank, int row, int col) { return rank * 1000.0 + row * 10.0 + col; }

static void fill(double a[ROWS][WIDE], int rank) {
  for (int i = 0; i < ROWS; ++i)
    for (int j = 0; j < WIDE; ++j) a[i][j] = (j == 0 || j == WIDE - 1) ? -1.0 : value(rank, i, j);
}

/* After an exchange the ghost columns hold the neighbours' edge columns. */
static void check_ghosts(double a[ROWS][WIDE], int left, int right) {
  for (int i = 0; i < ROWS; ++i) {
    CHECK(a[i][0] == value(left, i, COLS));
    CHECK(a[i][WIDE - 1] == value(right, i, 1));
    for (int j = 1; j <= COLS; ++j) CHECK(a[i][j] != -1.0);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  int rank, size, left, right;
  world_ring(&rank, &size, &left, &right);
  double a[ROWS][WIDE];
  MPI_Datatype column;
  CHECK_MPI(MPI_Type_vector(ROWS, 1, WIDE, MPI_DOUBLE, &column));
  CHECK_MPI(MPI_Type_commit(&column));

  check_context("MPI_Sendrecv of columns");
  fill(a, rank);
  CHECK_MPI(MPI_Sendrecv(&a[0][1], 1, column, left, 1, &a[0][WIDE - 1], 1, column, right, 1,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Sendrecv(&a[0][COLS], 1, column, right, 2, &a[0][0], 1, column, left, 2,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  check_ghosts(a, left, right);

  check_context("Irecv/Isend/Waitall of columns");
  fill(a, rank);
  MPI_Request reqs[4];
  CHECK_MPI(MPI_Irecv(&a[0][0], 1, column, left, 3, MPI_COMM_WORLD, &reqs[0]));
  CHECK_MPI(MPI_Irecv(&a[0][WIDE - 1], 1, column, right, 4, MPI_COMM_WORLD, &reqs[1]));
  CHECK_MPI(MPI_Isend(&a[0][COLS], 1, column, right, 3, MPI_COMM_WORLD, &reqs[2]));
  CHECK_MPI(MPI_Isend(&a[0][1], 1, column, left, 4, MPI_COMM_WORLD, &reqs[3]));
  MPI_Status sts[4];
  CHECK_MPI(MPI_Waitall(4, reqs, sts));
  check_ghosts(a, left, right);
  int count = -1;
  CHECK_MPI(MPI_Get_count(&sts[0], column, &count));
  CHECK(count == 1);
  CHECK_MPI(MPI_Get_elements(&sts[0], column, &count));
  CHECK(count == ROWS);

  check_context("two columns at once with a resized column type");
  MPI_Datatype columns;
  CHECK_MPI(MPI_Type_create_resized(column, 0, sizeof(double), &columns));
  CHECK_MPI(MPI_Type_commit(&columns));
  fill(a, rank);
  double edge[2][ROWS];
  CHECK_MPI(MPI_Sendrecv(&a[0][COLS - 1], 2, columns, right, 5, edge, 2 * ROWS, MPI_DOUBLE, left,
                         5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  for (int c = 0; c < 2; ++c)
    for (int i = 0; i < ROWS; ++i) CHECK(edge[c][i] == value(left, i, COLS - 1 + c));

  check_context("a receive whose datatype is freed while it is pending");
  fill(a, rank);
  MPI_Datatype doomed;
  CHECK_MPI(MPI_Type_dup(column, &doomed));
  CHECK_MPI(MPI_Type_commit(&doomed));
  CHECK_MPI(MPI_Irecv(&a[0][0], 1, doomed, left, 6, MPI_COMM_WORLD, &reqs[0]));
  CHECK_MPI(MPI_Type_free(&doomed));
  CHECK(doomed == MPI_DATATYPE_NULL);
  CHECK_MPI(MPI_Send(&a[0][COLS], 1, column, right, 6, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Wait(&reqs[0], MPI_STATUS_IGNORE));
  for (int i = 0; i < ROWS; ++i) CHECK(a[i][0] == value(left, i, COLS));

  check_context("a receive freed with MPI_Request_free lands once it completes");
  fill(a, rank);
  CHECK_MPI(MPI_Irecv(&a[0][0], 1, column, left, 7, MPI_COMM_WORLD, &reqs[0]));
  CHECK_MPI(MPI_Request_free(&reqs[0]));
  CHECK_MPI(MPI_Send(&a[0][COLS], 1, column, right, 7, MPI_COMM_WORLD));
  int token = 0;  /* sent after the column, so matched after it */
  CHECK_MPI(MPI_Sendrecv(&token, 1, MPI_INT, right, 8, &token, 1, MPI_INT, left, 8, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE));
  /* Its completion is noticed by progress; drive it a bounded while. */
  const double start = MPI_Wtime();
  while (a[ROWS - 1][0] != value(left, ROWS - 1, COLS) && MPI_Wtime() - start < 10) {
    int flag;
    MPI_Iprobe(MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
  }
  for (int i = 0; i < ROWS; ++i) CHECK(a[i][0] == value(left, i, COLS));

  CHECK_MPI(MPI_Type_free(&columns));
  CHECK_MPI(MPI_Type_free(&column));
  MPI_Finalize();
  return 0;
}
