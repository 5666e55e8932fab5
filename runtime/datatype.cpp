// The table of predefined datatypes, indexed by the handle values of include/mpi.h.
#include "runtime/datatype.hpp"

#include <complex>
#include <cstdint>
#include <string>

#include "mpi.h"

namespace weft {
namespace {

template <typename A, typename B>
struct Pair {
  A a;
  B b;
};

constexpr DatatypeInfo kPredefined[] = {
    {"MPI_DATATYPE_NULL", 0},
    {"MPI_CHAR", sizeof(char)},
    {"MPI_SIGNED_CHAR", sizeof(signed char)},
    {"MPI_UNSIGNED_CHAR", sizeof(unsigned char)},
    {"MPI_BYTE", 1},
    {"MPI_SHORT", sizeof(short)},
    {"MPI_UNSIGNED_SHORT", sizeof(unsigned short)},
    {"MPI_INT", sizeof(int)},
    {"MPI_UNSIGNED", sizeof(unsigned)},
    {"MPI_LONG", sizeof(long)},
    {"MPI_UNSIGNED_LONG", sizeof(unsigned long)},
    {"MPI_LONG_LONG_INT", sizeof(long long)},
    {"MPI_UNSIGNED_LONG_LONG", sizeof(unsigned long long)},
    {"MPI_FLOAT", sizeof(float)},
    {"MPI_DOUBLE", sizeof(double)},
    {"MPI_LONG_DOUBLE", sizeof(long double)},
    {"MPI_WCHAR", sizeof(wchar_t)},
    {"MPI_C_BOOL", sizeof(bool)},
    {"MPI_INT8_T", 1},
    {"MPI_INT16_T", 2},
    {"MPI_INT32_T", 4},
    {"MPI_INT64_T", 8},
    {"MPI_UINT8_T", 1},
    {"MPI_UINT16_T", 2},
    {"MPI_UINT32_T", 4},
    {"MPI_UINT64_T", 8},
    {"MPI_C_FLOAT_COMPLEX", sizeof(std::complex<float>)},
    {"MPI_C_DOUBLE_COMPLEX", sizeof(std::complex<double>)},
    {"MPI_C_LONG_DOUBLE_COMPLEX", sizeof(std::complex<long double>)},
    {"MPI_AINT", sizeof(MPI_Aint)},
    {"MPI_OFFSET", sizeof(MPI_Offset)},
    {"MPI_COUNT", sizeof(MPI_Count)},
    {"MPI_PACKED", 1},
    {"MPI_FLOAT_INT", sizeof(Pair<float, int>)},
    {"MPI_DOUBLE_INT", sizeof(Pair<double, int>)},
    {"MPI_LONG_INT", sizeof(Pair<long, int>)},
    {"MPI_2INT", sizeof(Pair<int, int>)},
    {"MPI_SHORT_INT", sizeof(Pair<short, int>)},
    {"MPI_LONG_DOUBLE_INT", sizeof(Pair<long double, int>)},
    {"MPI_CXX_BOOL", sizeof(bool)},
    {"MPI_CXX_FLOAT_COMPLEX", sizeof(std::complex<float>)},
    {"MPI_CXX_DOUBLE_COMPLEX", sizeof(std::complex<double>)},
    {"MPI_CXX_LONG_DOUBLE_COMPLEX", sizeof(std::complex<long double>)},
    {"MPI_CHARACTER", 1},
    {"MPI_INTEGER", 4},
    {"MPI_REAL", 4},
    {"MPI_DOUBLE_PRECISION", 8},
    {"MPI_LOGICAL", 4},
    {"MPI_COMPLEX", 8},
    {"MPI_DOUBLE_COMPLEX", 16},
    {"MPI_2INTEGER", 8},
    {"MPI_2REAL", 8},
    {"MPI_2DOUBLE_PRECISION", 16},
    {"MPI_INTEGER1", 1},
    {"MPI_INTEGER2", 2},
    {"MPI_INTEGER4", 4},
    {"MPI_INTEGER8", 8},
    {"MPI_REAL4", 4},
    {"MPI_REAL8", 8},
    {"MPI_REAL16", 16},
};
constexpr int kNumPredefined = sizeof(kPredefined) / sizeof(kPredefined[0]);
static_assert(kNumPredefined == MPI_REAL16 + 1, "table must follow mpi.h numbering");

}  // namespace

Status lookup_datatype(int handle, const char* arg, const DatatypeInfo** out) {
  if (handle <= 0 || handle >= kNumPredefined) {
    return Status::error(MPI_ERR_TYPE, std::string("invalid datatype ") + arg + "=" +
                                           (handle == 0 ? "MPI_DATATYPE_NULL" : std::to_string(handle)));
  }
  *out = &kPredefined[handle];
  return Status::success();
}

}  // namespace weft
