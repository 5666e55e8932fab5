// The communicator table and its predefined entries.
#include "runtime/comm.hpp"

#include <numeric>

namespace weft {

void CommTable::init_predefined(int world_rank, int world_size) {
  comms_.clear();
  comms_.resize(3);
  auto world = std::make_unique<Comm>();
  world->handle = MPI_COMM_WORLD;
  world->name = "MPI_COMM_WORLD";
  world->rank = world_rank;
  world->size = world_size;
  world->world_ranks.resize(size_t(world_size));
  std::iota(world->world_ranks.begin(), world->world_ranks.end(), 0);
  world->context = 0;
  comms_[MPI_COMM_WORLD] = std::move(world);

  auto self = std::make_unique<Comm>();
  self->handle = MPI_COMM_SELF;
  self->name = "MPI_COMM_SELF";
  self->rank = 0;
  self->size = 1;
  self->world_ranks = {world_rank};
  self->context = 2;
  comms_[MPI_COMM_SELF] = std::move(self);
}

Status lookup_comm(CommTable& table, MPI_Comm handle, const char* arg, Comm** out) {
  *out = table.find(handle);
  if (*out != nullptr) return Status::success();
  return Status::error(MPI_ERR_COMM, std::string("invalid communicator ") + arg + "=" +
                                         (handle == MPI_COMM_NULL ? "MPI_COMM_NULL"
                                                                  : std::to_string(handle)));
}

}  // namespace weft
