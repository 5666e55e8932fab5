// Argument checks and error reporting at the C boundary.
#include "runtime/c_api/guard.hpp"

#include <cstdio>
#include <string>

#include "pt2pt/match_bits.hpp"
#include "runtime/comm/errhandler.hpp"
#include "runtime/errors.hpp"
#include "runtime/session/session.hpp"
#include "runtime/wait_state.hpp"

namespace weft::capi {

int report(MPI_Comm comm, const char* fn, const Status& s) {
  if (s.ok()) return MPI_SUCCESS;
  const std::string message = std::string(fn) + ": " + s.message;
  const int code = make_error_code(s.error_class, message);
  World& w = world();
  if (w.phase != Phase::kRunning) return code;
  const Comm* c = w.comms.find(comm);
  if (c == nullptr) c = w.comms.find(MPI_COMM_WORLD);  // errors with no valid communicator
  if (c == nullptr) return code;
  invoke_errhandler(c->handle, c->errhandler, code, message);
  return code;
}

int report_session(MPI_Session session, const char* fn, const Status& s) {
  if (s.ok()) return MPI_SUCCESS;
  const Session* found = sessions().find(session);
  if (found == nullptr) return report(MPI_COMM_SELF, fn, s);
  const std::string message = std::string(fn) + ": " + s.message;
  const int code = make_error_code(s.error_class, message);
  invoke_errhandler(session, found->errhandler, code, message);
  return code;
}

int not_running(const char* fn) {
  const char* when = world().phase == Phase::kBeforeInit ? "before MPI_Init" : "after MPI_Finalize";
  std::fprintf(stderr, "weft: %s called %s\n", fn, when);
  return make_error_code(MPI_ERR_OTHER, std::string(fn) + ": called " + when);
}

Status bad_count(MPI_Count count, const char* arg) {
  return Status::error(MPI_ERR_COUNT, std::string("invalid count ") + arg + "=" +
                                          std::to_string(count) + " (must be >= 0)");
}

Status bad_buffer(MPI_Count count, const char* arg) {
  return Status::error(MPI_ERR_BUFFER, std::string("invalid buffer ") + arg + "=NULL with count " +
                                           std::to_string(count));
}

Status bad_rank(const Comm& comm, int rank, const char* arg) {
  return Status::error(MPI_ERR_RANK,
                       std::string("invalid rank ") + arg + "=" + std::to_string(rank) + " (" +
                           comm.display_name() + " has " + std::to_string(comm.peer_count()) +
                           (comm.is_inter() ? " ranks in its remote group)" : " ranks)"));
}

Status bad_tag(int tag, const char* arg) {
  return Status::error(MPI_ERR_TAG, std::string("invalid tag ") + arg + "=" + std::to_string(tag) +
                                        " (must be in 0.." + std::to_string(match_bits::kMaxTag) +
                                        ")");
}

Status null_argument(const char* arg) {
  return Status::error(MPI_ERR_ARG, std::string("invalid argument ") + arg + "=NULL");
}

Status comm_arg(MPI_Comm comm, const char* arg, Comm** out) {
  return lookup_comm(world().comms, comm, arg, out);
}

Status intra_comm_arg(MPI_Comm comm, const char* arg, Comm** out) {
  WEFT_TRY(lookup_comm(world().comms, comm, arg, out));
  if (!(*out)->is_inter()) return Status::success();
  return Status::error(MPI_ERR_COMM, std::string("invalid communicator ") + arg + "=" +
                                         (*out)->display_name() +
                                         ": an intercommunicator (this function takes "
                                         "intracommunicators only)");
}

Status check_inter(const Comm& c, const char* arg) {
  if (c.is_inter()) return Status::success();
  return Status::error(MPI_ERR_COMM, std::string("invalid communicator ") + arg + "=" +
                                         c.display_name() +
                                         ": an intracommunicator (this function takes "
                                         "intercommunicators only)");
}

}  // namespace weft::capi
