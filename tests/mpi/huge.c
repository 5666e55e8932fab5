/* One 1 GiB message from rank 0 to rank 1, contents checked (registered at 2 ranks only). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* Never 0, different in every word, so a missing or shifted piece shows. */
static uint64_t pattern(size_t i) { return (uint64_t)(i + 1) * 0x9E3779B97F4A7C15ull; }

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  world_ring(&rank, &size, NULL, NULL);
  CHECK(size >= 2);
  const size_t bytes = (size_t)1 << 30, words = bytes / sizeof(uint64_t);
  if (rank < 2) {
    uint64_t* buf = malloc(bytes);
    CHECK(buf != NULL);
    if (rank == 0) {
      for (size_t i = 0; i < words; ++i) buf[i] = pattern(i);
      MPI_Send(buf, (int)bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
    } else {
      memset(buf, 0, bytes);
      MPI_Status st;
      MPI_Recv(buf, (int)bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, &st);
      int count = -1;
      MPI_Get_count(&st, MPI_BYTE, &count);
      CHECK(count == (int)bytes);
      for (size_t i = 0; i < words; ++i) {
        if (buf[i] != pattern(i)) {
          fprintf(stderr, "1 GiB message corrupted at byte offset %zu\n", i * sizeof(uint64_t));
          CHECK(0);
        }
      }
    }
    free(buf);
  }
  MPI_Finalize();
  return 0;
}
