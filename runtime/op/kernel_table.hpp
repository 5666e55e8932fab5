// Which element type and functor (runtime/op/functors.hpp) reduces each predefined type under
// each predefined op, written once for the host kernels (kernels.cpp) and the CUDA kernels
// (gpu/device_reduce.cu). A Backend turns an (element type, functor) into its kernel:
//   using Kernel = ...;                                       (a function pointer type)
//   template <typename T, typename F, bool kHot> static Kernel elementwise();
//   template <typename V, typename I, typename F> static Kernel pairs();   (MAXLOC, MINLOC)
//   static Kernel keep_inout();                               (MPI_REPLACE: f(a, b) = b)
//   template <size_t kBytes> static Kernel take_in();         (MPI_NO_OP: f(a, b) = a)
// kHot marks the loops worth a vectorized clone (sum/max/min on the common types). Element types
// are named as the host stores them (std::complex<float>, long double); a backend that cannot
// reduce one returns nullptr for it.
#pragma once
#include <complex>
#include <cstddef>
#include <cstdint>

#include "mpi.h"
#include "runtime/op/functors.hpp"
#include "runtime/op/half.hpp"

namespace weft::kernel_table {

// kHot: sum, max and min get the vectorized clone; the rest of the integer ops do not.
template <class B, typename T, bool kHot = false>
typename B::Kernel integer_ops(MPI_Op op) {
  switch (op) {
    case MPI_MAX: return B::template elementwise<T, Max, kHot>();
    case MPI_MIN: return B::template elementwise<T, Min, kHot>();
    case MPI_SUM: return B::template elementwise<T, Sum, kHot>();
    case MPI_PROD: return B::template elementwise<T, Prod, false>();
    case MPI_LAND: return B::template elementwise<T, Land, false>();
    case MPI_LOR: return B::template elementwise<T, Lor, false>();
    case MPI_LXOR: return B::template elementwise<T, Lxor, false>();
    case MPI_BAND: return B::template elementwise<T, Band, false>();
    case MPI_BOR: return B::template elementwise<T, Bor, false>();
    case MPI_BXOR: return B::template elementwise<T, Bxor, false>();
    default: return nullptr;
  }
}

template <class B, typename T, bool kHot = false>
typename B::Kernel floating_ops(MPI_Op op) {
  switch (op) {
    case MPI_MAX: return B::template elementwise<T, Max, kHot>();
    case MPI_MIN: return B::template elementwise<T, Min, kHot>();
    case MPI_SUM: return B::template elementwise<T, Sum, kHot>();
    case MPI_PROD: return B::template elementwise<T, Prod, false>();
    default: return nullptr;
  }
}

template <class B, typename T>
typename B::Kernel complex_ops(MPI_Op op) {
  switch (op) {
    case MPI_SUM: return B::template elementwise<T, Sum, false>();
    case MPI_PROD: return B::template elementwise<T, Prod, false>();
    default: return nullptr;
  }
}

template <class B, typename T>
typename B::Kernel logical_ops(MPI_Op op) {
  switch (op) {
    case MPI_LAND: return B::template elementwise<T, Land, false>();
    case MPI_LOR: return B::template elementwise<T, Lor, false>();
    case MPI_LXOR: return B::template elementwise<T, Lxor, false>();
    default: return nullptr;
  }
}

template <class B>
typename B::Kernel byte_ops(MPI_Op op) {
  switch (op) {
    case MPI_BAND: return B::template elementwise<uint8_t, Band, false>();
    case MPI_BOR: return B::template elementwise<uint8_t, Bor, false>();
    case MPI_BXOR: return B::template elementwise<uint8_t, Bxor, false>();
    default: return nullptr;
  }
}

template <class B, typename V, typename I>
typename B::Kernel pair_ops(MPI_Op op) {
  switch (op) {
    case MPI_MAXLOC: return B::template pairs<V, I, MaxLoc>();
    case MPI_MINLOC: return B::template pairs<V, I, MinLoc>();
    default: return nullptr;
  }
}

// The kernel of an arithmetic op (everything but REPLACE/NO_OP) on a predefined type, or nullptr
// where the standard does not define the op for the type.
template <class B>
typename B::Kernel arithmetic(MPI_Op op, MPI_Datatype type) {
  switch (type) {
    // MPI_CHAR is text to the standard, but Open MPI and MPICH reduce it as a C integer (OSU's
    // osu_allreduce does by default), so Weft does too, as the platform's char.
    case MPI_CHAR: return integer_ops<B, char>(op);
    case MPI_SIGNED_CHAR: return integer_ops<B, signed char>(op);
    case MPI_UNSIGNED_CHAR: return integer_ops<B, unsigned char>(op);
    case MPI_SHORT: return integer_ops<B, short>(op);
    case MPI_UNSIGNED_SHORT: return integer_ops<B, unsigned short>(op);
    case MPI_INT: return integer_ops<B, int, true>(op);
    case MPI_UNSIGNED: return integer_ops<B, unsigned>(op);
    case MPI_LONG: return integer_ops<B, long, true>(op);
    case MPI_UNSIGNED_LONG: return integer_ops<B, unsigned long>(op);
    case MPI_LONG_LONG_INT: return integer_ops<B, long long, true>(op);
    case MPI_UNSIGNED_LONG_LONG: return integer_ops<B, unsigned long long>(op);
    case MPI_INT8_T: case MPI_INTEGER1: return integer_ops<B, int8_t>(op);
    case MPI_INT16_T: case MPI_INTEGER2: return integer_ops<B, int16_t>(op);
    case MPI_INT32_T: case MPI_INTEGER: case MPI_INTEGER4: return integer_ops<B, int32_t, true>(op);
    case MPI_INT64_T: case MPI_INTEGER8: return integer_ops<B, int64_t, true>(op);
    case MPI_INTEGER16: return integer_ops<B, __int128>(op);
    case MPI_UINT8_T: return integer_ops<B, uint8_t>(op);
    case MPI_UINT16_T: return integer_ops<B, uint16_t>(op);
    case MPI_UINT32_T: return integer_ops<B, uint32_t>(op);
    case MPI_UINT64_T: return integer_ops<B, uint64_t>(op);
    case MPI_AINT: return integer_ops<B, MPI_Aint>(op);
    case MPI_OFFSET: return integer_ops<B, MPI_Offset>(op);
    case MPI_COUNT: return integer_ops<B, MPI_Count>(op);
    case MPI_FLOAT: case MPI_REAL: case MPI_REAL4: return floating_ops<B, float, true>(op);
    case MPI_DOUBLE: case MPI_DOUBLE_PRECISION: case MPI_REAL8:
      return floating_ops<B, double, true>(op);
    case MPI_LONG_DOUBLE: return floating_ops<B, long double>(op);
    case MPIX_C_FLOAT16: return floating_ops<B, Float16>(op);
    case MPIX_BFLOAT16: return floating_ops<B, BFloat16>(op);
    case MPI_C_FLOAT_COMPLEX: case MPI_CXX_FLOAT_COMPLEX: case MPI_COMPLEX: case MPI_COMPLEX8:
      return complex_ops<B, std::complex<float>>(op);
    case MPI_C_DOUBLE_COMPLEX: case MPI_CXX_DOUBLE_COMPLEX: case MPI_DOUBLE_COMPLEX:
    case MPI_COMPLEX16:
      return complex_ops<B, std::complex<double>>(op);
    case MPI_C_LONG_DOUBLE_COMPLEX: case MPI_CXX_LONG_DOUBLE_COMPLEX:
      return complex_ops<B, std::complex<long double>>(op);
    case MPI_C_BOOL: case MPI_CXX_BOOL: return logical_ops<B, bool>(op);
    case MPI_LOGICAL: return logical_ops<B, int32_t>(op);
    case MPI_BYTE: return byte_ops<B>(op);
    case MPI_FLOAT_INT: return pair_ops<B, float, int>(op);
    case MPI_DOUBLE_INT: return pair_ops<B, double, int>(op);
    case MPI_LONG_INT: return pair_ops<B, long, int>(op);
    case MPI_2INT: return pair_ops<B, int, int>(op);
    case MPI_SHORT_INT: return pair_ops<B, short, int>(op);
    case MPI_LONG_DOUBLE_INT: return pair_ops<B, long double, int>(op);
    case MPI_2INTEGER: return pair_ops<B, int32_t, int32_t>(op);
    case MPI_2REAL: return pair_ops<B, float, float>(op);
    case MPI_2DOUBLE_PRECISION: return pair_ops<B, double, double>(op);
    default: return nullptr;  // MPI_WCHAR, MPI_PACKED, MPI_CHARACTER, MPI_REAL16, MPI_COMPLEX32,
                             // MPI_LB, MPI_UB
  }
}

// MPI_NO_OP copies the elements of `in` over inout, by their size (packed pairs included).
template <class B>
typename B::Kernel take_in_ops(size_t bytes) {
  switch (bytes) {
    case 1: return B::template take_in<1>();
    case 2: return B::template take_in<2>();
    case 4: return B::template take_in<4>();
    case 6: return B::template take_in<6>();  // the pair types, packed: MPI_SHORT_INT
    case 8: return B::template take_in<8>();
    case 12: return B::template take_in<12>();  // MPI_DOUBLE_INT, MPI_LONG_INT
    case 16: return B::template take_in<16>();
    case 20: return B::template take_in<20>();  // MPI_LONG_DOUBLE_INT
    case 32: return B::template take_in<32>();
    default: return nullptr;
  }
}

// The kernel of a predefined op on a predefined type of `type_size` bytes, or nullptr where the
// standard does not define the op for the type (or the backend cannot run it).
template <class B>
typename B::Kernel predefined(MPI_Op op, MPI_Datatype type, size_t type_size) {
  if (op == MPI_REPLACE) return B::keep_inout();
  if (op == MPI_NO_OP) return take_in_ops<B>(type_size);
  return arithmetic<B>(op, type);
}

}  // namespace weft::kernel_table
