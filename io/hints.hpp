// The I/O hints a file accepts (MPI 4.1 §14.2.8 and the collective-buffering hints ROMIO users
// pass): parsed from MPI_Info values, kept per file, and reported by MPI_File_get_info.
#pragma once
#include <map>
#include <string>

#include "mpi.h"

namespace weft::io {

// enable / disable / automatic, as romio_cb_read and friends take them.
enum class Switch { kEnable, kDisable, kAutomatic };

struct Hints {
  // 4 MiB: an aggregator's two buffers of it (received pieces, file block) stay in cache; on 2
  // cores with a 32 MiB L3, 8 ranks with 512 B pieces read 1.2-1.5x and wrote 1.1-1.3x as fast
  // as with ROMIO's 16 MiB, 8 MiB was no better than 16, 1 MiB varied more (README, MPI-IO).
  long long cb_buffer_size = 4 * 1024 * 1024;
  int cb_nodes = 1;  // aggregators; by default one per core of each node, at most one per rank
  Switch cb_read = Switch::kAutomatic, cb_write = Switch::kAutomatic;
  Switch ds_read = Switch::kAutomatic, ds_write = Switch::kAutomatic;
  // Data sieving's block sizes for independent reads and writes.
  long long ind_rd_buffer_size = 4 * 1024 * 1024, ind_wr_buffer_size = 512 * 1024;
  // The file's stripe size in bytes (0: not given): two-phase I/O aligns its file domains to it.
  long long striping_unit = 0;
  // Accepted and reported, with no effect on a POSIX file system.
  std::map<std::string, std::string> passive;

  // Takes the keys of `info` that it knows (MPI_INFO_NULL: none); values that do not parse are
  // ignored, as the standard asks of hints.
  void update(MPI_Info info);
  // A new info object holding every hint in effect (MPI_File_get_info).
  MPI_Info to_info() const;
};

}  // namespace weft::io
