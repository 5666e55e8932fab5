// The host's predefined reduction kernels: the element functors (functors.hpp) run as plain
// loops over restrict pointers so the compiler vectorizes them (this file is built with -O3;
// sum/max/min on float, double, int32 and int64 also get an AVX2 clone picked at load time),
// for every (op, type) kernel_table.hpp lists, plus MPI_REPLACE and MPI_NO_OP.
#include <cstdint>
#include <cstring>

#include "runtime/op/kernel_table.hpp"
#include "runtime/op/op.hpp"

namespace weft {
namespace {

// inout[i] = f(in[i], inout[i]); `in` holds the lower ranks' contribution.
template <typename T, typename F>
void elementwise_loop(const void* in, void* inout, size_t n) {
  const T* __restrict a = static_cast<const T*>(in);
  T* __restrict b = static_cast<T*>(inout);
  for (size_t i = 0; i < n; ++i) b[i] = F::apply(a[i], b[i]);
}

// The hot kernels, also compiled for AVX2 and chosen by the CPU at load time; not under
// ThreadSanitizer, whose instrumented ifunc resolvers would run before it is initialised.
#if defined(__SANITIZE_THREAD__)
#define WEFT_HOT_CLONES
#else
#define WEFT_HOT_CLONES __attribute__((target_clones("avx2", "default")))
#endif
template <typename T, typename F>
WEFT_HOT_CLONES void elementwise_loop_hot(const void* in, void* inout, size_t n) {
  const T* __restrict a = static_cast<const T*>(in);
  T* __restrict b = static_cast<T*>(inout);
  for (size_t i = 0; i < n; ++i) b[i] = F::apply(a[i], b[i]);
}

// MAXLOC/MINLOC on packed pairs (reduce_packed_pair: unaligned fields, no padding).
template <typename V, typename I, typename F>
void packed_pairs(const void* in, void* inout, size_t n) {
  constexpr size_t kStride = sizeof(V) + sizeof(I);
  const auto* a = static_cast<const unsigned char*>(in);
  auto* b = static_cast<unsigned char*>(inout);
  for (size_t i = 0; i < n; ++i, a += kStride, b += kStride) reduce_packed_pair<V, I, F>(a, b);
}

// MPI_REPLACE: f(a, b) = b, so inout keeps its value. MPI_NO_OP: f(a, b) = a, inout takes in.
void keep_inout(const void*, void*, size_t) {}
template <size_t kBytes>
void take_in(const void* in, void* inout, size_t n) { std::memcpy(inout, in, n * kBytes); }

// The host backend of kernel_table.hpp.
struct HostKernels {
  using Kernel = ReduceKernel;
  template <typename T, typename F, bool kHot>
  static Kernel elementwise() {
    if constexpr (kHot) {
      return elementwise_loop_hot<T, F>;
    } else {
      return elementwise_loop<T, F>;
    }
  }
  template <typename V, typename I, typename F>
  static Kernel pairs() {
    // Without padding the packed pairs are the C structs themselves.
    constexpr bool kPadded = sizeof(ValueIndex<V, I>) != sizeof(V) + sizeof(I);
    if constexpr (kPadded) {
      return packed_pairs<V, I, F>;
    } else {
      return elementwise_loop<ValueIndex<V, I>, F>;
    }
  }
  static Kernel keep_inout() { return weft::keep_inout; }
  template <size_t kBytes>
  static Kernel take_in() { return weft::take_in<kBytes>; }
};

}  // namespace

ReduceKernel predefined_kernel(MPI_Op op, MPI_Datatype type, size_t type_size) {
  return kernel_table::predefined<HostKernels>(op, type, type_size);
}

}  // namespace weft
