// Communicators: rank, size, the world ranks behind them, context ids and error handler.
// For now MPI_COMM_WORLD and MPI_COMM_SELF; communicator creation extends the table.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "mpi.h"
#include "runtime/status.hpp"

namespace weft {

struct Comm {
  MPI_Comm handle = MPI_COMM_NULL;
  std::string name;
  int rank = 0;
  int size = 0;
  std::vector<int> world_ranks;  // communicator rank -> world rank
  uint32_t context = 0;          // point-to-point context id; context + 1 carries collectives
  MPI_Errhandler errhandler = MPI_ERRORS_ARE_FATAL;
  uint32_t coll_seq = 0;  // collectives started so far; tags each one's messages

  uint32_t coll_context() const { return context + 1; }
};

class CommTable {
 public:
  void init_predefined(int world_rank, int world_size);
  void clear() { comms_.clear(); }
  // The communicator behind a handle, or nullptr if the handle is not a live communicator.
  Comm* find(MPI_Comm handle) {
    return (handle > 0 && size_t(handle) < comms_.size()) ? comms_[size_t(handle)].get() : nullptr;
  }

 private:
  std::vector<std::unique_ptr<Comm>> comms_;
};

// The communicator for `handle` or MPI_ERR_COMM naming `arg` and the value.
Status lookup_comm(CommTable& table, MPI_Comm handle, const char* arg, Comm** out);

}  // namespace weft
