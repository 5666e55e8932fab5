// external32 conversion: pack natively, then convert each basic element of the packed stream in
// signature order (and the reverse for unpack).
#include "runtime/datatype/external32.hpp"

#include <bit>
#include <cfloat>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "runtime/datatype/predefined.hpp"

namespace weft {
namespace {

static_assert(LDBL_MANT_DIG == 64 || LDBL_MANT_DIG == 113,
              "external32 long double: only x87 extended and IEEE binary128 are handled");
constexpr bool kLittle = std::endian::native == std::endian::little;

void put_big(uint64_t v, unsigned char* out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[n - 1 - i] = (unsigned char)(v >> (8 * i));
}

uint64_t get_big(const unsigned char* in, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i) v = (v << 8) | in[i];
  return v;
}

template <typename S>
uint64_t widen(const unsigned char* p, bool is_signed) {
  S v;
  std::memcpy(&v, p, sizeof v);
  return is_signed ? uint64_t(int64_t(v)) : uint64_t(std::make_unsigned_t<S>(v));
}

// Native integers of 1, 2, 4 or 8 bytes, widened to 64 bits.
uint64_t get_native(const unsigned char* p, size_t n, bool is_signed) {
  switch (n) {
    case 1:
      return widen<int8_t>(p, is_signed);
    case 2:
      return widen<int16_t>(p, is_signed);
    case 4:
      return widen<int32_t>(p, is_signed);
    default:
      return widen<int64_t>(p, is_signed);
  }
}

template <typename U>
void narrow(uint64_t v, unsigned char* p) {
  const U x = U(v);
  std::memcpy(p, &x, sizeof x);
}

void put_native(uint64_t v, unsigned char* p, size_t n) {
  switch (n) {
    case 1:
      return narrow<uint8_t>(v, p);
    case 2:
      return narrow<uint16_t>(v, p);
    case 4:
      return narrow<uint32_t>(v, p);
    default:
      return narrow<uint64_t>(v, p);
  }
}

// Whether v (widened from a native integer) survives narrowing to n bytes.
bool fits(uint64_t v, size_t n, bool is_signed) {
  if (n >= 8) return true;
  const unsigned bits = unsigned(8 * n);
  if (!is_signed) return (v >> bits) == 0;
  const int64_t s = int64_t(v), limit = int64_t(1) << (bits - 1);
  return s >= -limit && s < limit;
}

void copy_swapped(const unsigned char* in, unsigned char* out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = kLittle ? in[n - 1 - i] : in[i];
}

// x87 80-bit extended (64-bit significand with explicit integer bit) <-> binary128: same sign,
// same 15-bit biased exponent, the 63 fraction bits on top of binary128's 112.
void encode_long_double(const unsigned char* native, unsigned char* out) {
  if constexpr (LDBL_MANT_DIG == 113) {
    copy_swapped(native, out, 16);
  } else {
    uint64_t mantissa;
    uint16_t sign_exponent;
    std::memcpy(&mantissa, native, 8);
    std::memcpy(&sign_exponent, native + 8, 2);
    const uint64_t fraction = mantissa & ~(uint64_t(1) << 63);
    put_big((uint64_t(sign_exponent) << 48) | (fraction >> 15), out, 8);
    put_big(fraction << 49, out + 8, 8);
  }
}

void decode_long_double(const unsigned char* in, unsigned char* native, size_t native_size) {
  if constexpr (LDBL_MANT_DIG == 113) {
    copy_swapped(in, native, 16);
  } else {
    const uint64_t high = get_big(in, 8), low = get_big(in + 8, 8);
    const uint16_t sign_exponent = uint16_t(high >> 48);
    const uint64_t fraction = ((high & 0xFFFFFFFFFFFFull) << 15) | (low >> 49);
    const uint64_t integer_bit = (sign_exponent & 0x7FFF) != 0 ? uint64_t(1) << 63 : 0;
    const uint64_t mantissa = fraction | integer_bit;
    std::memset(native, 0, native_size);
    std::memcpy(native, &mantissa, 8);
    std::memcpy(native + 8, &sign_exponent, 2);
  }
}

bool encode(const ScalarField& f, const unsigned char* native, unsigned char* out) {
  switch (f.kind) {
    case ScalarKind::kRaw:
      std::memcpy(out, native, f.native);
      return true;
    case ScalarKind::kFloat:
      copy_swapped(native, out, f.native);
      return true;
    case ScalarKind::kLongDouble:
      encode_long_double(native, out);
      return true;
    case ScalarKind::kSigned:
    case ScalarKind::kUnsigned: {
      const bool is_signed = f.kind == ScalarKind::kSigned;
      const uint64_t v = get_native(native, f.native, is_signed);
      if (!fits(v, f.external, is_signed)) return false;
      put_big(v, out, f.external);
      return true;
    }
  }
  return true;
}

void decode(const ScalarField& f, const unsigned char* in, unsigned char* native) {
  switch (f.kind) {
    case ScalarKind::kRaw:
      std::memcpy(native, in, f.native);
      break;
    case ScalarKind::kFloat:
      copy_swapped(in, native, f.native);
      break;
    case ScalarKind::kLongDouble:
      decode_long_double(in, native, f.native);
      break;
    case ScalarKind::kSigned:
    case ScalarKind::kUnsigned: {
      uint64_t v = get_big(in, f.external);
      const unsigned bits = unsigned(8 * f.external);
      if (f.kind == ScalarKind::kSigned && bits < 64 && (v >> (bits - 1)) != 0)
        v |= ~uint64_t(0) << bits;  // sign-extend
      put_native(v, native, f.native);
      break;
    }
  }
}

size_t external_size(const PredefinedType& t) {
  size_t n = 0;
  for (int i = 0; i < t.nfields; ++i) n += t.fields[i].external;
  return n;
}

size_t external_size_of(MPI_Datatype basic) { return external_size(predefined_type(basic)); }

}  // namespace

size_t external32_size(const Datatype& t) { return signature_sum(t.signature(), external_size_of); }

Status pack_external32(const Datatype& t, const void* buf, size_t count, unsigned char* out) {
  std::vector<unsigned char> native(count * t.size());
  t.pack(buf, count, native.data());
  const unsigned char* in = native.data();
  MPI_Datatype failed = MPI_DATATYPE_NULL;
  auto visit = [&](MPI_Datatype basic) {
    const PredefinedType& p = predefined_type(basic);
    for (int f = 0; f < p.nfields; ++f) {  // packed: the fields lie back to back
      if (!encode(p.fields[f], in, out)) {
        failed = basic;
        return false;
      }
      in += p.fields[f].native;
      out += p.fields[f].external;
    }
    return true;
  };
  for (size_t i = 0; i < count; ++i) {
    if (!for_each_basic(t.signature(), visit)) {
      return Status::error(MPI_ERR_CONVERSION, std::string("a value of ") +
                                                   predefined_type(failed).name +
                                                   " does not fit in its external32 size");
    }
  }
  return Status::success();
}

void unpack_external32(const Datatype& t, const unsigned char* in, size_t count, void* buf) {
  std::vector<unsigned char> native(count * t.size());
  unsigned char* out = native.data();
  auto visit = [&](MPI_Datatype basic) {
    const PredefinedType& p = predefined_type(basic);
    for (int f = 0; f < p.nfields; ++f) {
      decode(p.fields[f], in, out);
      in += p.fields[f].external;
      out += p.fields[f].native;
    }
    return true;
  };
  for (size_t i = 0; i < count; ++i) for_each_basic(t.signature(), visit);
  t.unpack(native.data(), count, buf);
}

}  // namespace weft
