// The error handler table and the invocation of a communicator's handler.
#include "runtime/comm/errhandler.hpp"

#include <cstdio>

#include "runtime/errors.hpp"
#include "runtime/world.hpp"

namespace weft {

namespace {
bool is_predefined(MPI_Errhandler handle) {
  return handle == MPI_ERRORS_ARE_FATAL || handle == MPI_ERRORS_RETURN ||
         handle == MPI_ERRORS_ABORT;
}
}  // namespace

MPI_Errhandler ErrhandlerTable::create(MPI_Comm_errhandler_function* fn) {
  const MPI_Errhandler handle = next_++;
  entries_[handle] = Entry{fn, 1};
  return handle;
}

Status ErrhandlerTable::check(MPI_Errhandler handle, const char* arg) const {
  if (is_predefined(handle) || entries_.count(handle) != 0) return Status::success();
  return Status::error(
      MPI_ERR_ERRHANDLER,
      std::string("invalid error handler ") + arg + "=" +
          (handle == MPI_ERRHANDLER_NULL ? "MPI_ERRHANDLER_NULL" : std::to_string(handle)));
}

MPI_Comm_errhandler_function* ErrhandlerTable::function(MPI_Errhandler handle) const {
  auto it = entries_.find(handle);
  return it != entries_.end() ? it->second.fn : nullptr;
}

void ErrhandlerTable::retain(MPI_Errhandler handle) {
  auto it = entries_.find(handle);
  if (it != entries_.end()) ++it->second.refs;
}

void ErrhandlerTable::release(MPI_Errhandler handle) {
  auto it = entries_.find(handle);
  if (it != entries_.end() && --it->second.refs == 0) entries_.erase(it);
}

ErrhandlerTable& errhandlers() {
  static ErrhandlerTable table;
  return table;
}

void errhandler_retain(MPI_Errhandler handler) { errhandlers().retain(handler); }
void errhandler_release(MPI_Errhandler handler) { errhandlers().release(handler); }

void errhandler_replace(MPI_Errhandler* slot, MPI_Errhandler handler) {
  errhandler_retain(handler);
  errhandler_release(*slot);
  *slot = handler;
}

void invoke_errhandler(MPI_Comm comm, MPI_Errhandler handler, int code,
                       const std::string& message) {
  if (handler == MPI_ERRORS_RETURN) return;
  if (MPI_Comm_errhandler_function* fn = errhandlers().function(handler)) {
    MPI_Comm comm_arg = comm;
    int code_arg = code;
    fn(&comm_arg, &code_arg);
    return;
  }
  World& w = world();
  if (w.phase != Phase::kRunning) return;  // no job to end: the caller returns the code
  const int error_class = error_class_of(code);
  std::fprintf(stderr, "weft: rank %d: %s (%s)\n", w.kvs->job().rank, message.c_str(),
               error_class_description(error_class).c_str());
  w.kvs->abort(error_class, message);
}

Status call_errhandler(int handle, MPI_Errhandler handler, const char* fn, int errorcode) {
  if (error_class_of(errorcode) < 0) {
    return Status::error(MPI_ERR_ARG,
                         "invalid errorcode=" + std::to_string(errorcode) + " (not an error code)");
  }
  const std::string message = std::string(fn) + ": error code " + std::to_string(errorcode) +
                              " raised by the application: " + error_string(errorcode);
  invoke_errhandler(handle, handler, errorcode, message);
  return Status::success();
}

}  // namespace weft
