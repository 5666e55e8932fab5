// Helpers every extern "C" entry point uses: argument checks that produce Status messages naming
// the argument and value, and report(), which turns a failed Status into an MPI error code and
// invokes the communicator's error handler.
#pragma once
#include "mpi.h"
#include "pt2pt/match_bits.hpp"
#include "runtime/call_lock.hpp"
#include "runtime/comm/comm.hpp"
#include "runtime/status.hpp"
#include "runtime/wait_state.hpp"
#include "runtime/world.hpp"

namespace weft::capi {

// Raises `s` on communicator `comm` from MPI function `fn`; returns the error code to hand back
// (only reached with MPI_ERRORS_RETURN). MPI_SUCCESS when s is ok.
int report(MPI_Comm comm, const char* fn, const Status& s);
// The same on session `session` (through its error handler), or on MPI_COMM_SELF when the
// session is not valid.
int report_session(MPI_Session session, const char* fn, const Status& s);

// require_running's failure, out of line and cold: prints and returns the error code.
[[gnu::cold]] int not_running(const char* fn);
// MPI_SUCCESS when the library is initialised and not finalised; otherwise prints and fails.
inline int require_running(const char* fn) {
  if (world().phase == Phase::kRunning) [[likely]] {
    wait_state::note_call(fn);
    return MPI_SUCCESS;
  }
  return not_running(fn);
}

// The errors of the checks below, out of line and cold so that a check that passes costs a
// compare and a branch in the caller (every communication call makes several).
[[gnu::cold]] Status bad_count(MPI_Count count, const char* arg);
[[gnu::cold]] Status bad_buffer(MPI_Count count, const char* arg);
[[gnu::cold]] Status bad_rank(const Comm& comm, int rank, const char* arg);
[[gnu::cold]] Status bad_tag(int tag, const char* arg);
[[gnu::cold]] Status null_argument(const char* arg);

// Counts are MPI_Count wide so that the int and the large-count (_c) forms share one check.
inline Status check_count(MPI_Count count, const char* arg) {
  if (count >= 0) [[likely]] return Status::success();
  return bad_count(count, arg);
}
inline Status check_buffer(const void* buf, MPI_Count count, const char* arg) {
  if (buf != nullptr || count == 0) [[likely]] return Status::success();
  return bad_buffer(count, arg);
}
// A destination: a rank of `comm` or MPI_PROC_NULL.
inline Status check_dest(const Comm& comm, int rank, const char* arg) {
  if ((rank >= 0 && rank < comm.peer_count()) || rank == MPI_PROC_NULL) [[likely]]
    return Status::success();
  return bad_rank(comm, rank, arg);
}
// A source: a rank of `comm`, MPI_ANY_SOURCE or MPI_PROC_NULL.
inline Status check_source(const Comm& comm, int rank, const char* arg) {
  if ((rank >= 0 && rank < comm.peer_count()) || rank == MPI_PROC_NULL || rank == MPI_ANY_SOURCE)
      [[likely]]
    return Status::success();
  return bad_rank(comm, rank, arg);
}
inline Status check_send_tag(int tag, const char* arg) {
  if (tag >= 0 && tag <= match_bits::kMaxTag) [[likely]] return Status::success();
  return bad_tag(tag, arg);
}
inline Status check_recv_tag(int tag, const char* arg) {
  if (tag == MPI_ANY_TAG) return Status::success();
  return check_send_tag(tag, arg);
}
inline Status check_not_null(const void* p, const char* arg) {
  if (p != nullptr) [[likely]] return Status::success();
  return null_argument(arg);
}
// The communicator behind handle `comm`, or an error naming argument `arg`.
Status comm_arg(MPI_Comm comm, const char* arg, Comm** out);
// The same, and MPI_ERR_COMM for an intercommunicator (for calls defined on intracommunicators
// only: scans, topologies, neighbourhood collectives, windows).
Status intra_comm_arg(MPI_Comm comm, const char* arg, Comm** out);
// MPI_ERR_COMM unless `c` is an intercommunicator.
Status check_inter(const Comm& c, const char* arg);

}  // namespace weft::capi

// Fails the enclosing MPI function through its communicator's error handler.
#define WEFT_CHECK(comm, fn, expr)                                      \
  do {                                                                  \
    ::weft::Status weft_s_ = (expr);                                    \
    if (!weft_s_.ok()) return ::weft::capi::report((comm), (fn), weft_s_); \
  } while (0)

// Fails the enclosing MPI function through its session's error handler.
#define WEFT_SESSION_CHECK(session, fn, expr)                                         \
  do {                                                                                \
    ::weft::Status weft_s_ = (expr);                                                  \
    if (!weft_s_.ok()) return ::weft::capi::report_session((session), (fn), weft_s_); \
  } while (0)

// Holds the call lock (when it is needed) for an entry point that works before MPI_Init or after
// MPI_Finalize too, so skips WEFT_REQUIRE_RUNNING, but reaches process-wide state.
#define WEFT_LOCKED_CALL() ::weft::CallGuard weft_call_guard_

// The profiling interface: every entry point is defined as PMPI_X and exported as MPI_X too,
// MPI_X being a weak alias, so a tool that defines MPI_X (linked in or LD_PRELOADed) replaces
// it and reaches Weft's through PMPI_X.
#define WEFT_MPI_ALIAS(name) \
  extern "C" __typeof__(P##name) name __attribute__((weak, alias("P" #name)));

// Returns early unless MPI is initialised; otherwise holds the call lock (under
// MPI_THREAD_MULTIPLE or while the asynchronous progress thread runs, runtime/call_lock.hpp)
// until the function returns.
#define WEFT_REQUIRE_RUNNING(fn)                                          \
  ::weft::CallGuard weft_call_guard_;                                     \
  do {                                                                    \
    if (int weft_rc_ = ::weft::capi::require_running(fn)) return weft_rc_; \
  } while (0)
