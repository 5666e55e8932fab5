// Point-to-point chapter, buffered mode: MPI_Buffer_attach/detach in their int and large-count
// (_c) forms, MPI_Buffer_flush/iflush, and the buffers of one communicator (MPI_Comm_attach_buffer,
// _detach_buffer, _flush_buffer, _iflush_buffer; MPI 4.1 §3.6). MPI_Bsend/MPI_Ibsend are in
// runtime/c_api/pt2pt.cpp, MPI_Bsend_init in pt2pt_persistent.cpp. Errors about the process's
// buffer concern no communicator and are raised on MPI_COMM_SELF.
#include <climits>
#include <string>

#include "mpi.h"
#include "pt2pt/buffered.hpp"
#include "runtime/c_api/guard.hpp"
#include "runtime/c_api/request_status.hpp"

using weft::Status;
using weft::pt2pt::BufferScope;
using weft::pt2pt::kProcessBuffer;
namespace capi = weft::capi;

namespace {

constexpr MPI_Comm kNoComm = MPI_COMM_SELF;

// Where errors about `scope`'s buffer are raised.
MPI_Comm error_comm(BufferScope scope) { return scope == kProcessBuffer ? kNoComm : scope; }

// The scope of a communicator argument, checked.
Status comm_scope(MPI_Comm comm, BufferScope* scope) {
  weft::Comm* c = nullptr;
  WEFT_TRY(capi::comm_arg(comm, "comm", &c));
  *scope = c->handle;
  return Status::success();
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

int attach(const char* fn, BufferScope scope, void* buffer, MPI_Count size) {
  WEFT_CHECK(error_comm(scope), fn, check_attach(buffer, size));
  return capi::report(error_comm(scope), fn,
                      weft::pt2pt::attach_buffer(scope, buffer, size_t(size < 0 ? 0 : size)));
}

int attach_process(const char* fn, void* buffer, MPI_Count size) {
  WEFT_REQUIRE_RUNNING(fn);
  return attach(fn, kProcessBuffer, buffer, size);
}

int attach_comm(const char* fn, MPI_Comm comm, void* buffer, MPI_Count size) {
  WEFT_REQUIRE_RUNNING(fn);
  BufferScope scope = kProcessBuffer;
  WEFT_CHECK(MPI_COMM_WORLD, fn, comm_scope(comm, &scope));
  return attach(fn, scope, buffer, size);
}

// `buffer_addr` is a void** in all but name (MPI 4.1 §3.6.1); `max_size` is what *size can hold.
template <typename Size>
int detach(const char* fn, BufferScope scope, void* buffer_addr, Size* size, MPI_Count max_size) {
  const MPI_Comm on = error_comm(scope);
  WEFT_CHECK(on, fn, capi::check_not_null(buffer_addr, "buffer_addr"));
  WEFT_CHECK(on, fn, capi::check_not_null(size, "size"));
  const size_t attached = weft::pt2pt::attached_size(scope);
  if (attached > size_t(max_size)) {
    return capi::report(
        on, fn,
        Status::error(MPI_ERR_ARG, "the attached buffer of " + std::to_string(attached) +
                                       " bytes is larger than an int can tell "
                                       "(detach it with the _c form)"));
  }
  void* buffer = nullptr;
  size_t bytes = 0;
  WEFT_CHECK(on, fn, weft::pt2pt::detach_buffer(scope, &buffer, &bytes));
  *static_cast<void**>(buffer_addr) = buffer;
  *size = Size(bytes);
  return MPI_SUCCESS;
}

template <typename Size>
int detach_process(const char* fn, void* buffer_addr, Size* size, MPI_Count max_size) {
  WEFT_REQUIRE_RUNNING(fn);
  return detach(fn, kProcessBuffer, buffer_addr, size, max_size);
}

template <typename Size>
int detach_comm(const char* fn, MPI_Comm comm, void* buffer_addr, Size* size, MPI_Count max_size) {
  WEFT_REQUIRE_RUNNING(fn);
  BufferScope scope = kProcessBuffer;
  WEFT_CHECK(MPI_COMM_WORLD, fn, comm_scope(comm, &scope));
  return detach(fn, scope, buffer_addr, size, max_size);
}

int iflush(const char* fn, BufferScope scope, MPI_Request* request) {
  WEFT_CHECK(error_comm(scope), fn, capi::check_not_null(request, "request"));
  return capi::start_pooled(error_comm(scope), fn, request, [scope](weft::Request* r) {
    weft::pt2pt::start_flush(scope, r);
    return Status::success();
  });
}

}  // namespace

extern "C" {

int PMPI_Buffer_attach(void* buffer, int size) {
  return attach_process("MPI_Buffer_attach", buffer, size);
}
int PMPI_Buffer_attach_c(void* buffer, MPI_Count size) {
  return attach_process("MPI_Buffer_attach_c", buffer, size);
}

int PMPI_Buffer_detach(void* buffer_addr, int* size) {
  return detach_process("MPI_Buffer_detach", buffer_addr, size, INT_MAX);
}
int PMPI_Buffer_detach_c(void* buffer_addr, MPI_Count* size) {
  return detach_process("MPI_Buffer_detach_c", buffer_addr, size, LLONG_MAX);
}

int PMPI_Buffer_flush(void) {
  WEFT_REQUIRE_RUNNING("MPI_Buffer_flush");
  weft::pt2pt::flush_buffer(kProcessBuffer);
  return MPI_SUCCESS;
}

int PMPI_Buffer_iflush(MPI_Request* request) {
  constexpr const char* fn = "MPI_Buffer_iflush";
  WEFT_REQUIRE_RUNNING(fn);
  return iflush(fn, kProcessBuffer, request);
}

int PMPI_Comm_attach_buffer(MPI_Comm comm, void* buffer, int size) {
  return attach_comm("MPI_Comm_attach_buffer", comm, buffer, size);
}
int PMPI_Comm_attach_buffer_c(MPI_Comm comm, void* buffer, MPI_Count size) {
  return attach_comm("MPI_Comm_attach_buffer_c", comm, buffer, size);
}

int PMPI_Comm_detach_buffer(MPI_Comm comm, void* buffer_addr, int* size) {
  return detach_comm("MPI_Comm_detach_buffer", comm, buffer_addr, size, INT_MAX);
}
int PMPI_Comm_detach_buffer_c(MPI_Comm comm, void* buffer_addr, MPI_Count* size) {
  return detach_comm("MPI_Comm_detach_buffer_c", comm, buffer_addr, size, LLONG_MAX);
}

int PMPI_Comm_flush_buffer(MPI_Comm comm) {
  constexpr const char* fn = "MPI_Comm_flush_buffer";
  WEFT_REQUIRE_RUNNING(fn);
  BufferScope scope = kProcessBuffer;
  WEFT_CHECK(MPI_COMM_WORLD, fn, comm_scope(comm, &scope));
  weft::pt2pt::flush_buffer(scope);
  return MPI_SUCCESS;
}

int PMPI_Comm_iflush_buffer(MPI_Comm comm, MPI_Request* request) {
  constexpr const char* fn = "MPI_Comm_iflush_buffer";
  WEFT_REQUIRE_RUNNING(fn);
  BufferScope scope = kProcessBuffer;
  WEFT_CHECK(MPI_COMM_WORLD, fn, comm_scope(comm, &scope));
  return iflush(fn, scope, request);
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
