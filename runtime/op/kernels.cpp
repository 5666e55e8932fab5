// The predefined reduction kernels, one per (op, type) the standard defines, written as plain
// element loops over restrict pointers so the compiler vectorizes them (this file is built with
// -O3; sum/max/min on float, double, int32 and int64 also get an AVX2 clone picked at load time).
#include <complex>
#include <cstdint>
#include <cstring>

#include "runtime/op/op.hpp"

namespace weft {
namespace {

template <typename V, typename I>
struct ValueIndex {  // the layout of MPI_FLOAT_INT, MPI_2INT, ... (value first, then index)
  V value;
  I index;
};

// inout[i] = f(in[i], inout[i]); `in` holds the lower ranks' contribution.
template <typename T, typename F>
void elementwise(const void* in, void* inout, size_t n) {
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
WEFT_HOT_CLONES void elementwise_hot(const void* in, void* inout, size_t n) {
  const T* __restrict a = static_cast<const T*>(in);
  T* __restrict b = static_cast<T*>(inout);
  for (size_t i = 0; i < n; ++i) b[i] = F::apply(a[i], b[i]);
}

struct Sum {
  template <typename T>
  static T apply(T a, T b) { return T(a + b); }
};
struct Prod {
  template <typename T>
  static T apply(T a, T b) { return T(a * b); }
};
struct Max {
  template <typename T>
  static T apply(T a, T b) { return a > b ? a : b; }
};
struct Min {
  template <typename T>
  static T apply(T a, T b) { return a < b ? a : b; }
};
struct Land {
  template <typename T>
  static T apply(T a, T b) { return T((a != T(0)) && (b != T(0))); }
};
struct Lor {
  template <typename T>
  static T apply(T a, T b) { return T((a != T(0)) || (b != T(0))); }
};
struct Lxor {
  template <typename T>
  static T apply(T a, T b) { return T((a != T(0)) != (b != T(0))); }
};
struct Band {
  template <typename T>
  static T apply(T a, T b) { return T(a & b); }
};
struct Bor {
  template <typename T>
  static T apply(T a, T b) { return T(a | b); }
};
struct Bxor {
  template <typename T>
  static T apply(T a, T b) { return T(a ^ b); }
};
// MAXLOC/MINLOC: the larger (smaller) value; on a tie the smaller index (MPI 4.0 §6.9.4).
struct MaxLoc {
  template <typename P>
  static P apply(P a, P b) {
    if (a.value != b.value) return a.value > b.value ? a : b;
    return a.index < b.index ? a : b;
  }
};
struct MinLoc {
  template <typename P>
  static P apply(P a, P b) {
    if (a.value != b.value) return a.value < b.value ? a : b;
    return a.index < b.index ? a : b;
  }
};

// MPI_REPLACE: f(a, b) = b, so inout keeps its value. MPI_NO_OP: f(a, b) = a, inout takes in.
void keep_inout(const void*, void*, size_t) {}
template <size_t kBytes>
void take_in(const void* in, void* inout, size_t n) { std::memcpy(inout, in, n * kBytes); }

ReduceKernel take_in_for(size_t bytes) {
  switch (bytes) {
    case 1: return take_in<1>;
    case 2: return take_in<2>;
    case 4: return take_in<4>;
    case 6: return take_in<6>;  // the pair types, packed: MPI_SHORT_INT
    case 8: return take_in<8>;
    case 12: return take_in<12>;  // MPI_DOUBLE_INT, MPI_LONG_INT
    case 16: return take_in<16>;
    case 20: return take_in<20>;  // MPI_LONG_DOUBLE_INT
    case 32: return take_in<32>;
    default: return nullptr;
  }
}

enum class Group { kInteger, kFloat, kComplex, kLogical, kByte, kPair, kNone };

template <typename T>
ReduceKernel integer_kernel(MPI_Op op) {
  switch (op) {
    case MPI_MAX: return elementwise<T, Max>;
    case MPI_MIN: return elementwise<T, Min>;
    case MPI_SUM: return elementwise<T, Sum>;
    case MPI_PROD: return elementwise<T, Prod>;
    case MPI_LAND: return elementwise<T, Land>;
    case MPI_LOR: return elementwise<T, Lor>;
    case MPI_LXOR: return elementwise<T, Lxor>;
    case MPI_BAND: return elementwise<T, Band>;
    case MPI_BOR: return elementwise<T, Bor>;
    case MPI_BXOR: return elementwise<T, Bxor>;
    default: return nullptr;
  }
}

// int32 and int64: the same set, with the hot three vectorized for AVX2 as well.
template <typename T>
ReduceKernel hot_integer_kernel(MPI_Op op) {
  switch (op) {
    case MPI_MAX: return elementwise_hot<T, Max>;
    case MPI_MIN: return elementwise_hot<T, Min>;
    case MPI_SUM: return elementwise_hot<T, Sum>;
    default: return integer_kernel<T>(op);
  }
}

template <typename T>
ReduceKernel float_kernel(MPI_Op op) {
  switch (op) {
    case MPI_MAX: return elementwise<T, Max>;
    case MPI_MIN: return elementwise<T, Min>;
    case MPI_SUM: return elementwise<T, Sum>;
    case MPI_PROD: return elementwise<T, Prod>;
    default: return nullptr;
  }
}

template <typename T>
ReduceKernel hot_float_kernel(MPI_Op op) {
  switch (op) {
    case MPI_MAX: return elementwise_hot<T, Max>;
    case MPI_MIN: return elementwise_hot<T, Min>;
    case MPI_SUM: return elementwise_hot<T, Sum>;
    default: return float_kernel<T>(op);
  }
}

template <typename T>
ReduceKernel complex_kernel(MPI_Op op) {
  switch (op) {
    case MPI_SUM: return elementwise<T, Sum>;
    case MPI_PROD: return elementwise<T, Prod>;
    default: return nullptr;
  }
}

template <typename T>
ReduceKernel logical_kernel(MPI_Op op) {
  switch (op) {
    case MPI_LAND: return elementwise<T, Land>;
    case MPI_LOR: return elementwise<T, Lor>;
    case MPI_LXOR: return elementwise<T, Lxor>;
    default: return nullptr;
  }
}

ReduceKernel byte_kernel(MPI_Op op) {
  switch (op) {
    case MPI_BAND: return elementwise<uint8_t, Band>;
    case MPI_BOR: return elementwise<uint8_t, Bor>;
    case MPI_BXOR: return elementwise<uint8_t, Bxor>;
    default: return nullptr;
  }
}

// MAXLOC/MINLOC on packed pairs: reductions see a pair type's data as it moves, the value
// followed directly by the index, sizeof(V) + sizeof(I) bytes per pair (MPI_DOUBLE_INT: 12, not
// the 16 of its C struct), so the fields are read and written unaligned.
template <typename V, typename I, typename F>
void packed_pairs(const void* in, void* inout, size_t n) {
  constexpr size_t kStride = sizeof(V) + sizeof(I);
  const auto* a = static_cast<const unsigned char*>(in);
  auto* b = static_cast<unsigned char*>(inout);
  for (size_t i = 0; i < n; ++i, a += kStride, b += kStride) {
    ValueIndex<V, I> x, y;
    std::memcpy(&x.value, a, sizeof(V));
    std::memcpy(&x.index, a + sizeof(V), sizeof(I));
    std::memcpy(&y.value, b, sizeof(V));
    std::memcpy(&y.index, b + sizeof(V), sizeof(I));
    const ValueIndex<V, I> r = F::apply(x, y);
    std::memcpy(b, &r.value, sizeof(V));
    std::memcpy(b + sizeof(V), &r.index, sizeof(I));
  }
}

template <typename V, typename I>
ReduceKernel pair_kernel(MPI_Op op) {
  // Without padding the packed pairs are the C structs themselves.
  constexpr bool kPadded = sizeof(ValueIndex<V, I>) != sizeof(V) + sizeof(I);
  switch (op) {
    case MPI_MAXLOC:
      return kPadded ? packed_pairs<V, I, MaxLoc> : elementwise<ValueIndex<V, I>, MaxLoc>;
    case MPI_MINLOC:
      return kPadded ? packed_pairs<V, I, MinLoc> : elementwise<ValueIndex<V, I>, MinLoc>;
    default: return nullptr;
  }
}

// The arithmetic ops (everything but REPLACE/NO_OP) for one predefined type.
ReduceKernel arithmetic_kernel(MPI_Op op, MPI_Datatype type) {
  switch (type) {
    // MPI_CHAR is text to the standard, but Open MPI and MPICH reduce it as a C integer (OSU's
    // osu_allreduce does by default), so Weft does too, as the platform's char.
    case MPI_CHAR: return integer_kernel<char>(op);
    case MPI_SIGNED_CHAR: return integer_kernel<signed char>(op);
    case MPI_UNSIGNED_CHAR: return integer_kernel<unsigned char>(op);
    case MPI_SHORT: return integer_kernel<short>(op);
    case MPI_UNSIGNED_SHORT: return integer_kernel<unsigned short>(op);
    case MPI_INT: return hot_integer_kernel<int>(op);
    case MPI_UNSIGNED: return integer_kernel<unsigned>(op);
    case MPI_LONG: return hot_integer_kernel<long>(op);
    case MPI_UNSIGNED_LONG: return integer_kernel<unsigned long>(op);
    case MPI_LONG_LONG_INT: return hot_integer_kernel<long long>(op);
    case MPI_UNSIGNED_LONG_LONG: return integer_kernel<unsigned long long>(op);
    case MPI_INT8_T: case MPI_INTEGER1: return integer_kernel<int8_t>(op);
    case MPI_INT16_T: case MPI_INTEGER2: return integer_kernel<int16_t>(op);
    case MPI_INT32_T: case MPI_INTEGER: case MPI_INTEGER4: return hot_integer_kernel<int32_t>(op);
    case MPI_INT64_T: case MPI_INTEGER8: return hot_integer_kernel<int64_t>(op);
    case MPI_INTEGER16: return integer_kernel<__int128>(op);
    case MPI_UINT8_T: return integer_kernel<uint8_t>(op);
    case MPI_UINT16_T: return integer_kernel<uint16_t>(op);
    case MPI_UINT32_T: return integer_kernel<uint32_t>(op);
    case MPI_UINT64_T: return integer_kernel<uint64_t>(op);
    case MPI_AINT: return integer_kernel<MPI_Aint>(op);
    case MPI_OFFSET: return integer_kernel<MPI_Offset>(op);
    case MPI_COUNT: return integer_kernel<MPI_Count>(op);
    case MPI_FLOAT: case MPI_REAL: case MPI_REAL4: return hot_float_kernel<float>(op);
    case MPI_DOUBLE: case MPI_DOUBLE_PRECISION: case MPI_REAL8: return hot_float_kernel<double>(op);
    case MPI_LONG_DOUBLE: return float_kernel<long double>(op);
    case MPI_C_FLOAT_COMPLEX: case MPI_CXX_FLOAT_COMPLEX: case MPI_COMPLEX: case MPI_COMPLEX8:
      return complex_kernel<std::complex<float>>(op);
    case MPI_C_DOUBLE_COMPLEX: case MPI_CXX_DOUBLE_COMPLEX: case MPI_DOUBLE_COMPLEX:
    case MPI_COMPLEX16:
      return complex_kernel<std::complex<double>>(op);
    case MPI_C_LONG_DOUBLE_COMPLEX: case MPI_CXX_LONG_DOUBLE_COMPLEX:
      return complex_kernel<std::complex<long double>>(op);
    case MPI_C_BOOL: case MPI_CXX_BOOL: return logical_kernel<bool>(op);
    case MPI_LOGICAL: return logical_kernel<int32_t>(op);
    case MPI_BYTE: return byte_kernel(op);
    case MPI_FLOAT_INT: return pair_kernel<float, int>(op);
    case MPI_DOUBLE_INT: return pair_kernel<double, int>(op);
    case MPI_LONG_INT: return pair_kernel<long, int>(op);
    case MPI_2INT: return pair_kernel<int, int>(op);
    case MPI_SHORT_INT: return pair_kernel<short, int>(op);
    case MPI_LONG_DOUBLE_INT: return pair_kernel<long double, int>(op);
    case MPI_2INTEGER: return pair_kernel<int32_t, int32_t>(op);
    case MPI_2REAL: return pair_kernel<float, float>(op);
    case MPI_2DOUBLE_PRECISION: return pair_kernel<double, double>(op);
    default: return nullptr;  // MPI_WCHAR, MPI_PACKED, MPI_CHARACTER, MPI_REAL16, MPI_COMPLEX32,
                             // MPI_LB, MPI_UB
  }
}

}  // namespace

ReduceKernel predefined_kernel(MPI_Op op, MPI_Datatype type, size_t type_size) {
  if (op == MPI_REPLACE) return keep_inout;
  if (op == MPI_NO_OP) return take_in_for(type_size);
  return arithmetic_kernel(op, type);
}

}  // namespace weft
