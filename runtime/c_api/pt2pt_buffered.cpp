// Point-to-point chapter, buffered mode: MPI_Buffer_attach/detach in their int and large-count
// (_c) forms, MPI_Buffer_flush/iflush, and the buffers of one communicator or one session
// (MPI_Comm_ and MPI_Session_attach_buffer, _detach_buffer, _flush_buffer, _iflush_buffer;
// MPI 4.1 §3.6). MPI_Bsend/MPI_Ibsend are in runtime/c_api/pt2pt.cpp, MPI_Bsend_init in
// pt2pt_persistent.cpp. Errors about a buffer go to its communicator or session; the process's
// buffer concerns neither, so its errors are raised on MPI_COMM_SELF.
#include <climits>
#include <string>

#include "mpi.h"
#include "pt2pt/buffered.hpp"
#include "runtime/c_api/guard.hpp"
#include "runtime/c_api/request_status.hpp"
#include "runtime/session/session.hpp"

using weft::Status;
using weft::pt2pt::BufferScope;
namespace capi = weft::capi;

namespace {

constexpr MPI_Comm kNoComm = MPI_COMM_SELF;
constexpr BufferScope::Kind kProcess = BufferScope::Kind::kProcess;
constexpr BufferScope::Kind kComm = BufferScope::Kind::kComm;
constexpr BufferScope::Kind kSession = BufferScope::Kind::kSession;

// Raises `s` from `fn` where errors about `scope`'s buffer go: its communicator, its session, or
// (the process's buffer concerns neither) MPI_COMM_SELF.
int report(BufferScope scope, const char* fn, const Status& s) {
  switch (scope.kind) {
    case kComm:
      return capi::report(scope.handle, fn, s);
    case kSession:
      return capi::report_session(scope.handle, fn, s);
    case kProcess:
      break;
  }
  return capi::report(kNoComm, fn, s);
}

#define WEFT_SCOPE_CHECK(scope, fn, expr)                     \
  do {                                                        \
    ::weft::Status weft_s_ = (expr);                          \
    if (!weft_s_.ok()) return report((scope), (fn), weft_s_); \
  } while (0)

// The scope of a communicator argument, checked.
Status comm_scope(MPI_Comm comm, BufferScope* scope) {
  weft::Comm* c = nullptr;
  WEFT_TRY(capi::comm_arg(comm, "comm", &c));
  *scope = BufferScope::comm(c->handle);
  return Status::success();
}

// The scope of a session argument, checked.
Status session_scope(MPI_Session session, BufferScope* scope) {
  weft::Session* s = nullptr;
  WEFT_TRY(weft::lookup_session(session, "session", &s));
  *scope = BufferScope::session(session);
  return Status::success();
}

// Sets *scope to the buffer `fn` names: the process's, or that of communicator or session
// `handle`, checked (a bad communicator is raised on MPI_COMM_WORLD, a bad session on
// MPI_COMM_SELF). Returns the error code, MPI_SUCCESS once *scope is set.
int scope_arg(const char* fn, BufferScope::Kind kind, int handle, BufferScope* scope) {
  switch (kind) {
    case kComm:
      return capi::report(MPI_COMM_WORLD, fn, comm_scope(handle, scope));
    case kSession:
      return capi::report(kNoComm, fn, session_scope(handle, scope));
    case kProcess:
      break;
  }
  *scope = BufferScope::process();
  return MPI_SUCCESS;
}

Status check_attach(void* buffer, MPI_Count size) {
  if (buffer == MPI_BUFFER_AUTOMATIC) return Status::success();  // the size does not matter
  if (size < 0) {
    return Status::error(MPI_ERR_ARG, "invalid size=" + std::to_string(size) + " (must be >= 0)");
  }
  if (buffer == nullptr && size > 0) {
    return Status::error(MPI_ERR_BUFFER, "invalid buffer=NULL with size=" + std::to_string(size));
  }
  return Status::success();
}

// MPI_Buffer_attach and the _attach_buffer calls of communicators and sessions (`handle` names
// one of `kind`; unused for the process).
int attach(const char* fn, BufferScope::Kind kind, int handle, void* buffer, MPI_Count size) {
  WEFT_REQUIRE_RUNNING(fn);
  BufferScope scope;
  if (int rc = scope_arg(fn, kind, handle, &scope)) return rc;
  WEFT_SCOPE_CHECK(scope, fn, check_attach(buffer, size));
  return report(scope, fn, weft::pt2pt::attach_buffer(scope, buffer, size_t(size < 0 ? 0 : size)));
}

// The _detach calls. `buffer_addr` is a void** in all but name (MPI 4.1 §3.6.1); `max_size` is
// what *size can hold.
template <typename Size>
int detach(const char* fn, BufferScope::Kind kind, int handle, void* buffer_addr, Size* size,
           MPI_Count max_size) {
  WEFT_REQUIRE_RUNNING(fn);
  BufferScope scope;
  if (int rc = scope_arg(fn, kind, handle, &scope)) return rc;
  WEFT_SCOPE_CHECK(scope, fn, capi::check_not_null(buffer_addr, "buffer_addr"));
  WEFT_SCOPE_CHECK(scope, fn, capi::check_not_null(size, "size"));
  const size_t attached = weft::pt2pt::attached_size(scope);
  if (attached > size_t(max_size)) {
    return report(scope, fn,
                  Status::error(MPI_ERR_ARG, "the attached buffer of " + std::to_string(attached) +
                                                 " bytes is larger than an int can tell "
                                                 "(detach it with the _c form)"));
  }
  void* buffer = nullptr;
  size_t bytes = 0;
  WEFT_SCOPE_CHECK(scope, fn, weft::pt2pt::detach_buffer(scope, &buffer, &bytes));
  *static_cast<void**>(buffer_addr) = buffer;
  *size = Size(bytes);
  return MPI_SUCCESS;
}

// The _flush calls: wait until the messages buffered so far are sent.
int flush(const char* fn, BufferScope::Kind kind, int handle) {
  WEFT_REQUIRE_RUNNING(fn);
  BufferScope scope;
  if (int rc = scope_arg(fn, kind, handle, &scope)) return rc;
  weft::pt2pt::flush_buffer(scope);
  return MPI_SUCCESS;
}

// The _iflush calls: the same as a request.
int iflush(const char* fn, BufferScope::Kind kind, int handle, MPI_Request* request) {
  WEFT_REQUIRE_RUNNING(fn);
  BufferScope scope;
  if (int rc = scope_arg(fn, kind, handle, &scope)) return rc;
  WEFT_SCOPE_CHECK(scope, fn, capi::check_not_null(request, "request"));
  const MPI_Comm on = scope.kind == kComm ? scope.handle : kNoComm;
  return capi::start_pooled(on, fn, request, [scope](weft::Request* r) {
    weft::pt2pt::start_flush(scope, r);
    return Status::success();
  });
}

}  // namespace

