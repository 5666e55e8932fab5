/* MPI-IO data representations: external32 round trips (contiguous and through a strided view
 * with holes) whose bytes on disk are checked to be big-endian; type extents in the file;
 * "internal" and "native"; an unknown name. (Registered ones: io_userrep.c.) */
#include "expect_error.h"
#include "io_common.h"

int main(int argc, char** argv) {
  char path[300];
  int size;
  const int rank = io_start(&argc, &argv, "ext32.dat", path, sizeof path, &size);
  MPI_File fh = io_open_rdwr(path);
  /* contiguous: an int and a double per rank, 12 bytes each in external32 */
  CHECK_MPI(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "external32", MPI_INFO_NULL));
  MPI_Aint extent = 0;
  CHECK_MPI(MPI_File_get_type_extent(fh, MPI_LONG, &extent));
  CHECK(extent == 4);
  const int i = 0x01020304 + rank;
  const double d = 1.0 + rank;
  CHECK_MPI(MPI_File_write_at_all(fh, rank * 12, &i, 1, MPI_INT, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_File_write_at_all(fh, rank * 12 + 4, &d, 1, MPI_DOUBLE, MPI_STATUS_IGNORE));
  MPI_Barrier(MPI_COMM_WORLD);
  int i2 = 0;
  double d2 = 0;
  const int peer = (rank + 1) % size;
  CHECK_MPI(MPI_File_read_at(fh, peer * 12, &i2, 1, MPI_INT, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_File_read_at(fh, peer * 12 + 4, &d2, 1, MPI_DOUBLE, MPI_STATUS_IGNORE));
  CHECK(i2 == 0x01020304 + peer && d2 == 1.0 + peer);
  /* the bytes as they lie on disk: big-endian */
  CHECK_MPI(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
  unsigned char raw[12];
  CHECK_MPI(MPI_File_read_at(fh, rank * 12, raw, 12, MPI_BYTE, MPI_STATUS_IGNORE));
  const unsigned char want_i[4] = {0x01, 0x02, 0x03, (unsigned char)(0x04 + rank)};
  CHECK(memcmp(raw, want_i, 4) == 0);
  unsigned char want_d[8];
  unsigned long long bits;
  memcpy(&bits, &d, 8);
  for (int b = 0; b < 8; ++b) want_d[b] = (unsigned char)(bits >> (56 - 8 * b));
  CHECK(memcmp(raw + 4, want_d, 8) == 0);

  /* strided with holes: each rank's shorts every size-th slot of 3 shorts, the third a hole */
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK_MPI(MPI_File_set_size(fh, 0));
  MPI_Datatype two, filetype;
  MPI_Type_contiguous(2, MPI_SHORT, &two);
  MPI_Type_create_resized(two, 0, 3 * 2 * size, &filetype);
  MPI_Type_commit(&filetype);
  CHECK_MPI(MPI_File_set_view(fh, rank * 6, MPI_SHORT, filetype, "external32", MPI_INFO_NULL));
  short s[8], s2[8];
  for (int k = 0; k < 8; ++k) s[k] = (short)(0x0100 * (rank + 1) + k);
  CHECK_MPI(MPI_File_write_all(fh, s, 8, MPI_SHORT, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_File_seek(fh, 0, MPI_SEEK_SET));
  CHECK_MPI(MPI_File_read_all(fh, s2, 8, MPI_SHORT, MPI_STATUS_IGNORE));
  for (int k = 0; k < 8; ++k) CHECK(s2[k] == s[k]);
  CHECK_MPI(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "internal", MPI_INFO_NULL));
  unsigned char slot[6];
  CHECK_MPI(MPI_File_read_at(fh, rank * 6 + 6 * size, slot, 6, MPI_BYTE, MPI_STATUS_IGNORE));
  CHECK(slot[0] == rank + 1 && slot[1] == 2 && slot[2] == rank + 1 && slot[3] == 3);
  CHECK(slot[4] == 0 && slot[5] == 0); /* a hole */
  MPI_Type_free(&two);
  MPI_Type_free(&filetype);

  EXPECT_ERROR(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "no-such-rep", MPI_INFO_NULL),
               MPI_ERR_UNSUPPORTED_DATAREP, "MPI_File_set_view", "no-such-rep");
  if (sizeof(long) == 8)
    EXPECT_ERROR(MPI_File_set_view(fh, 0, MPI_LONG, MPI_LONG, "external32", MPI_INFO_NULL),
                 MPI_ERR_UNSUPPORTED_DATAREP, "MPI_File_set_view", "external32");
  CHECK_MPI(MPI_File_close(&fh));
  io_finish(rank, "io_datarep");
  return 0;
}
