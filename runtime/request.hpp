// MPI requests: a Completion the transport fills plus what MPI needs to report it.
// Nonblocking calls take a request from a free-list pool (no malloc per message); blocking
// calls use one on the stack. Ownership: the pool owns all pooled requests; the application
// holds them between MPI_I* and the completing Wait/Test (or MPI_Request_free). A request of
// kind kActivity owns its Activity (a collective), deleted when the request is released.
#pragma once
#include <memory>
#include <vector>

#include "mpi.h"
#include "pt2pt/transport.hpp"
#include "runtime/activity.hpp"

enum class WeftRequestKind : unsigned char { kSend, kRecv, kProcNull, kActivity };

struct weft_request {
  weft::Completion completion;
  WeftRequestKind kind = WeftRequestKind::kSend;
  bool freed = false;       // MPI_Request_free'd while still active: released once complete
  bool persistent = false;  // MPI_*_init: completing it makes it inactive, MPI_Start restarts it
  bool active = true;       // persistent requests: started and not yet completed by Wait/Test
  MPI_Comm comm = MPI_COMM_NULL;
  weft::Activity* activity = nullptr;  // kActivity: the collective it runs (owned)
  weft_request* next_free = nullptr;
};

namespace weft {

using Request = ::weft_request;

class RequestPool {
 public:
  Request* acquire();
  void release(Request* r);
  // Requests freed by the application while still active; released when they complete.
  void adopt_orphan(Request* r);
  void sweep_orphans();

 private:
  Request* free_ = nullptr;
  std::vector<std::unique_ptr<Request[]>> chunks_;
  std::vector<Request*> orphans_;
};

// Fills an MPI_Status (if not MPI_STATUS_IGNORE) from a completed request.
void fill_status(const Request& r, MPI_Status* status);

}  // namespace weft
