// MPI_Type_create_f90_integer/real/complex (MPI 4.1 §19.1.9): the type of a Fortran variable
// declared with the KIND that selected_int_kind(r) / selected_real_kind(p, r) gives, mapped to
// the sized predefined types (gfortran's kinds: REAL 4, 8 and 16; INTEGER 1, 2, 4, 8 and 16). The
// result behaves as a predefined type (it cannot be freed) whose envelope names the combiner and
// the (p, r) it was asked with; the same arguments give the same handle.
#include <map>
#include <string>
#include <tuple>

#include "runtime/c_api/datatype_args.hpp"
#include "runtime/datatype/build.hpp"

using weft::Status;
using weft::capi::kTypeErrors;
namespace capi = weft::capi;

namespace {

struct Kind {
  int precision, range;  // decimal digits and exponent range (-1: no such bound)
  MPI_Datatype real, complex;
};
// gfortran on x86-64: REAL(4), REAL(8), REAL(16) (binary128).
constexpr Kind kRealKinds[] = {
    {6, 37, MPI_REAL4, MPI_COMPLEX8},
    {15, 307, MPI_REAL8, MPI_COMPLEX16},
    {33, 4931, MPI_REAL16, MPI_COMPLEX32},
};
struct IntegerKind {
  int range;
  MPI_Datatype type;
};
constexpr IntegerKind kIntegerKinds[] = {
    {2, MPI_INTEGER1}, {4, MPI_INTEGER2}, {9, MPI_INTEGER4}, {18, MPI_INTEGER8},
    {38, MPI_INTEGER16},
};

// The handles made so far, by (combiner, p, r).
std::map<std::tuple<int, int, int>, MPI_Datatype>& made() {
  static std::map<std::tuple<int, int, int>, MPI_Datatype> table;
  return table;
}

int create(const char* fn, int combiner, int p, int r, MPI_Datatype* newtype) {
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_CHECK(kTypeErrors, fn, capi::check_not_null(newtype, "newtype"));
  MPI_Datatype base = MPI_DATATYPE_NULL;
  if (combiner == MPI_COMBINER_F90_INTEGER) {
    for (const IntegerKind& k : kIntegerKinds) {
      if (r != MPI_UNDEFINED && r >= 0 && r <= k.range) {
        base = k.type;
        break;
      }
    }
  } else {
    for (const Kind& k : kRealKinds) {
      const bool p_ok = p == MPI_UNDEFINED || (p >= 0 && p <= k.precision);
      const bool r_ok = r == MPI_UNDEFINED || (r >= 0 && r <= k.range);
      if (p_ok && r_ok && (p != MPI_UNDEFINED || r != MPI_UNDEFINED)) {
        base = combiner == MPI_COMBINER_F90_REAL ? k.real : k.complex;
        break;
      }
    }
  }
  if (base == MPI_DATATYPE_NULL) {
    const std::string what =
        combiner == MPI_COMBINER_F90_INTEGER
            ? "r=" + std::to_string(r) + " (no INTEGER kind has a decimal range of r digits; at most 38)"
            : "p=" + std::to_string(p) + ", r=" + std::to_string(r) +
                  " (no REAL kind has precision p and exponent range r; at most p=33, r=4931, "
                  "and MPI_UNDEFINED for at most one of them)";
    return capi::report(kTypeErrors, fn, Status::error(MPI_ERR_ARG, "invalid " + what));
  }
  auto& table = made();
  const auto key = std::make_tuple(combiner, p, r);
  if (auto it = table.find(key); it != table.end() && weft::datatypes().find(it->second)) {
    *newtype = it->second;
    return MPI_SUCCESS;
  }
  weft::TypeRef predefined;
  WEFT_CHECK(kTypeErrors, fn, capi::find_old_type(base, "base", &predefined));
  weft::EnvelopeInts ints;
  if (combiner != MPI_COMBINER_F90_INTEGER) ints.add_int(p);
  ints.add_int(r);
  std::shared_ptr<weft::Datatype> type = predefined->copy(ints.finish(combiner, {}, {}));
  type->set_name(predefined->name());
  capi::register_type(std::move(type), newtype);
  table[key] = *newtype;
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int PMPI_Type_create_f90_integer(int r, MPI_Datatype* newtype) {
  return create("MPI_Type_create_f90_integer", MPI_COMBINER_F90_INTEGER, MPI_UNDEFINED, r,
                newtype);
}

int PMPI_Type_create_f90_real(int p, int r, MPI_Datatype* newtype) {
  return create("MPI_Type_create_f90_real", MPI_COMBINER_F90_REAL, p, r, newtype);
}

int PMPI_Type_create_f90_complex(int p, int r, MPI_Datatype* newtype) {
  return create("MPI_Type_create_f90_complex", MPI_COMBINER_F90_COMPLEX, p, r, newtype);
}

}  // extern "C"

WEFT_MPI_ALIAS(MPI_Type_create_f90_integer)
WEFT_MPI_ALIAS(MPI_Type_create_f90_real)
WEFT_MPI_ALIAS(MPI_Type_create_f90_complex)
