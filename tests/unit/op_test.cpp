// Reduction kernels and the op table: each predefined op's result on the types it is defined
// for, the combinations the standard rules out, MAXLOC/MINLOC ties, the non-commutative
// REPLACE/NO_OP, and user ops (chunked calls, freeing, commutativity).
#include <catch2/catch.hpp>

#include <complex>
#include <cstdint>
#include <vector>

#include "runtime/op/op.hpp"

using namespace weft;

namespace {

template <typename T>
std::vector<T> reduce(MPI_Op op, MPI_Datatype type, std::vector<T> in, std::vector<T> inout) {
  OpTable table;
  Reduction r;
  REQUIRE(table.bind(op, type, sizeof(T), &r).ok());
  r.apply(in.data(), inout.data(), in.size());
  return inout;
}

bool defined(MPI_Op op, MPI_Datatype type, size_t size) {
  OpTable table;
  Reduction r;
  return table.bind(op, type, size, &r).ok();
}

struct FloatInt {
  float value;
  int index;
};

int g_user_calls = 0;
void user_sum(void* in, void* inout, int* len, MPI_Datatype* type) {
  ++g_user_calls;
  CHECK(*type == MPI_INT);
  auto* a = static_cast<int*>(in);
  auto* b = static_cast<int*>(inout);
  for (int i = 0; i < *len; ++i) b[i] += a[i];
}

}  // namespace

TEST_CASE("arithmetic ops on integer and floating types") {
  CHECK(reduce<int>(MPI_SUM, MPI_INT, {1, -2, 3}, {10, 20, 30}) == std::vector<int>{11, 18, 33});
  CHECK(reduce<int>(MPI_PROD, MPI_INT, {2, -2, 3}, {10, 20, 0}) == std::vector<int>{20, -40, 0});
  CHECK(reduce<int64_t>(MPI_MAX, MPI_INT64_T, {5, -7}, {3, -9}) == std::vector<int64_t>{5, -7});
  CHECK(reduce<unsigned char>(MPI_MIN, MPI_UNSIGNED_CHAR, {5, 200}, {3, 250}) ==
        std::vector<unsigned char>{3, 200});
  CHECK(reduce<double>(MPI_SUM, MPI_DOUBLE, {0.5, 1.25}, {1.0, -1.0}) ==
        std::vector<double>{1.5, 0.25});
  CHECK(reduce<float>(MPI_MAX, MPI_FLOAT, {1.5f, -2.0f}, {1.0f, -1.0f}) ==
        std::vector<float>{1.5f, -1.0f});
  CHECK(reduce<uint16_t>(MPI_SUM, MPI_UINT16_T, {65535}, {2}) == std::vector<uint16_t>{1});
}

TEST_CASE("vectorized kernels agree with scalar arithmetic on long vectors") {
  std::vector<float> a(1027), b(1027), want(1027);
  for (size_t i = 0; i < a.size(); ++i) {
    a[i] = float(i % 97) * 0.5f;
    b[i] = float(i % 13) - 6.0f;
    want[i] = a[i] > b[i] ? a[i] : b[i];
  }
  CHECK(reduce<float>(MPI_MAX, MPI_FLOAT, a, b) == want);
  std::vector<int32_t> x(1029), y(1029), sum(1029);
  for (size_t i = 0; i < x.size(); ++i) {
    x[i] = int32_t(i * 7);
    y[i] = int32_t(1000 - i);
    sum[i] = x[i] + y[i];
  }
  CHECK(reduce<int32_t>(MPI_SUM, MPI_INT32_T, x, y) == sum);
}

TEST_CASE("logical and bitwise ops") {
  CHECK(reduce<int>(MPI_LAND, MPI_INT, {0, 2, 3}, {5, 0, -1}) == std::vector<int>{0, 0, 1});
  CHECK(reduce<int>(MPI_LOR, MPI_INT, {0, 0, 3}, {0, 7, 0}) == std::vector<int>{0, 1, 1});
  CHECK(reduce<int>(MPI_LXOR, MPI_INT, {0, 4, 3}, {0, 0, 9}) == std::vector<int>{0, 1, 0});
  CHECK(reduce<unsigned char>(MPI_BAND, MPI_BYTE, {0xF0, 0x0F}, {0xFF, 0x01}) ==
        std::vector<unsigned char>{0xF0, 0x01});
  CHECK(reduce<unsigned>(MPI_BXOR, MPI_UNSIGNED, {0xF0F0u}, {0xFFFFu}) ==
        std::vector<unsigned>{0x0F0Fu});
  const std::vector<char> t = reduce<char>(MPI_LOR, MPI_C_BOOL, {0, 1}, {0, 0});
  CHECK((t[0] == 0 && t[1] == 1));
}

TEST_CASE("complex sum and product") {
  using C = std::complex<double>;
  const std::vector<C> p = reduce<C>(MPI_PROD, MPI_C_DOUBLE_COMPLEX, {C(1, 2)}, {C(3, -1)});
  CHECK(p[0] == C(5, 5));
  CHECK(reduce<C>(MPI_SUM, MPI_C_DOUBLE_COMPLEX, {C(1, 2)}, {C(3, -1)})[0] == C(4, 1));
}

