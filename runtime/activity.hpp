// Work the progress engine drives besides the transport: a nonblocking or blocking collective in
// flight, an MPI_Comm_idup, or the two halves of an MPI_Isendrecv. A request of kind kActivity
// owns one (nonblocking and persistent collectives, MPI_Comm_idup, MPI_Isendrecv).
#pragma once
#include "runtime/status.hpp"

struct weft_request;

namespace weft {

class Activity {
 public:
  virtual ~Activity() = default;
  // Makes what progress it can without blocking; returns how many steps completed.
  virtual unsigned advance() = 0;
  virtual bool finished() const = 0;
  // Whether advance() would now progress on something the transport does not announce (a post
  // in a node region, coll/node_region.hpp): asked, without side effects, after the transport
  // is armed and before the wait blocks.
  virtual bool ready_without_messages() const { return false; }
  // The error it finished with, if any (meaningful once finished).
  virtual Status outcome() const = 0;
  // Runs again from the start (persistent requests, MPI_Start).
  virtual Status restart() = 0;
  // The owning request is released: the activity is deleted, or kept to serve again (a
  // collective's operation goes back to its communicator's cache, coll/call_cache.hpp).
  virtual void release() { delete this; }
  // The receive whose source, tag and size the request's status reports (MPI_Isendrecv); null
  // where the status is empty (collectives, MPI_Comm_idup).
  virtual const ::weft_request* received() const { return nullptr; }
};

}  // namespace weft
