// The CUDA reduction kernels: every (op, type) of runtime/op/kernel_table.hpp, run as a
// grid-stride loop of the element functors the host kernels run (runtime/op/functors.hpp), plus
// MPI_REPLACE and MPI_NO_OP. Built with --fmad=false (gpu/CMakeLists.txt): a fused multiply-add
// would round the complex product differently from the host.
#include "gpu/device_reduce.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <complex>
#include <cstdint>

#include "runtime/datatype/predefined.hpp"
#include "runtime/op/kernel_table.hpp"

namespace weft::gpu {
namespace {

constexpr unsigned kThreadsPerBlock = 256;
// Enough blocks to fill an H100 several times over; larger inputs take more turns of the loop.
constexpr size_t kMaxBlocks = 4096;

unsigned blocks_for(size_t n) {
  return unsigned(std::min((n + kThreadsPerBlock - 1) / kThreadsPerBlock, kMaxBlocks));
}

cudaStream_t as_stream(void* stream) { return static_cast<cudaStream_t>(stream); }

// How the device holds a host element type: std::complex has no device code, and the device
// has no long double (nvcc would take it for double), so nothing of it reduces here.
template <typename T>
struct DeviceElement {
  using type = T;
};
template <typename T>
struct DeviceElement<std::complex<T>> {
  using type = Complex<T>;
  static_assert(sizeof(Complex<T>) == sizeof(std::complex<T>) &&
                alignof(Complex<T>) == alignof(std::complex<T>));
};
template <typename T>
constexpr bool kOnDevice = true;
template <>
constexpr bool kOnDevice<long double> = false;
template <>
constexpr bool kOnDevice<std::complex<long double>> = false;

template <typename T, typename F>
__global__ void elementwise_kernel(const T* __restrict__ in, T* __restrict__ inout, size_t n) {
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    inout[i] = F::apply(in[i], inout[i]);
}

template <typename V, typename I, typename F>
__global__ void packed_pairs_kernel(const unsigned char* __restrict__ in,
                                    unsigned char* __restrict__ inout, size_t n) {
  constexpr size_t kStride = sizeof(V) + sizeof(I);
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    reduce_packed_pair<V, I, F>(in + i * kStride, inout + i * kStride);
}

// A launch with no blocks is an error, so n == 0 launches nothing.
template <typename T, typename F>
int launch_elementwise(const void* in, void* inout, size_t n, void* stream) {
  if (n == 0) return cudaSuccess;
  elementwise_kernel<T, F><<<blocks_for(n), kThreadsPerBlock, 0, as_stream(stream)>>>(
      static_cast<const T*>(in), static_cast<T*>(inout), n);
  return int(cudaGetLastError());
}

// Pairs without padding are the C struct itself, read as one when both buffers are aligned for
// it; otherwise (padded pairs, or a buffer starting inside a struct's alignment) field by field.
template <typename V, typename I, typename F>
int launch_pairs(const void* in, void* inout, size_t n, void* stream) {
  using Pair = ValueIndex<V, I>;
  constexpr bool kPadded = sizeof(Pair) != sizeof(V) + sizeof(I);
  const bool aligned = (reinterpret_cast<uintptr_t>(in) | reinterpret_cast<uintptr_t>(inout)) %
                           alignof(Pair) == 0;
  if (!kPadded && aligned) return launch_elementwise<Pair, F>(in, inout, n, stream);
  if (n == 0) return cudaSuccess;
  packed_pairs_kernel<V, I, F><<<blocks_for(n), kThreadsPerBlock, 0, as_stream(stream)>>>(
      static_cast<const unsigned char*>(in), static_cast<unsigned char*>(inout), n);
  return int(cudaGetLastError());
}

int keep_inout(const void*, void*, size_t, void*) { return cudaSuccess; }

template <size_t kBytes>
int take_in(const void* in, void* inout, size_t n, void* stream) {
  if (n == 0) return cudaSuccess;
  return int(cudaMemcpyAsync(inout, in, n * kBytes, cudaMemcpyDefault, as_stream(stream)));
}

// The device backend of kernel_table.hpp.
struct DeviceKernels {
  using Kernel = DeviceReduceLaunch;
  template <typename T, typename F, bool kHot>
  static Kernel elementwise() {
    if constexpr (kOnDevice<T>) {
      return launch_elementwise<typename DeviceElement<T>::type, F>;
    } else {
      return nullptr;
    }
  }
  template <typename V, typename I, typename F>
  static Kernel pairs() {
    if constexpr (kOnDevice<V>) {
      return launch_pairs<V, I, F>;
    } else {
      return nullptr;
    }
  }
  static Kernel keep_inout() { return gpu::keep_inout; }
  template <size_t kBytes>
  static Kernel take_in() { return gpu::take_in<kBytes>; }
};

}  // namespace

DeviceReduceLaunch device_reduce_launcher(MPI_Op op, MPI_Datatype type) {
  if (!is_predefined_type(type)) return nullptr;
  return kernel_table::predefined<DeviceKernels>(op, type, predefined_type(type).size);
}

}  // namespace weft::gpu
