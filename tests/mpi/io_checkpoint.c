/* Checkpoint/restart through MPI-IO: `io_checkpoint write FILE` stores a distributed 3-D array
 * of doubles (a block per rank from MPI_Dims_create, described by a subarray filetype) with one
 * collective write; `io_checkpoint read FILE` reads it back on any other number of ranks, each
 * its own block of the new decomposition, and checks every value. io_checkpoint.sh runs both. */
#include "io_common.h"

enum { NX = 12, NY = 10, NZ = 8 };

static double value(int x, int y, int z) { return x * 10000.0 + y * 100.0 + z + 0.25; }

/* This rank's block: sizes and starts in each dimension. */
static void block(int rank, int size, int sub[3], int start[3]) {
  int dims[3] = {0, 0, 0}, coords[3];
  const int global[3] = {NX, NY, NZ};
  MPI_Dims_create(size, 3, dims);
  coords[0] = rank / (dims[1] * dims[2]);
  coords[1] = rank / dims[2] % dims[1];
  coords[2] = rank % dims[2];
  for (int d = 0; d < 3; ++d) {
    const int base = global[d] / dims[d], extra = global[d] % dims[d];
    sub[d] = base + (coords[d] < extra ? 1 : 0);
    start[d] = coords[d] * base + (coords[d] < extra ? coords[d] : extra);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  int rank, size;
  world_ring(&rank, &size, NULL, NULL);
  CHECK(argc == 3);
  const int writing = strcmp(argv[1], "write") == 0;
  int sub[3], start[3];
  const int global[3] = {NX, NY, NZ};
  block(rank, size, sub, start);
  MPI_Datatype filetype;
  MPI_Type_create_subarray(3, global, sub, start, MPI_ORDER_C, MPI_DOUBLE, &filetype);
  MPI_Type_commit(&filetype);
  const int n = sub[0] * sub[1] * sub[2];
  double* data = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
  MPI_File fh;
  CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, argv[2],
                          writing ? MPI_MODE_CREATE | MPI_MODE_WRONLY : MPI_MODE_RDONLY,
                          MPI_INFO_NULL, &fh));
  CHECK_MPI(MPI_File_set_view(fh, 0, MPI_DOUBLE, filetype, "native", MPI_INFO_NULL));
  MPI_Status st;
  int at = 0;
  if (writing) {
    for (int x = 0; x < sub[0]; ++x)
      for (int y = 0; y < sub[1]; ++y)
        for (int z = 0; z < sub[2]; ++z)
          data[at++] = value(start[0] + x, start[1] + y, start[2] + z);
    CHECK_MPI(MPI_File_write_all(fh, data, n, MPI_DOUBLE, &st));
  } else {
    CHECK_MPI(MPI_File_read_all(fh, data, n, MPI_DOUBLE, &st));
    for (int x = 0; x < sub[0]; ++x)
      for (int y = 0; y < sub[1]; ++y)
        for (int z = 0; z < sub[2]; ++z) {
          check_context("element (%d,%d,%d) read on %d ranks", start[0] + x, start[1] + y,
                        start[2] + z, size);
          CHECK(data[at++] == value(start[0] + x, start[1] + y, start[2] + z));
        }
  }
  int count = -1;
  MPI_Get_count(&st, MPI_DOUBLE, &count);
  CHECK(count == n);
  CHECK_MPI(MPI_File_close(&fh));
  MPI_Offset expect = (MPI_Offset)NX * NY * NZ * sizeof(double);
  if (rank == 0 && !writing) {
    CHECK_MPI(MPI_File_open(MPI_COMM_SELF, argv[2], MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
    MPI_Offset got = 0;
    CHECK_MPI(MPI_File_get_size(fh, &got));
    CHECK(got == expect);
    CHECK_MPI(MPI_File_close(&fh));
  }
  MPI_Type_free(&filetype);
  free(data);
  MPI_Finalize();
  if (rank == 0) printf("io_checkpoint: %s on %d ranks ok\n", argv[1], size);
  return 0;
}
