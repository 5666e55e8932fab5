// The reductions CUDA runs on device memory: one kernel per predefined (op, type), built from
// the same element functors as the host kernels (runtime/op/functors.hpp). Built with CUDA only.
#pragma once
#include <cstddef>

#include "mpi.h"

namespace weft::gpu {

// Launches inout[i] = in[i] op inout[i] for n elements on `stream` (a cudaStream_t; null: the
// legacy default stream) and returns at once: 0, or the cudaError_t of the launch.
using DeviceReduceLaunch = int (*)(const void* in, void* inout, size_t n, void* stream);

// The launcher for a predefined op on a predefined type, or nullptr where there is none (user
// ops, long double, ...): the caller reduces on the host then.
DeviceReduceLaunch device_reduce_launcher(MPI_Op op, MPI_Datatype type);

}  // namespace weft::gpu
