// The 16-bit floating types of the Weft extensions MPIX_C_FLOAT16 (IEEE 754 binary16) and
// MPIX_BFLOAT16 (bfloat16: float's upper half): storage types, their conversions to and from
// float (round to nearest, ties to even), and arithmetic done in float and rounded back, for the
// host kernels and the CUDA kernels alike.
#pragma once
#include <cstdint>
#include <cstring>

#include "runtime/op/functors.hpp"

namespace weft {

WEFT_HOST_DEVICE inline uint32_t float_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}
WEFT_HOST_DEVICE inline float bits_float(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

// `value >> shift` rounded to nearest, ties to even (1 <= shift <= 31).
WEFT_HOST_DEVICE inline uint32_t shift_right_even(uint32_t value, unsigned shift) {
  const uint32_t kept = value >> shift;
  const uint32_t rest = value & ((uint32_t(1) << shift) - 1);
  const uint32_t half = uint32_t(1) << (shift - 1);
  return kept + ((rest > half || (rest == half && (kept & 1))) ? 1 : 0);
}

// binary16: 1 sign, 5 exponent (bias 15), 10 fraction bits. A NaN keeps its sign and the top of
// its payload and comes back quiet; overflow gives infinity; below 2^-14 the result is subnormal.
WEFT_HOST_DEVICE inline uint16_t float_to_binary16(float f) {
  const uint32_t x = float_bits(f);
  const uint32_t sign = (x >> 16) & 0x8000;
  const uint32_t magnitude = x & 0x7fffffff;
  if (magnitude > 0x7f800000) return uint16_t(sign | 0x7e00 | ((magnitude >> 13) & 0x3ff));
  // 65520 (0x477ff000) is halfway between the largest binary16 (65504) and 2^16: it rounds to
  // the even one, 2^16, which overflows; so does everything above.
  if (magnitude >= 0x477ff000) return uint16_t(sign | 0x7c00);
  const uint32_t exponent = magnitude >> 23;     // float's biased exponent
  if (exponent >= 113) {                         // 2^-14 and up: a normal binary16
    return uint16_t(sign | shift_right_even(magnitude - (112u << 23), 13));
  }
  if (exponent < 102) return uint16_t(sign);     // below 2^-25 (or float subnormal): zero
  // Subnormal: the value in units of 2^-24 is the 24-bit significand times 2^(exponent - 126).
  const uint32_t significand = (magnitude & 0x7fffff) | 0x800000;
  return uint16_t(sign | shift_right_even(significand, 126 - exponent));
}

WEFT_HOST_DEVICE inline float binary16_to_float(uint16_t h) {
  const uint32_t sign = uint32_t(h & 0x8000) << 16;
  uint32_t exponent = (h >> 10) & 0x1f;
  uint32_t fraction = h & 0x3ff;
  if (exponent == 0x1f) return bits_float(sign | 0x7f800000 | (fraction << 13));  // inf, NaN
  if (exponent == 0) {
    if (fraction == 0) return bits_float(sign);
    exponent = 113;  // a subnormal, fraction * 2^-24: normalise it
    while ((fraction & 0x400) == 0) {
      fraction <<= 1;
      --exponent;
    }
    return bits_float(sign | (exponent << 23) | ((fraction & 0x3ff) << 13));
  }
  return bits_float(sign | ((exponent + 112) << 23) | (fraction << 13));
}

// bfloat16: float with the low 16 fraction bits rounded off; NaN keeps its sign and the top of
// its payload and comes back quiet (a carry into the exponent gives infinity, as it should).
WEFT_HOST_DEVICE inline uint16_t float_to_bfloat16(float f) {
  const uint32_t x = float_bits(f);
  if ((x & 0x7fffffff) > 0x7f800000) return uint16_t((x >> 16) | 0x40);
  return uint16_t(shift_right_even(x, 16));
}

WEFT_HOST_DEVICE inline float bfloat16_to_float(uint16_t b) { return bits_float(uint32_t(b) << 16); }

// The two formats, as the storage type below takes them.
struct Binary16Format {
  WEFT_HOST_DEVICE static uint16_t from_float(float f) { return float_to_binary16(f); }
  WEFT_HOST_DEVICE static float to_float(uint16_t h) { return binary16_to_float(h); }
};
struct BFloat16Format {
  WEFT_HOST_DEVICE static uint16_t from_float(float f) { return float_to_bfloat16(f); }
  WEFT_HOST_DEVICE static float to_float(uint16_t b) { return bfloat16_to_float(b); }
};

// A 16-bit float as stored in MPI buffers. Arithmetic converts both operands to float (exactly),
// computes there and rounds the result back once, which is what the device kernels do too.
template <typename Format>
struct Float16Storage {
  uint16_t bits;
  WEFT_HOST_DEVICE static Float16Storage from_float(float f) { return {Format::from_float(f)}; }
  WEFT_HOST_DEVICE float to_float() const { return Format::to_float(bits); }
};
using Float16 = Float16Storage<Binary16Format>;
using BFloat16 = Float16Storage<BFloat16Format>;

template <typename Format>
WEFT_HOST_DEVICE inline Float16Storage<Format> operator+(Float16Storage<Format> a,
                                                        Float16Storage<Format> b) {
  return Float16Storage<Format>::from_float(a.to_float() + b.to_float());
}
template <typename Format>
WEFT_HOST_DEVICE inline Float16Storage<Format> operator*(Float16Storage<Format> a,
                                                        Float16Storage<Format> b) {
  return Float16Storage<Format>::from_float(a.to_float() * b.to_float());
}
template <typename Format>
WEFT_HOST_DEVICE inline bool operator>(Float16Storage<Format> a, Float16Storage<Format> b) {
  return a.to_float() > b.to_float();
}
template <typename Format>
WEFT_HOST_DEVICE inline bool operator<(Float16Storage<Format> a, Float16Storage<Format> b) {
  return a.to_float() < b.to_float();
}

}  // namespace weft
