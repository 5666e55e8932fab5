// The GPU extensions: MPIX_Query_cuda_support (Open MPI's spelling) and MPIX_GPU_query_support
// (MPICH's). Both work before MPI_Init too: they look for CUDA then, as MPI_Init would.
#include <string>

#include "gpu/memory.hpp"
#include "mpi.h"
#include "runtime/c_api/guard.hpp"
#include "runtime/config.hpp"

namespace {

constexpr MPI_Comm kNoComm = MPI_COMM_SELF;  // errors go to MPI_COMM_SELF's handler

bool cuda_buffers_accepted() {
  weft::gpu::find_device_memory(weft::setting_value("WEFT_CUDA") != "0");
  return weft::gpu::usable_device_memory() != nullptr;
}

}  // namespace

int PMPIX_Query_cuda_support(void) {
  WEFT_LOCKED_CALL();
  return cuda_buffers_accepted() ? 1 : 0;
}

int PMPIX_GPU_query_support(int gpu_type, int* is_supported) {
  constexpr const char* fn = "MPIX_GPU_query_support";
  WEFT_LOCKED_CALL();
  WEFT_CHECK(kNoComm, fn, weft::capi::check_not_null(is_supported, "is_supported"));
  if (gpu_type != MPIX_GPU_SUPPORT_CUDA && gpu_type != MPIX_GPU_SUPPORT_ZE &&
      gpu_type != MPIX_GPU_SUPPORT_HIP) {
    return weft::capi::report(
        kNoComm, fn,
        weft::Status::error(MPI_ERR_ARG, "invalid gpu_type=" + std::to_string(gpu_type) +
                                             " (MPIX_GPU_SUPPORT_CUDA, _ZE or _HIP)"));
  }
  *is_supported = gpu_type == MPIX_GPU_SUPPORT_CUDA && cuda_buffers_accepted() ? 1 : 0;
  return MPI_SUCCESS;
}

WEFT_MPI_ALIAS(MPIX_Query_cuda_support)
WEFT_MPI_ALIAS(MPIX_GPU_query_support)