extern "C" {

int PMPI_Buffer_attach(void* buffer, int size) {
  return attach("MPI_Buffer_attach", kProcess, 0, buffer, size);
}
int PMPI_Buffer_attach_c(void* buffer, MPI_Count size) {
  return attach("MPI_Buffer_attach_c", kProcess, 0, buffer, size);
}
int PMPI_Buffer_detach(void* buffer_addr, int* size) {
  return detach("MPI_Buffer_detach", kProcess, 0, buffer_addr, size, INT_MAX);
}
int PMPI_Buffer_detach_c(void* buffer_addr, MPI_Count* size) {
  return detach("MPI_Buffer_detach_c", kProcess, 0, buffer_addr, size, LLONG_MAX);
}
int PMPI_Buffer_flush(void) { return flush("MPI_Buffer_flush", kProcess, 0); }
int PMPI_Buffer_iflush(MPI_Request* request) {
  return iflush("MPI_Buffer_iflush", kProcess, 0, request);
}

int PMPI_Comm_attach_buffer(MPI_Comm comm, void* buffer, int size) {
  return attach("MPI_Comm_attach_buffer", kComm, comm, buffer, size);
}
int PMPI_Comm_attach_buffer_c(MPI_Comm comm, void* buffer, MPI_Count size) {
  return attach("MPI_Comm_attach_buffer_c", kComm, comm, buffer, size);
}
int PMPI_Comm_detach_buffer(MPI_Comm comm, void* buffer_addr, int* size) {
  return detach("MPI_Comm_detach_buffer", kComm, comm, buffer_addr, size, INT_MAX);
}
int PMPI_Comm_detach_buffer_c(MPI_Comm comm, void* buffer_addr, MPI_Count* size) {
  return detach("MPI_Comm_detach_buffer_c", kComm, comm, buffer_addr, size, LLONG_MAX);
}
int PMPI_Comm_flush_buffer(MPI_Comm comm) { return flush("MPI_Comm_flush_buffer", kComm, comm); }
int PMPI_Comm_iflush_buffer(MPI_Comm comm, MPI_Request* request) {
  return iflush("MPI_Comm_iflush_buffer", kComm, comm, request);
}

int PMPI_Session_attach_buffer(MPI_Session session, void* buffer, int size) {
  return attach("MPI_Session_attach_buffer", kSession, session, buffer, size);
}
int PMPI_Session_attach_buffer_c(MPI_Session session, void* buffer, MPI_Count size) {
  return attach("MPI_Session_attach_buffer_c", kSession, session, buffer, size);
}
int PMPI_Session_detach_buffer(MPI_Session session, void* buffer_addr, int* size) {
  return detach("MPI_Session_detach_buffer", kSession, session, buffer_addr, size, INT_MAX);
}
int PMPI_Session_detach_buffer_c(MPI_Session session, void* buffer_addr, MPI_Count* size) {
  return detach("MPI_Session_detach_buffer_c", kSession, session, buffer_addr, size, LLONG_MAX);
}
int PMPI_Session_flush_buffer(MPI_Session session) {
  return flush("MPI_Session_flush_buffer", kSession, session);
}
int PMPI_Session_iflush_buffer(MPI_Session session, MPI_Request* request) {
  return iflush("MPI_Session_iflush_buffer", kSession, session, request);
}

}  // extern "C"

