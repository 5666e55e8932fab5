// The element functors the host and device kernels share (runtime/op/functors.hpp), run on the
// host: the device's Complex against std::complex (which the host kernels use) bit for bit on
// finite values, packed MAXLOC/MINLOC pairs at unaligned addresses, and the host kernels of
// integer op against plain arithmetic, one element at a time.
#include <catch2/catch.hpp>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "runtime/op/functors.hpp"
#include "runtime/op/op.hpp"

using namespace weft;

namespace {

template <typename T>
void check_complex_matches_std(int seed) {
  std::mt19937 rng(seed);
  // Finite operands whose products stay finite: std::complex differs from the plain formula
  // only where that formula gives NaN.
  std::uniform_real_distribution<T> value(-1e6, 1e6);
  for (int i = 0; i < 100000; ++i) {
    const T a = value(rng), b = value(rng), c = value(rng), d = value(rng);
    const std::complex<T> x(a, b), y(c, d);
    const std::complex<T> std_sum = x + y, std_prod = x * y;
    const Complex<T> sum = Sum::apply(Complex<T>{a, b}, Complex<T>{c, d});
    const Complex<T> prod = Prod::apply(Complex<T>{a, b}, Complex<T>{c, d});
    INFO("(" << a << ", " << b << ") op (" << c << ", " << d << ")");
    REQUIRE(std::memcmp(&sum, &std_sum, sizeof sum) == 0);
    REQUIRE(std::memcmp(&prod, &std_prod, sizeof prod) == 0);
  }
}

}  // namespace

TEST_CASE("Complex sums and multiplies as std::complex does, bit for bit, on finite values") {
  check_complex_matches_std<float>(1);
  check_complex_matches_std<double>(2);
}

TEST_CASE("packed MAXLOC/MINLOC pairs reduce at any byte offset") {
  // MPI_DOUBLE_INT packed: 12 bytes per pair, so the second pair's double is misaligned; start
  // the buffers at an odd address as well.
  constexpr size_t kStride = sizeof(double) + sizeof(int);
  struct Pair {
    double value;
    int index;
  };
  const Pair in[] = {{2.5, 4}, {-1.0, 9}, {7.0, 3}};
  const Pair inout[] = {{2.5, 1}, {-3.0, 2}, {8.0, 5}};
  const Pair want_max[] = {{2.5, 1}, {-1.0, 9}, {8.0, 5}};
  const Pair want_min[] = {{2.5, 1}, {-3.0, 2}, {7.0, 3}};
  unsigned char a[1 + 3 * kStride], b[1 + 3 * kStride];
  for (int op = 0; op < 2; ++op) {
    for (size_t i = 0; i < 3; ++i) {
      std::memcpy(a + 1 + i * kStride, &in[i].value, 8);
      std::memcpy(a + 1 + i * kStride + 8, &in[i].index, 4);
      std::memcpy(b + 1 + i * kStride, &inout[i].value, 8);
      std::memcpy(b + 1 + i * kStride + 8, &inout[i].index, 4);
    }
    for (size_t i = 0; i < 3; ++i) {
      if (op == 0) {
        reduce_packed_pair<double, int, MaxLoc>(a + 1 + i * kStride, b + 1 + i * kStride);
      } else {
        reduce_packed_pair<double, int, MinLoc>(a + 1 + i * kStride, b + 1 + i * kStride);
      }
    }
    for (size_t i = 0; i < 3; ++i) {
      const Pair& want = op == 0 ? want_max[i] : want_min[i];
      double value;
      int index;
      std::memcpy(&value, b + 1 + i * kStride, 8);
      std::memcpy(&index, b + 1 + i * kStride + 8, 4);
      CHECK(value == want.value);
      CHECK(index == want.index);
    }
  }
}

TEST_CASE("the host kernels of the integer ops compute what the ops mean") {
  std::mt19937 rng(3);
  std::uniform_int_distribution<int> small(-1000, 1000);
  const size_t n = 1031;  // past any vector width, with a remainder
  std::vector<int64_t> in(n), inout(n);
  for (size_t i = 0; i < n; ++i) in[i] = small(rng), inout[i] = small(rng) % 3;
  struct Case {
    MPI_Op op;
    int64_t (*apply)(int64_t, int64_t);
  };
  const Case cases[] = {
      {MPI_SUM, [](int64_t a, int64_t b) { return a + b; }},
      {MPI_PROD, [](int64_t a, int64_t b) { return a * b; }},
      {MPI_MAX, [](int64_t a, int64_t b) { return std::max(a, b); }},
      {MPI_MIN, [](int64_t a, int64_t b) { return std::min(a, b); }},
      {MPI_LAND, [](int64_t a, int64_t b) { return int64_t(a != 0 && b != 0); }},
      {MPI_LOR, [](int64_t a, int64_t b) { return int64_t(a != 0 || b != 0); }},
      {MPI_LXOR, [](int64_t a, int64_t b) { return int64_t((a != 0) != (b != 0)); }},
      {MPI_BAND, [](int64_t a, int64_t b) { return a & b; }},
      {MPI_BOR, [](int64_t a, int64_t b) { return a | b; }},
      {MPI_BXOR, [](int64_t a, int64_t b) { return a ^ b; }},
  };
  for (const Case& c : cases) {
    const ReduceKernel kernel = predefined_kernel(c.op, MPI_INT64_T, sizeof(int64_t));
    REQUIRE(kernel != nullptr);
    std::vector<int64_t> got = inout;
    kernel(in.data(), got.data(), n);
    for (size_t i = 0; i < n; ++i) {
      INFO(op_name(c.op) << " element " << i << ": " << in[i] << ", " << inout[i]);
      REQUIRE(got[i] == c.apply(in[i], inout[i]));
    }
  }
}
