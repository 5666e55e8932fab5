// The 16-bit floats of MPIX_C_FLOAT16 and MPIX_BFLOAT16 (runtime/op/half.hpp) against a
// reference rounding done in double with nearbyint (round to nearest even): every bit pattern
// decoded, round trips, ties, overflow, subnormals, NaN; and their host reductions against float
// arithmetic rounded once.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "runtime/op/half.hpp"
#include "runtime/op/op.hpp"

using namespace weft;

namespace {

// A binary format of `fraction_bits` stored fraction bits whose smallest normal is 2^min_exponent
// and whose largest finite value is `max_finite`.
struct Format {
  int fraction_bits;
  int min_exponent;
  double max_finite;
};
constexpr Format kBinary16{10, -14, 65504.0};
constexpr Format kBFloat16{7, -126, 0x1.fep127};

// f rounded to the format, to nearest with ties to even, as a double (exact): the value scaled by
// its unit in the last place, rounded by nearbyint, scaled back.
double reference_round(float f, Format format) {
  const double x = f;
  if (std::isnan(x) || std::isinf(x) || x == 0) return x;
  int exponent = 0;
  std::frexp(x, &exponent);  // |x| in [2^(exponent-1), 2^exponent)
  const int ulp_exponent =
      std::max(exponent - 1, format.min_exponent) - format.fraction_bits;
  const double rounded = std::ldexp(std::nearbyint(std::ldexp(x, -ulp_exponent)), ulp_exponent);
  if (std::fabs(rounded) > format.max_finite) return std::copysign(INFINITY, x);
  return rounded;
}

// binary16 bits decoded from their definition (sign, 5-bit exponent biased 15, 10-bit fraction).
double reference_binary16(uint16_t h) {
  const double sign = (h & 0x8000) != 0 ? -1.0 : 1.0;
  const int exponent = (h >> 10) & 0x1f;
  const int fraction = h & 0x3ff;
  if (exponent == 0x1f) return fraction == 0 ? sign * INFINITY : NAN;
  if (exponent == 0) return sign * std::ldexp(fraction, -24);
  return sign * std::ldexp(1024 + fraction, exponent - 25);
}

uint32_t bits_of(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

float float_of(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

bool same(double a, double b) {  // equal values with equal signs (-0 is not 0), or both NaN
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return a == b && std::signbit(a) == std::signbit(b);
}

template <typename T>
std::vector<T> host_reduce(MPI_Op op, MPI_Datatype type, std::vector<T> in, std::vector<T> inout) {
  OpTable table;
  Reduction r;
  REQUIRE(table.bind(op, type, 2, &r).ok());
  r.apply(in.data(), inout.data(), in.size());
  return inout;
}

}  // namespace

TEST_CASE("binary16: every bit pattern decodes exactly and encodes back to itself") {
  for (uint32_t h = 0; h <= 0xffff; ++h) {
    const float f = binary16_to_float(uint16_t(h));
    INFO("binary16 0x" << std::hex << h);
    REQUIRE(same(f, reference_binary16(uint16_t(h))));
    if (std::isnan(f)) {
      // NaN stays NaN, keeps its sign and payload, and comes back quiet.
      CHECK(float_to_binary16(f) == uint16_t(h | 0x200));
    } else {
      CHECK(float_to_binary16(f) == h);
    }
  }
}

TEST_CASE("bfloat16: every bit pattern is a float's upper half and encodes back to itself") {
  for (uint32_t b = 0; b <= 0xffff; ++b) {
    const float f = bfloat16_to_float(uint16_t(b));
    INFO("bfloat16 0x" << std::hex << b);
    REQUIRE(bits_of(f) == b << 16);
    CHECK(float_to_bfloat16(f) == (std::isnan(f) ? uint16_t(b | 0x40) : b));
  }
}

TEST_CASE("float to binary16 and bfloat16 round to nearest even, like the reference") {
  std::mt19937 rng(16);
  std::uniform_int_distribution<uint32_t> any_bits;
  // Random floats near binary16's range (2^-30 .. 2^17) and over all of float's.
  std::uniform_int_distribution<uint32_t> half_range(97u << 23, 144u << 23);
  for (int i = 0; i < 400000; ++i) {
    const uint32_t sign = any_bits(rng) & 0x80000000u;
    const float near = float_of(sign | half_range(rng));
    const float any = float_of(any_bits(rng));
    INFO("float bits 0x" << std::hex << bits_of(near) << " / 0x" << bits_of(any));
    REQUIRE(same(binary16_to_float(float_to_binary16(near)), reference_round(near, kBinary16)));
    if (std::isnan(any)) continue;
    REQUIRE(same(binary16_to_float(float_to_binary16(any)), reference_round(any, kBinary16)));
    REQUIRE(same(bfloat16_to_float(float_to_bfloat16(any)), reference_round(any, kBFloat16)));
  }
}

TEST_CASE("binary16 ties, overflow, subnormals and signed zero") {
  CHECK(float_to_binary16(1.0f + 0x1p-11f) == 0x3c00);           // tie: to the even 1
  CHECK(float_to_binary16(1.0f + 3 * 0x1p-11f) == 0x3c02);       // tie: up to the even one
  CHECK(float_to_binary16(65504.0f) == 0x7bff);                  // the largest finite
  CHECK(float_to_binary16(65519.996f) == 0x7bff);                // just below the tie
  CHECK(float_to_binary16(65520.0f) == 0x7c00);                  // tie to even: overflows
  CHECK(float_to_binary16(-1e30f) == 0xfc00);
  CHECK(float_to_binary16(INFINITY) == 0x7c00);
  CHECK(float_to_binary16(0x1p-24f) == 0x0001);                  // the smallest subnormal
  CHECK(float_to_binary16(0x1p-25f) == 0x0000);                  // tie: to the even 0
  CHECK(float_to_binary16(0x1.000002p-25f) == 0x0001);           // just above the tie
  CHECK(float_to_binary16(-0x1p-26f) == 0x8000);                 // underflow keeps the sign
  CHECK(float_to_binary16(0x1.ffcp-15f) == 0x0400);              // tie: up to the smallest normal
  CHECK(float_to_binary16(std::numeric_limits<float>::denorm_min()) == 0x0000);
  CHECK(float_to_binary16(-0.0f) == 0x8000);
  CHECK(binary16_to_float(0x0001) == 0x1p-24f);
  CHECK(binary16_to_float(0x03ff) == 0x3ffp-24f);                // the largest subnormal
  const uint16_t nan = float_to_binary16(-NAN);
  CHECK(((nan & 0x7c00) == 0x7c00 && (nan & 0x3ff) != 0 && (nan & 0x8000) != 0));
}

TEST_CASE("bfloat16 ties, overflow, subnormals and NaN") {
  CHECK(float_to_bfloat16(1.0f + 0x1p-8f) == 0x3f80);       // tie: to the even 1
  CHECK(float_to_bfloat16(1.0f + 3 * 0x1p-8f) == 0x3f82);   // tie: up to the even one
  CHECK(float_to_bfloat16(std::numeric_limits<float>::max()) == 0x7f80);  // overflows
  CHECK(float_to_bfloat16(0x1.fep127f) == 0x7f7f);          // the largest finite
  CHECK(float_to_bfloat16(std::numeric_limits<float>::denorm_min()) == 0x0000);  // tie to 0
  CHECK(float_to_bfloat16(3 * std::numeric_limits<float>::denorm_min()) == 0x0000);
  CHECK(float_to_bfloat16(0x1p-133f) == 0x0001);            // the smallest subnormal
  CHECK(float_to_bfloat16(-0.0f) == 0x8000);
  // A NaN whose payload lies only in the low half must not become infinity.
  const uint16_t nan = float_to_bfloat16(float_of(0x7f800001u));
  CHECK(((nan & 0x7f80) == 0x7f80 && (nan & 0x7f) != 0));
}

TEST_CASE("16-bit float reductions compute in float and round once") {
  std::mt19937 rng(7);
  std::uniform_int_distribution<uint32_t> any_bits(0, 0xffff);
  const size_t n = 4099;
  std::vector<Float16> h_in(n), h_inout(n);
  std::vector<BFloat16> b_in(n), b_inout(n);
  for (size_t i = 0; i < n; ++i) {
    h_in[i].bits = uint16_t(any_bits(rng));
    h_inout[i].bits = uint16_t(any_bits(rng));
    b_in[i].bits = uint16_t(any_bits(rng));
    b_inout[i].bits = uint16_t(any_bits(rng));
  }
  struct Case {
    MPI_Op op;
    float (*in_float)(float, float);
  };
  const Case cases[] = {
      {MPI_SUM, [](float a, float b) { return a + b; }},
      {MPI_PROD, [](float a, float b) { return a * b; }},
      {MPI_MAX, [](float a, float b) { return a > b ? a : b; }},
      {MPI_MIN, [](float a, float b) { return a < b ? a : b; }},
  };
  for (const Case& c : cases) {
    const std::vector<Float16> h = host_reduce(c.op, MPIX_C_FLOAT16, h_in, h_inout);
    const std::vector<BFloat16> b = host_reduce(c.op, MPIX_BFLOAT16, b_in, b_inout);
    for (size_t i = 0; i < n; ++i) {
      INFO(op_name(c.op) << " element " << i);
      const float hf = c.in_float(float(reference_binary16(h_in[i].bits)),
                                  float(reference_binary16(h_inout[i].bits)));
      REQUIRE(same(reference_binary16(h[i].bits), reference_round(hf, kBinary16)));
      const float bf = c.in_float(float_of(uint32_t(b_in[i].bits) << 16),
                                  float_of(uint32_t(b_inout[i].bits) << 16));
      REQUIRE(same(float_of(uint32_t(b[i].bits) << 16), reference_round(bf, kBFloat16)));
    }
  }
}

TEST_CASE("the 16-bit floats take only the arithmetic ops") {
  OpTable table;
  Reduction r;
  for (MPI_Datatype type : {MPIX_C_FLOAT16, MPIX_BFLOAT16}) {
    for (MPI_Op op : {MPI_SUM, MPI_PROD, MPI_MAX, MPI_MIN, MPI_REPLACE, MPI_NO_OP})
      CHECK(table.bind(op, type, 2, &r).ok());
    for (MPI_Op op : {MPI_LAND, MPI_BOR, MPI_MAXLOC}) {
      const Status s = table.bind(op, type, 2, &r);
      CHECK(s.error_class == MPI_ERR_OP);
      CHECK_THAT(s.message, Catch::Contains(type == MPIX_C_FLOAT16 ? "MPIX_C_FLOAT16"
                                                                     : "MPIX_BFLOAT16"));
    }
  }
}
