// Persistent point-to-point: a plan per request, started again by every MPI_Start.
#include "pt2pt/persistent.hpp"

#include <memory>

#include "pt2pt/typed.hpp"
#include "runtime/world.hpp"

namespace weft::pt2pt {
namespace {

class PointToPointPlan final : public PersistentPlan {
 public:
  PointToPointPlan(bool send, SendMode mode, const Comm& comm, void* buf, size_t count,
                   const Datatype& type, int peer, int tag)
      : send_(send),
        mode_(mode),
        comm_(comm.handle),
        buf_(buf),
        count_(count),
        type_(type.share()),
        peer_(peer),
        tag_(tag) {}

  Status start(Request* r) override {
    // By handle: the communicator may have been freed since (an error, not a crash).
    Comm* comm = nullptr;
    WEFT_TRY(lookup_comm(world().comms, comm_, "comm", &comm));
    if (send_) return start_typed_send(*comm, buf_, count_, *type_, peer_, tag_, mode_, r);
    return start_typed_recv(*comm, buf_, count_, *type_, peer_, tag_, r);
  }

 private:
  bool send_;
  SendMode mode_;
  MPI_Comm comm_;
  void* buf_;
  size_t count_;
  std::shared_ptr<const Datatype> type_;  // stays valid after MPI_Type_free
  int peer_;
  int tag_;
};

void make_inactive(const Comm& comm, std::unique_ptr<PersistentPlan> plan, Request* r) {
  r->comm = comm.handle;
  r->kind = WeftRequestKind::kProcNull;  // set by each start
  r->persistent = true;
  r->active = false;
  r->completion.done = true;  // inactive until MPI_Start
  r->plan = std::move(plan);
}

}  // namespace

void init_persistent_send(const Comm& comm, const void* buf, size_t count, const Datatype& type,
                          int dest, int tag, SendMode mode, Request* r) {
  make_inactive(comm,
                std::make_unique<PointToPointPlan>(true, mode, comm, const_cast<void*>(buf), count,
                                                   type, dest, tag),
                r);
}

void init_persistent_recv(const Comm& comm, void* buf, size_t count, const Datatype& type,
                          int source, int tag, Request* r) {
  make_inactive(comm,
                std::make_unique<PointToPointPlan>(false, SendMode::kStandard, comm, buf, count,
                                                   type, source, tag),
                r);
}

}  // namespace weft::pt2pt
