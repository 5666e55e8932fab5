/* MPI-IO shared file pointers and atomic mode: write_ordered lays data out in rank order,
 * write_shared records never overlap and none is lost, read_shared hands each record to exactly
 * one rank, seek_shared/get_position_shared, the nonblocking and split forms; and in atomic mode
 * overlapping strided writers never leave a mix of two writes behind. */
#include "expect_error.h"
#include "io_common.h"

enum { REC = 4, K = 6 }; /* ints per record, records per rank */

static void ordered(MPI_File fh, int rank, int size) {
  int mine[64];
  for (int i = 0; i <= rank; ++i) mine[i] = rank * 100 + i;
  MPI_Status st;
  CHECK_MPI(MPI_File_write_ordered(fh, mine, rank + 1, MPI_INT, &st));
  int n = -1;
  MPI_Get_count(&st, MPI_INT, &n);
  CHECK(n == rank + 1);
  const int total = size * (size + 1) / 2;
  MPI_Offset pos = -1;
  CHECK_MPI(MPI_File_get_position_shared(fh, &pos));
  CHECK(pos == (MPI_Offset)(total * sizeof(int)));
  int* all = malloc(sizeof(int) * (size_t)total);
  CHECK_MPI(MPI_File_read_at_all(fh, 0, all, total, MPI_INT, MPI_STATUS_IGNORE));
  for (int r = 0, at = 0; r < size; ++r)
    for (int i = 0; i <= r; ++i, ++at) CHECK(all[at] == r * 100 + i);
  free(all);
  /* read_ordered gives each rank back its own piece */
  CHECK_MPI(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET));
  int back[64];
  CHECK_MPI(MPI_File_read_ordered(fh, back, rank + 1, MPI_INT, MPI_STATUS_IGNORE));
  check_ints(back, mine, rank + 1, "read_ordered");
  /* and the split form appends in rank order again */
  CHECK_MPI(MPI_File_write_ordered_begin(fh, mine, rank + 1, MPI_INT));
  CHECK_MPI(MPI_File_write_ordered_end(fh, mine, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_File_get_position_shared(fh, &pos));
  CHECK(pos == (MPI_Offset)(2 * total * sizeof(int)));
  CHECK_MPI(MPI_File_seek_shared(fh, -(MPI_Offset)(total * sizeof(int)), MPI_SEEK_END));
  CHECK_MPI(MPI_File_read_ordered_begin(fh, back, rank + 1, MPI_INT));
  CHECK_MPI(MPI_File_read_ordered_end(fh, back, MPI_STATUS_IGNORE));
  check_ints(back, mine, rank + 1, "read_ordered_begin/end");
}

static void shared(MPI_File fh, int rank, int size) {
  CHECK_MPI(MPI_File_set_size(fh, 0));
  CHECK_MPI(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET));
  int rec[REC];
  for (int k = 0; k < K; ++k) {
    for (int i = 0; i < REC; ++i) rec[i] = (rank * K + k) * 10 + i;
    if (k % 2) {
      MPI_Request req;
      CHECK_MPI(MPI_File_iwrite_shared(fh, rec, REC, MPI_INT, &req));
      CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    } else {
      CHECK_MPI(MPI_File_write_shared(fh, rec, REC, MPI_INT, MPI_STATUS_IGNORE));
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Offset bytes = 0;
  CHECK_MPI(MPI_File_get_size(fh, &bytes));
  CHECK(bytes == (MPI_Offset)(size * K * REC * sizeof(int)));
  /* every record whole and each exactly once */
  const int n = size * K;
  int* all = malloc(sizeof(int) * (size_t)(n * REC));
  char* seen = calloc((size_t)n, 1);
  CHECK_MPI(MPI_File_read_at(fh, 0, all, n * REC, MPI_INT, MPI_STATUS_IGNORE));
  for (int r = 0; r < n; ++r) {
    const int id = all[r * REC] / 10;
    CHECK(id >= 0 && id < n && !seen[id]);
    seen[id] = 1;
    for (int i = 0; i < REC; ++i) CHECK(all[r * REC + i] == id * 10 + i);
  }
  /* read_shared: the records are dealt out, none twice */
  CHECK_MPI(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET));
  int mine = 0, got_ids[256];
  for (;;) {
    MPI_Status st;
    MPI_Request req;
    CHECK_MPI(MPI_File_iread_shared(fh, rec, REC, MPI_INT, &req));
    CHECK_MPI(MPI_Wait(&req, &st));
    int c = -1;
    MPI_Get_count(&st, MPI_INT, &c);
    if (c == 0) break;
    CHECK(c == REC && mine < 256);
    got_ids[mine++] = rec[0] / 10;
  }
  int* counts = calloc((size_t)n, sizeof(int));
  for (int i = 0; i < mine; ++i) counts[got_ids[i]] = 1;
  MPI_Allreduce(MPI_IN_PLACE, counts, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  for (int i = 0; i < n; ++i) CHECK(counts[i] == 1);
  free(counts);
  free(all);
  free(seen);
}

/* Everyone writes the same strided region (many pieces per write) with its own value and reads
 * it back; in atomic mode each read sees one writer's value throughout. */
static void atomic_overlap(MPI_File fh, int rank) {
  enum { PIECES = 64, ROUNDS = 20 };
  MPI_Datatype piece, filetype;
  MPI_Type_contiguous(2, MPI_INT, &piece);
  MPI_Type_create_resized(piece, 0, 3 * sizeof(int), &filetype);
  MPI_Type_commit(&filetype);
  CHECK_MPI(MPI_File_set_view(fh, 0, MPI_INT, filetype, "native", MPI_INFO_NULL));
  CHECK_MPI(MPI_File_set_atomicity(fh, 1));
  int buf[2 * PIECES], back[2 * PIECES];
  for (int round = 0; round < ROUNDS; ++round) {
    for (int i = 0; i < 2 * PIECES; ++i) buf[i] = rank * 1000 + round;
    CHECK_MPI(MPI_File_write_at(fh, 0, buf, 2 * PIECES, MPI_INT, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_File_read_at(fh, 0, back, 2 * PIECES, MPI_INT, MPI_STATUS_IGNORE));
    for (int i = 1; i < 2 * PIECES; ++i) {
      check_context("atomic round %d, int %d: %d after %d", round, i, back[i], back[0]);
      CHECK(back[i] == back[0]);
    }
  }
  check_context("%s", "");
  MPI_Type_free(&piece);
  MPI_Type_free(&filetype);
}

int main(int argc, char** argv) {
  char path[300];
  int size;
  const int rank = io_start(&argc, &argv, "shared.dat", path, sizeof path, &size);
  MPI_File fh = io_open_rdwr(path);
  ordered(fh, rank, size);
  shared(fh, rank, size);
  atomic_overlap(fh, rank);
  CHECK_MPI(MPI_File_close(&fh));
  io_finish(rank, "io_shared");
  return 0;
}