TEST_CASE("MAXLOC and MINLOC keep the value's index and break ties to the smaller index") {
  const std::vector<FloatInt> in = {{3.0f, 7}, {1.0f, 2}, {5.0f, 9}};
  const std::vector<FloatInt> inout = {{2.0f, 1}, {1.0f, 4}, {5.0f, 3}};
  const std::vector<FloatInt> mx = reduce<FloatInt>(MPI_MAXLOC, MPI_FLOAT_INT, in, inout);
  CHECK((mx[0].value == 3.0f && mx[0].index == 7));
  CHECK((mx[1].value == 1.0f && mx[1].index == 2));  // tie: smaller index
  CHECK((mx[2].value == 5.0f && mx[2].index == 3));
  const std::vector<FloatInt> mn = reduce<FloatInt>(MPI_MINLOC, MPI_FLOAT_INT, in, inout);
  CHECK((mn[0].value == 2.0f && mn[0].index == 1));
  CHECK((mn[1].index == 2));
}

TEST_CASE("REPLACE keeps the right operand, NO_OP takes the left; both are non-commutative") {
  CHECK(reduce<int>(MPI_REPLACE, MPI_INT, {1, 2}, {8, 9}) == std::vector<int>{8, 9});
  CHECK(reduce<double>(MPI_NO_OP, MPI_DOUBLE, {1, 2}, {8, 9}) == std::vector<double>{1, 2});
  OpTable table;
  bool commutative = true;
  REQUIRE(table.commutative(MPI_REPLACE, "op", &commutative).ok());
  CHECK_FALSE(commutative);
  REQUIRE(table.commutative(MPI_SUM, "op", &commutative).ok());
  CHECK(commutative);
}

TEST_CASE("ops the standard does not define for a type are refused with MPI_ERR_OP") {
  CHECK_FALSE(defined(MPI_SUM, MPI_C_BOOL, 1));
  CHECK_FALSE(defined(MPI_MAX, MPI_C_DOUBLE_COMPLEX, 16));
  CHECK_FALSE(defined(MPI_BAND, MPI_DOUBLE, 8));
  CHECK_FALSE(defined(MPI_MAXLOC, MPI_INT, 4));
  CHECK_FALSE(defined(MPI_SUM, MPI_WCHAR, 4));
  CHECK_FALSE(defined(MPI_OP_NULL, MPI_INT, 4));
  CHECK(defined(MPI_LAND, MPI_C_BOOL, 1));
  CHECK(defined(MPI_BXOR, MPI_BYTE, 1));
  OpTable table;
  Reduction r;
  const Status s = table.bind(MPI_SUM, MPI_C_BOOL, 1, &r);
  CHECK(s.error_class == MPI_ERR_OP);
  CHECK(s.message == "MPI_SUM is not defined for datatype MPI_C_BOOL");
}

TEST_CASE("leniency: MPI_CHAR reduces as a C integer, as in Open MPI and MPICH") {
  // OSU's osu_allreduce reduces MPI_CHAR with MPI_SUM by default.
  CHECK(reduce<char>(MPI_SUM, MPI_CHAR, {1, 2, 3}, {10, 20, 30}) == std::vector<char>{11, 22, 33});
  CHECK(reduce<char>(MPI_PROD, MPI_CHAR, {2, 3}, {4, 5}) == std::vector<char>{8, 15});
  CHECK(reduce<char>(MPI_MAX, MPI_CHAR, {7, 1}, {3, 9}) == std::vector<char>{7, 9});
  CHECK(reduce<char>(MPI_MIN, MPI_CHAR, {7, 1}, {3, 9}) == std::vector<char>{3, 1});
  CHECK(reduce<char>(MPI_LAND, MPI_CHAR, {1, 0}, {5, 5}) == std::vector<char>{1, 0});
  CHECK(reduce<char>(MPI_BXOR, MPI_CHAR, {6}, {3}) == std::vector<char>{5});
  // The standard's own one-byte integers, alike.
  CHECK(reduce<signed char>(MPI_SUM, MPI_SIGNED_CHAR, {-3, 100}, {1, 27}) ==
        std::vector<signed char>{-2, 127});
  CHECK(reduce<unsigned char>(MPI_MAX, MPI_UNSIGNED_CHAR, {200, 1}, {100, 255}) ==
        std::vector<unsigned char>{200, 255});
  for (MPI_Datatype t : {MPI_CHAR, MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR}) {
    for (MPI_Op op : {MPI_SUM, MPI_PROD, MPI_MAX, MPI_MIN, MPI_LAND, MPI_LOR, MPI_LXOR, MPI_BAND,
                      MPI_BOR, MPI_BXOR}) {
      CHECK(defined(op, t, 1));
    }
    CHECK_FALSE(defined(MPI_MAXLOC, t, 1));
  }
}

TEST_CASE("user ops get the data in one call, keep their commutativity and can be freed") {
  OpTable table;
  const MPI_Op op = table.create(user_sum, false);
  CHECK(op >= kFirstUserOp);
  Reduction r;
  REQUIRE(table.bind(op, MPI_INT, sizeof(int), &r).ok());
  CHECK_FALSE(r.commutative);
  std::vector<int> a = {1, 2, 3}, b = {10, 20, 30};
  g_user_calls = 0;
  r.apply(a.data(), b.data(), 3);
  CHECK(b == std::vector<int>{11, 22, 33});
  CHECK(g_user_calls == 1);

  MPI_Op freed = op;
  REQUIRE(table.free(&freed).ok());
  CHECK(freed == MPI_OP_NULL);
  CHECK(table.bind(op, MPI_INT, sizeof(int), &r).error_class == MPI_ERR_OP);
  MPI_Op sum = MPI_SUM;
  CHECK(table.free(&sum).error_class == MPI_ERR_OP);
  CHECK(table.create(user_sum, true) == op);  // the slot is reused
}
