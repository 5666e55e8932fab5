// Error handlers: the three predefined ones and user handlers from MPI_Comm_create_errhandler,
// reference-counted so that a handler freed by the user lives on while a communicator uses it;
// and the invocation of a communicator's handler when an error is raised on it.
// Threads: used under the call lock only (runtime/call_lock.hpp), so the table takes no lock.
#pragma once
#include <map>
#include <string>

#include "mpi.h"
#include "runtime/status.hpp"

namespace weft {

class ErrhandlerTable {
 public:
  // A new user handler holding one reference: the handle given to the user.
  MPI_Errhandler create(MPI_Comm_errhandler_function* fn);
  // A predefined handler or a live user handler; otherwise MPI_ERR_ERRHANDLER (MPI 4.1) naming
  // `arg` and the value.
  Status check(MPI_Errhandler handle, const char* arg) const;
  // The function of a user handler; nullptr for a predefined or unknown handle.
  MPI_Comm_errhandler_function* function(MPI_Errhandler handle) const;
  // One more / one fewer reference (a handle held by the user, or a communicator using it). The
  // last release erases a user handler; predefined handlers are never erased.
  void retain(MPI_Errhandler handle);
  void release(MPI_Errhandler handle);
  size_t user_handlers() const { return entries_.size(); }

 private:
  struct Entry {
    MPI_Comm_errhandler_function* fn;
    int refs;
  };
  std::map<MPI_Errhandler, Entry> entries_;
  MPI_Errhandler next_ = MPI_ERRORS_ABORT + 1;
};

// The process-wide table.
ErrhandlerTable& errhandlers();

// Hooks for communicator creation and free (runtime/comm/): a new communicator takes its
// handler from the communicator it comes from and calls errhandler_retain on it; a freed
// communicator calls errhandler_release on its handler.
void errhandler_retain(MPI_Errhandler handler);
void errhandler_release(MPI_Errhandler handler);
// MPI_*_set_errhandler's part: `*slot` (a communicator's, window's, file's or session's handler)
// becomes `handler`, which is retained, and the handler it held is released.
void errhandler_replace(MPI_Errhandler* slot, MPI_Errhandler handler);

// Raises error `code` on `comm`, whose handler is `handler`: a user handler is called with
// (&comm, &code) and returns; MPI_ERRORS_RETURN does nothing; MPI_ERRORS_ARE_FATAL and
// MPI_ERRORS_ABORT (whose communicator's processes are the whole job) print `message` and end
// the job with the code's class as exit code.
void invoke_errhandler(MPI_Comm comm, MPI_Errhandler handler, int code, const std::string& message);

// MPI_Comm/Win/Session_call_errhandler's work from MPI function `fn`: raises the application's
// `errorcode` on the object `handle` whose handler is `handler`; MPI_ERR_ARG when `errorcode` is
// not an error code.
Status call_errhandler(int handle, MPI_Errhandler handler, const char* fn, int errorcode);

}  // namespace weft