// The profiling interface: each MPI_X is a weak alias of PMPI_X (runtime/c_api/guard.hpp).
WEFT_MPI_ALIAS(MPI_Buffer_attach)
WEFT_MPI_ALIAS(MPI_Buffer_attach_c)
WEFT_MPI_ALIAS(MPI_Buffer_detach)
WEFT_MPI_ALIAS(MPI_Buffer_detach_c)
WEFT_MPI_ALIAS(MPI_Buffer_flush)
WEFT_MPI_ALIAS(MPI_Buffer_iflush)
WEFT_MPI_ALIAS(MPI_Comm_attach_buffer)
WEFT_MPI_ALIAS(MPI_Comm_attach_buffer_c)
WEFT_MPI_ALIAS(MPI_Comm_detach_buffer)
WEFT_MPI_ALIAS(MPI_Comm_detach_buffer_c)
WEFT_MPI_ALIAS(MPI_Comm_flush_buffer)
WEFT_MPI_ALIAS(MPI_Comm_iflush_buffer)
WEFT_MPI_ALIAS(MPI_Session_attach_buffer)
WEFT_MPI_ALIAS(MPI_Session_attach_buffer_c)
WEFT_MPI_ALIAS(MPI_Session_detach_buffer)
WEFT_MPI_ALIAS(MPI_Session_detach_buffer_c)
WEFT_MPI_ALIAS(MPI_Session_flush_buffer)
WEFT_MPI_ALIAS(MPI_Session_iflush_buffer)
