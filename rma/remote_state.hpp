// What a window keeps for targets on other nodes (rma/remote.hpp): requests still being sent,
// the targets sent requests or transport puts/gets since their last flush, what targets said
// they refused, and the server of this process's memory.
#pragma once
#include <memory>
#include <set>
#include <vector>

#include "runtime/request.hpp"
#include "runtime/status.hpp"

namespace weft::rma {

class TargetServer;

struct RemoteState {
  struct Pending {
    Request* request;
    std::unique_ptr<unsigned char[]> message;
  };
  RemoteState();
  ~RemoteState();  // in remote.cpp, where TargetServer is complete
  RemoteState(const RemoteState&) = delete;
  RemoteState& operator=(const RemoteState&) = delete;

  std::vector<Pending> sends;
  std::set<int> dirty;      // sent requests (active messages)
  std::set<int> rma_dirty;  // sent transport puts/gets
  // The first refusal a target reported (MPI_ERR_RMA_RANGE) not yet returned by a
  // synchronization call (rma/remote.hpp, take_refusal).
  Status refusal;
  std::unique_ptr<TargetServer> server;
};

}  // namespace weft::rma
