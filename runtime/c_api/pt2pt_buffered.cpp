// Point-to-point chapter, buffered mode: MPI_Buffer_attach and MPI_Buffer_detach in their int and
// large-count (_c) forms (MPI_Bsend/MPI_Ibsend are in runtime/c_api/pt2pt.cpp, MPI_Bsend_init in
// pt2pt_persistent.cpp). Errors tied to no communicator are raised on MPI_COMM_SELF.
#include <climits>
#include <string>

#include "mpi.h"
#include "pt2pt/buffered.hpp"
#include "runtime/c_api/guard.hpp"

using weft::Status;
namespace capi = weft::capi;

namespace {

constexpr MPI_Comm kNoComm = MPI_COMM_SELF;

int attach(const char* fn, void* buffer, MPI_Count size) {
  WEFT_REQUIRE_RUNNING(fn);
  if (size < 0) {
    return capi::report(
        kNoComm, fn,
        Status::error(MPI_ERR_ARG, "invalid size=" + std::to_string(size) + " (must be >= 0)"));
  }
  if (buffer == nullptr && size > 0) {
    return capi::report(
        kNoComm, fn,
        Status::error(MPI_ERR_BUFFER, "invalid buffer=NULL with size=" + std::to_string(size)));
  }
  return capi::report(kNoComm, fn, weft::pt2pt::attach_buffer(buffer, size_t(size)));
}

// `buffer_addr` is a void** in all but name (MPI 4.0 §3.6.1); `max_size` is what *size can hold.
template <typename Size>
int detach(const char* fn, void* buffer_addr, Size* size, MPI_Count max_size) {
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(buffer_addr, "buffer_addr"));
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(size, "size"));
  const size_t attached = weft::pt2pt::attached_size();
  if (attached > size_t(max_size)) {
    return capi::report(
        kNoComm, fn,
        Status::error(MPI_ERR_ARG, "the attached buffer of " + std::to_string(attached) +
                                       " bytes is larger than an int can tell "
                                       "(detach it with MPI_Buffer_detach_c)"));
  }
  void* buffer = nullptr;
  size_t bytes = 0;
  WEFT_CHECK(kNoComm, fn, weft::pt2pt::detach_buffer(&buffer, &bytes));
  *static_cast<void**>(buffer_addr) = buffer;
  *size = Size(bytes);
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int PMPI_Buffer_attach(void* buffer, int size) { return attach("MPI_Buffer_attach", buffer, size); }
int PMPI_Buffer_attach_c(void* buffer, MPI_Count size) {
  return attach("MPI_Buffer_attach_c", buffer, size);
}

int PMPI_Buffer_detach(void* buffer_addr, int* size) {
  return detach("MPI_Buffer_detach", buffer_addr, size, INT_MAX);
}
int PMPI_Buffer_detach_c(void* buffer_addr, MPI_Count* size) {
  return detach("MPI_Buffer_detach_c", buffer_addr, size, LLONG_MAX);
}

}  // extern "C"

// The profiling interface: each MPI_X is a weak alias of PMPI_X (runtime/c_api/guard.hpp).
WEFT_MPI_ALIAS(MPI_Buffer_attach)
WEFT_MPI_ALIAS(MPI_Buffer_attach_c)
WEFT_MPI_ALIAS(MPI_Buffer_detach)
WEFT_MPI_ALIAS(MPI_Buffer_detach_c)
