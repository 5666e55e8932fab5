/* Counts beyond INT_MAX through the large-count (_c) forms, between ranks 0 and 1: one message of
 * 2^31 + 8 bytes (MPI_Send_c/MPI_Recv_c, MPI_BYTE), whose status gives that count through
 * MPI_Get_count_c and MPI_UNDEFINED through MPI_Get_count, then an MPI_Bcast_c of the same size.
 * Memory: one such buffer on each of the two ranks, about 4.3 GB in all. The buffers ask for
 * transparent huge pages: on the development VMs, faulting 2 GiB in 4 KiB pages took 6 s, and a
 * send from untouched pages 8 s, against 0.2 s each with huge pages and the pages written first. */
#include <limits.h>
#include <stdint.h>
#include <sys/mman.h>

#include "check.h"

static const MPI_Count kBytes = ((MPI_Count)1 << 31) + 8;

static uint64_t pattern(size_t word, int round) {
  return ((uint64_t)word + 1) * 0x9E3779B97F4A7C15ull + (uint64_t)round;
}

static uint64_t* map_buffer(void) {
  void* p = mmap(NULL, (size_t)kBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  CHECK(p != MAP_FAILED);
  (void)madvise(p, (size_t)kBytes, MADV_HUGEPAGE); /* a hint: fine where refused */
  return p;
}

static void fill(uint64_t* buf, int round) {
  const size_t words = (size_t)kBytes / sizeof(uint64_t);
  for (size_t w = 0; w < words; ++w) buf[w] = pattern(w, round);
}

static void check_all(const uint64_t* buf, int round) {
  const size_t words = (size_t)kBytes / sizeof(uint64_t);
  for (size_t w = 0; w < words; ++w) {
    if (buf[w] != pattern(w, round)) {
      fprintf(stderr, "round %d: word %zu (byte %zu) is %llx, expected %llx\n", round, w,
              w * sizeof(uint64_t), (unsigned long long)buf[w],
              (unsigned long long)pattern(w, round));
      CHECK(0);
    }
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  int rank, size;
  world_ring(&rank, &size, NULL, NULL);
  CHECK(size >= 2);
  MPI_Comm pair;
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank < 2 ? 0 : MPI_UNDEFINED, rank, &pair));
  if (rank < 2) {
    CHECK(kBytes > INT_MAX);
    uint64_t* buf = map_buffer();
    check_context("MPI_Send_c/MPI_Recv_c of %lld bytes", kBytes);
    if (rank == 0) {
      fill(buf, 1);
      CHECK_MPI(MPI_Send_c(buf, kBytes, MPI_BYTE, 1, 7, pair));
    } else {
      MPI_Status st;
      CHECK_MPI(MPI_Recv_c(buf, kBytes, MPI_BYTE, 0, 7, pair, &st));
      MPI_Count count = -1;
      CHECK_MPI(MPI_Get_count_c(&st, MPI_BYTE, &count));
      CHECK(count == kBytes);
      int narrow = 0;
      CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &narrow));
      CHECK(narrow == MPI_UNDEFINED);
      CHECK_MPI(MPI_Get_elements_c(&st, MPI_BYTE, &count));
      CHECK(count == kBytes);
      check_all(buf, 1);
    }
    check_context("MPI_Bcast_c of %lld bytes", kBytes);
    if (rank == 0) fill(buf, 2);
    CHECK_MPI(MPI_Bcast_c(buf, kBytes, MPI_BYTE, 0, pair));
    if (rank == 1) check_all(buf, 2);
    CHECK(munmap(buf, (size_t)kBytes) == 0);
    CHECK_MPI(MPI_Comm_free(&pair));
  }
  MPI_Finalize();
  return 0;
}
