// The element operations of the predefined reductions, written once for the host kernels
// (kernels.cpp) and the CUDA kernels (gpu/device_reduce.cu): apply(a, b) is a op b, `a` from the
// lower ranks. Also the complex number the device reduces with, and the MAXLOC/MINLOC pairs.
#pragma once
#include <cstring>

#if defined(__CUDACC__)
#define WEFT_HOST_DEVICE __host__ __device__
#else
#define WEFT_HOST_DEVICE
#endif

namespace weft {

template <typename V, typename I>
struct ValueIndex {  // the layout of MPI_FLOAT_INT, MPI_2INT, ... (value first, then index)
  V value;
  I index;
};

// A complex number both sides can use (std::complex has no device code). Its sum and product
// are the ones GCC's std::complex computes for finite operands, term for term (the product:
// (ac - bd) + (ad + bc)i); std::complex differs only where that gives NaN and it then recovers
// infinities (C Annex G), which this does not.
template <typename T>
struct Complex {
  T re, im;
};
template <typename T>
WEFT_HOST_DEVICE inline Complex<T> operator+(Complex<T> a, Complex<T> b) {
  return {a.re + b.re, a.im + b.im};
}
template <typename T>
WEFT_HOST_DEVICE inline Complex<T> operator*(Complex<T> a, Complex<T> b) {
  return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}

struct Sum {
  template <typename T>
  WEFT_HOST_DEVICE static T apply(T a, T b) { return T(a + b); }
};
struct Prod {
  template <typename T>
  WEFT_HOST_DEVICE static T apply(T a, T b) { return T(a * b); }
};
struct Max {
  template <typename T>
  WEFT_HOST_DEVICE static T apply(T a, T b) { return a > b ? a : b; }
};
struct Min {
  template <typename T>
  WEFT_HOST_DEVICE static T apply(T a, T b) { return a < b ? a : b; }
};
struct Land {
  template <typename T>
  WEFT_HOST_DEVICE static T apply(T a, T b) { return T((a != T(0)) && (b != T(0))); }
};
struct Lor {
  template <typename T>
  WEFT_HOST_DEVICE static T apply(T a, T b) { return T((a != T(0)) || (b != T(0))); }
};
struct Lxor {
  template <typename T>
  WEFT_HOST_DEVICE static T apply(T a, T b) { return T((a != T(0)) != (b != T(0))); }
};
struct Band {
  template <typename T>
  WEFT_HOST_DEVICE static T apply(T a, T b) { return T(a & b); }
};
struct Bor {
  template <typename T>
  WEFT_HOST_DEVICE static T apply(T a, T b) { return T(a | b); }
};
struct Bxor {
  template <typename T>
  WEFT_HOST_DEVICE static T apply(T a, T b) { return T(a ^ b); }
};
// MAXLOC/MINLOC: the larger (smaller) value; on a tie the smaller index (MPI 4.0 §6.9.4).
struct MaxLoc {
  template <typename P>
  WEFT_HOST_DEVICE static P apply(P a, P b) {
    if (a.value != b.value) return a.value > b.value ? a : b;
    return a.index < b.index ? a : b;
  }
};
struct MinLoc {
  template <typename P>
  WEFT_HOST_DEVICE static P apply(P a, P b) {
    if (a.value != b.value) return a.value < b.value ? a : b;
    return a.index < b.index ? a : b;
  }
};

// MAXLOC/MINLOC on one packed pair: reductions see a pair type's data as it moves, the value
// followed directly by the index, sizeof(V) + sizeof(I) bytes per pair (MPI_DOUBLE_INT: 12, not
// the 16 of its C struct), so the fields are read and written unaligned. b = F(a, b).
template <typename V, typename I, typename F>
WEFT_HOST_DEVICE inline void reduce_packed_pair(const unsigned char* a, unsigned char* b) {
  ValueIndex<V, I> x, y;
  memcpy(&x.value, a, sizeof(V));
  memcpy(&x.index, a + sizeof(V), sizeof(I));
  memcpy(&y.value, b, sizeof(V));
  memcpy(&y.index, b + sizeof(V), sizeof(I));
  const ValueIndex<V, I> r = F::apply(x, y);
  memcpy(b, &r.value, sizeof(V));
  memcpy(b + sizeof(V), &r.index, sizeof(I));
}

}  // namespace weft
