// The GPU extensions: MPIX_Query_cuda_support (Open MPI's spelling), MPIX_GPU_query_support
// (MPICH's) and Weft's MPIX_Query_cuda_path. They work before MPI_Init too: they look for CUDA
// then, as MPI_Init would.
#include <string>

#include "gpu/memory.hpp"
#include "mpi.h"
#include "runtime/c_api/guard.hpp"
#include "runtime/c_api/out_string.hpp"
#include "runtime/config.hpp"
#include "runtime/world.hpp"

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

int PMPIX_Query_cuda_path(char* path, int* resultlen) {
  constexpr const char* fn = "MPIX_Query_cuda_path";
  WEFT_LOCKED_CALL();
  WEFT_CHECK(kNoComm, fn, weft::capi::check_not_null(path, "path"));
  WEFT_CHECK(kNoComm, fn, weft::capi::check_not_null(resultlen, "resultlen"));
  const std::string& why = weft::gpu::find_device_memory(weft::setting_value("WEFT_CUDA") != "0");
  weft::gpu::DeviceMemory* memory = weft::gpu::device_memory();
  std::string text;
  if (memory == nullptr || !memory->usable()) {
    text = "CUDA buffers: not accepted (" + (memory == nullptr ? why : memory->describe()) + ")";
  } else {
    text = "CUDA buffers: accepted (" + memory->describe() + "); ";
    text += weft::world().phase == weft::Phase::kRunning
                ? weft::world().transport->device_memory_path()
                : std::string("transports: not started");
  }
  weft::capi::copy_out_string(text, path, resultlen, MPIX_MAX_CUDA_PATH_STRING);
  return MPI_SUCCESS;
}

WEFT_MPI_ALIAS(MPIX_Query_cuda_support)
WEFT_MPI_ALIAS(MPIX_Query_cuda_path)
WEFT_MPI_ALIAS(MPIX_GPU_query_support)
