// MPI requests: a Completion the transport fills plus what MPI needs to report it.
// Nonblocking calls take a request from a free-list pool (no malloc per message); blocking
// calls use one on the stack. Ownership: the pool owns all pooled requests; the application
// holds them between MPI_I* and the completing Wait/Test (or MPI_Request_free). A request of
// kind kActivity owns its Activity (a collective), released (Activity::release) with the request. A
// point-to-point request with a non-contiguous datatype owns its Staging: the packed copy a send
// goes out from, or the bytes a receive lands in until it is unpacked on completion. A persistent
// point-to-point request owns its PersistentPlan, deleted when the request is released. A
// generalized request (MPI_Grequest_start) holds the application's callbacks.
#pragma once
#include <memory>
#include <vector>

#include "mpi.h"
#include "pt2pt/transport.hpp"
#include "runtime/activity.hpp"

namespace weft {
class Datatype;

// Packed bytes standing in for a non-contiguous user buffer. For a receive, `type`, `user_buf`
// and `count` say where to unpack them once the message is in.
struct Staging {
  std::unique_ptr<unsigned char[]> packed;
  std::shared_ptr<const Datatype> type;  // receives only; keeps a freed type alive
  void* user_buf = nullptr;
  size_t count = 0;
};
}  // namespace weft

struct weft_request;

namespace weft {
// What MPI_Start does for a persistent point-to-point request (MPI_Send_init, MPI_Recv_init...):
// start one more round of its operation into the request (pt2pt/persistent.hpp). A persistent
// collective restarts its Activity instead.
class PersistentPlan {
 public:
  virtual ~PersistentPlan() = default;
  virtual Status start(::weft_request* r) = 0;
};
}  // namespace weft

namespace weft {
// The callbacks and state of a generalized request (MPI 4.1 §13.2): the application completes it
// with MPI_Grequest_complete; runtime/generalized_request.hpp calls the callbacks.
struct GeneralizedCallbacks {
  MPI_Grequest_query_function* query = nullptr;
  MPI_Grequest_free_function* free = nullptr;
  MPI_Grequest_cancel_function* cancel = nullptr;
  void* extra_state = nullptr;
};
}  // namespace weft

enum class WeftRequestKind : unsigned char { kSend, kRecv, kProcNull, kActivity, kGeneralized };

struct weft_request {
  weft::Completion completion;
  WeftRequestKind kind = WeftRequestKind::kSend;
  bool freed = false;       // MPI_Request_free'd while still active: released once complete
  bool persistent = false;  // MPI_*_init: completing it makes it inactive, MPI_Start restarts it
  bool active = true;       // persistent requests: started and not yet completed by Wait/Test
  bool has_fint = false;    // given an integer by MPI_Request_c2f (runtime/fortran_handles.hpp)
  // MPIX_Isend/Irecv_enqueue's (kGeneralized, runtime/streams/): only MPIX_Wait(all)_enqueue
  // may complete it, at its place in the stream; the other calls refuse it.
  bool stream_ordered = false;
  MPI_Comm comm = MPI_COMM_NULL;
  // A file access's request (kGeneralized, from io/): errors at its completion go to the file's
  // error handler (runtime/c_api/request_status.hpp), not to comm's.
  MPI_File file = MPI_FILE_NULL;
  weft::Activity* activity = nullptr;          // kActivity: the collective it runs (owned)
  std::unique_ptr<weft::PersistentPlan> plan;  // persistent point-to-point only
  std::unique_ptr<weft::Staging> staging;      // non-contiguous datatypes only
  std::unique_ptr<weft::GeneralizedCallbacks> generalized;  // kGeneralized only
  weft_request* next_free = nullptr;
};

namespace weft {

using Request = ::weft_request;

class RequestPool {
 public:
  Request* acquire();
  // Returns `r` to the pool; a completed staged receive is unpacked into its buffer first.
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
// The same for the completion of a receive (fill_status of a receive request uses it).
void fill_received_status(const Completion& c, MPI_Status* status);

// Unpacks the received bytes of a completed, uncancelled staged receive into the user's buffer
// and drops the staging (also the packed copy of a send). Harmless on any other request.
void deliver_staged(Request* r);

}  // namespace weft
