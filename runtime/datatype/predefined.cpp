// The table of predefined datatypes, indexed by the handle values of include/mpi.h.
#include "runtime/datatype/predefined.hpp"

#include <complex>
#include <cstddef>

namespace weft {
namespace {

template <typename A, typename B>
struct Pair {
  A a;
  B b;
};

using K = ScalarKind;

template <typename T>
constexpr PredefinedType scalar(const char* name, uint8_t external, K kind) {
  return {name, sizeof(T), sizeof(T), alignof(T), false, 1, {{0, sizeof(T), external, kind}, {}}};
}

// Fortran types of a fixed size, whose C counterpart is T.
template <typename T>
constexpr PredefinedType fixed(const char* name, K kind) {
  return scalar<T>(name, sizeof(T), kind);
}

template <typename T>
constexpr PredefinedType complex_of(const char* name, uint8_t part_external, K kind) {
  return {name,
          sizeof(std::complex<T>),
          sizeof(std::complex<T>),
          alignof(std::complex<T>),
          false,
          2,
          {{0, sizeof(T), part_external, kind}, {sizeof(T), sizeof(T), part_external, kind}}};
}

// The C struct {A; B}: size sizeof(A) + sizeof(B), extent sizeof the struct (padding included).
template <typename A, typename B>
constexpr PredefinedType pair_of(const char* name, uint8_t a_external, K a_kind) {
  using P = Pair<A, B>;
  return {name,
          sizeof(A) + sizeof(B),
          sizeof(P),
          alignof(P),
          true,
          2,
          {{0, sizeof(A), a_external, a_kind}, {offsetof(P, b), sizeof(B), 4, K::kSigned}}};
}

template <typename T>
constexpr PredefinedType same_pair(const char* name, K kind) {
  return {name,
          2 * sizeof(T),
          2 * sizeof(T),
          alignof(T),
          true,
          2,
          {{0, sizeof(T), sizeof(T), kind}, {sizeof(T), sizeof(T), sizeof(T), kind}}};
}

// External32 sizes: MPI 4.0 §14.5.2 (e.g. MPI_LONG is 4 bytes, MPI_LONG_DOUBLE 16).
constexpr PredefinedType kTable[] = {
    {"MPI_DATATYPE_NULL", 0, 0, 1, false, 0, {}},
    scalar<char>("MPI_CHAR", 1, K::kRaw),
    scalar<signed char>("MPI_SIGNED_CHAR", 1, K::kRaw),
    scalar<unsigned char>("MPI_UNSIGNED_CHAR", 1, K::kRaw),
    scalar<unsigned char>("MPI_BYTE", 1, K::kRaw),
    scalar<short>("MPI_SHORT", 2, K::kSigned),
    scalar<unsigned short>("MPI_UNSIGNED_SHORT", 2, K::kUnsigned),
    scalar<int>("MPI_INT", 4, K::kSigned),
    scalar<unsigned>("MPI_UNSIGNED", 4, K::kUnsigned),
    scalar<long>("MPI_LONG", 4, K::kSigned),
    scalar<unsigned long>("MPI_UNSIGNED_LONG", 4, K::kUnsigned),
    scalar<long long>("MPI_LONG_LONG_INT", 8, K::kSigned),
    scalar<unsigned long long>("MPI_UNSIGNED_LONG_LONG", 8, K::kUnsigned),
    scalar<float>("MPI_FLOAT", 4, K::kFloat),
    scalar<double>("MPI_DOUBLE", 8, K::kFloat),
    scalar<long double>("MPI_LONG_DOUBLE", 16, K::kLongDouble),
    scalar<wchar_t>("MPI_WCHAR", 4, K::kSigned),
    scalar<bool>("MPI_C_BOOL", 1, K::kRaw),
    fixed<int8_t>("MPI_INT8_T", K::kSigned),
    fixed<int16_t>("MPI_INT16_T", K::kSigned),
    fixed<int32_t>("MPI_INT32_T", K::kSigned),
    fixed<int64_t>("MPI_INT64_T", K::kSigned),
    fixed<uint8_t>("MPI_UINT8_T", K::kUnsigned),
    fixed<uint16_t>("MPI_UINT16_T", K::kUnsigned),
    fixed<uint32_t>("MPI_UINT32_T", K::kUnsigned),
    fixed<uint64_t>("MPI_UINT64_T", K::kUnsigned),
    complex_of<float>("MPI_C_FLOAT_COMPLEX", 4, K::kFloat),
    complex_of<double>("MPI_C_DOUBLE_COMPLEX", 8, K::kFloat),
    complex_of<long double>("MPI_C_LONG_DOUBLE_COMPLEX", 16, K::kLongDouble),
    scalar<MPI_Aint>("MPI_AINT", 8, K::kSigned),
    scalar<MPI_Offset>("MPI_OFFSET", 8, K::kSigned),
    scalar<MPI_Count>("MPI_COUNT", 8, K::kSigned),
    scalar<unsigned char>("MPI_PACKED", 1, K::kRaw),
    pair_of<float, int>("MPI_FLOAT_INT", 4, K::kFloat),
    pair_of<double, int>("MPI_DOUBLE_INT", 8, K::kFloat),
    pair_of<long, int>("MPI_LONG_INT", 4, K::kSigned),
    pair_of<int, int>("MPI_2INT", 4, K::kSigned),
    pair_of<short, int>("MPI_SHORT_INT", 2, K::kSigned),
    pair_of<long double, int>("MPI_LONG_DOUBLE_INT", 16, K::kLongDouble),
    scalar<bool>("MPI_CXX_BOOL", 1, K::kRaw),
    complex_of<float>("MPI_CXX_FLOAT_COMPLEX", 4, K::kFloat),
    complex_of<double>("MPI_CXX_DOUBLE_COMPLEX", 8, K::kFloat),
    complex_of<long double>("MPI_CXX_LONG_DOUBLE_COMPLEX", 16, K::kLongDouble),
    fixed<char>("MPI_CHARACTER", K::kRaw),
    fixed<int32_t>("MPI_INTEGER", K::kSigned),
    fixed<float>("MPI_REAL", K::kFloat),
    fixed<double>("MPI_DOUBLE_PRECISION", K::kFloat),
    fixed<uint32_t>("MPI_LOGICAL", K::kUnsigned),
    complex_of<float>("MPI_COMPLEX", 4, K::kFloat),
    complex_of<double>("MPI_DOUBLE_COMPLEX", 8, K::kFloat),
    same_pair<int32_t>("MPI_2INTEGER", K::kSigned),
    same_pair<float>("MPI_2REAL", K::kFloat),
    same_pair<double>("MPI_2DOUBLE_PRECISION", K::kFloat),
    fixed<int8_t>("MPI_INTEGER1", K::kSigned),
    fixed<int16_t>("MPI_INTEGER2", K::kSigned),
    fixed<int32_t>("MPI_INTEGER4", K::kSigned),
    fixed<int64_t>("MPI_INTEGER8", K::kSigned),
    fixed<float>("MPI_REAL4", K::kFloat),
    fixed<double>("MPI_REAL8", K::kFloat),
    // Fortran REAL*16 is IEEE binary128 (gfortran's quad precision).
    {"MPI_REAL16", 16, 16, 16, false, 1, {{0, 16, 16, K::kFloat}, {}}},
    // external32 writes a 16-byte integer big-endian at its own size: a byte swap, as for floats.
    {"MPI_INTEGER16",
     sizeof(__int128),
     sizeof(__int128),
     alignof(__int128),
     false,
     1,
     {{0, 16, 16, K::kFloat}, {}}},
    complex_of<float>("MPI_COMPLEX8", 4, K::kFloat),
    complex_of<double>("MPI_COMPLEX16", 8, K::kFloat),
    {"MPI_COMPLEX32", 32, 32, 16, false, 2, {{0, 16, 16, K::kFloat}, {16, 16, 16, K::kFloat}}},
    // The MPI-1 bound markers: no data, no extent (runtime/c_api/ honours them in struct types).
    {"MPI_LB", 0, 0, 1, false, 0, {}},
    {"MPI_UB", 0, 0, 1, false, 0, {}},
    // Weft's 16-bit floats; external32 (which has none) writes them big-endian, like the others.
    fixed<uint16_t>("MPIX_C_FLOAT16", K::kFloat),
    fixed<uint16_t>("MPIX_BFLOAT16", K::kFloat),
};
static_assert(sizeof(kTable) / sizeof(kTable[0]) == kLastPredefinedType + 1,
              "table must follow mpi.h numbering");

}  // namespace

const PredefinedType& predefined_type(MPI_Datatype h) { return kTable[h]; }

bool plain_bytes(MPI_Count count, MPI_Datatype type, size_t* bytes, size_t* elem) {
  if (count < 0 || !is_predefined_type(type)) return false;
  const PredefinedType& p = kTable[type];
  if (p.size == 0 || p.size != p.extent) return false;
  *bytes = size_t(count) * p.size;
  *elem = p.size;
  return true;
}

MPI_Datatype value_index_pair(MPI_Datatype value, MPI_Datatype index) {
  struct Pair {
    MPI_Datatype value, index, pair;
  };
  static constexpr Pair kPairs[] = {
      {MPI_FLOAT, MPI_INT, MPI_FLOAT_INT},
      {MPI_DOUBLE, MPI_INT, MPI_DOUBLE_INT},
      {MPI_LONG, MPI_INT, MPI_LONG_INT},
      {MPI_INT, MPI_INT, MPI_2INT},
      {MPI_SHORT, MPI_INT, MPI_SHORT_INT},
      {MPI_LONG_DOUBLE, MPI_INT, MPI_LONG_DOUBLE_INT},
      {MPI_REAL, MPI_REAL, MPI_2REAL},
      {MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, MPI_2DOUBLE_PRECISION},
      {MPI_INTEGER, MPI_INTEGER, MPI_2INTEGER},
  };
  for (const Pair& p : kPairs)
    if (p.value == value && p.index == index) return p.pair;
  return MPI_DATATYPE_NULL;
}

}  // namespace weft
