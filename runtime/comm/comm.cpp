// The communicator table and its predefined entries.
#include "runtime/comm/comm.hpp"

#include <algorithm>
#include <numeric>

namespace weft {

void CommTable::init_predefined(int world_rank, int world_size) {
  clear();
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

void CommTable::clear() {
  comms_.clear();
  retired_.clear();
  context_ids_ = ContextIds();
}

MPI_Comm CommTable::add(std::unique_ptr<Comm> comm) {
  size_t slot = MPI_COMM_SELF + 1;
  while (slot < comms_.size() && comms_[slot] != nullptr) ++slot;
  if (slot == comms_.size()) comms_.emplace_back();
  comm->handle = MPI_Comm(slot);
  comms_[slot] = std::move(comm);
  return MPI_Comm(slot);
}

void CommTable::retire(MPI_Comm handle) {
  std::unique_ptr<Comm> comm = std::move(comms_[size_t(handle)]);
  comm->handle = MPI_COMM_NULL;
  if (comm->ops_in_flight > 0) {
    retired_.push_back(std::move(comm));
  } else {
    destroy(std::move(comm));
  }
}

void CommTable::op_done(Comm* comm) {
  if (--comm->ops_in_flight > 0 || comm->handle != MPI_COMM_NULL) return;
  const auto it = std::find_if(retired_.begin(), retired_.end(),
                               [comm](const std::unique_ptr<Comm>& c) { return c.get() == comm; });
  if (it == retired_.end()) return;
  std::unique_ptr<Comm> done = std::move(*it);
  retired_.erase(it);
  destroy(std::move(done));
}

void CommTable::destroy(std::unique_ptr<Comm> comm) {
  if (comm->internal) return;
  context_ids_.release(comm->context / 2);
  if (comm->local != nullptr) context_ids_.release(comm->local->context / 2);
}

Status invalid_comm(MPI_Comm handle, const char* arg) {
  return Status::error(MPI_ERR_COMM, std::string("invalid communicator ") + arg + "=" +
                                         (handle == MPI_COMM_NULL ? "MPI_COMM_NULL"
                                                                  : std::to_string(handle)));
}

}  // namespace weft
