// Datatype queries: size, extent and true extent (and their _x and _c forms), envelope and contents
// (and their _c forms) (MPI 4.0 §5.1.5, §5.1.13), MPI_Type_match_size, MPI 4.1's
// MPI_Type_get_value_index, and the MPI-1 MPI_Type_extent/lb/ub (removed in MPI 3.0).
#include <algorithm>
#include <climits>
#include <string>
#include <type_traits>

#include "runtime/c_api/datatype_args.hpp"
#include "runtime/datatype/predefined.hpp"

using weft::Status;
using weft::capi::kTypeErrors;
namespace capi = weft::capi;

namespace {

// The type and two non-NULL outputs of a two-value query.
Status check_query(MPI_Datatype datatype, const void* a, const char* a_arg, const void* b,
                   const char* b_arg, const weft::Datatype** t) {
  WEFT_TRY(weft::find_datatype(datatype, "datatype", t));
  WEFT_TRY(capi::check_not_null(a, a_arg));
  return capi::check_not_null(b, b_arg);
}

// `have` (a max_* argument of MPI_Type_get_contents or its _c form) holds `need` entries.
Status check_room(MPI_Count have, size_t need, const char* arg, const char* envelope_fn) {
  if (have >= 0 && size_t(have) >= need) return Status::success();
  return Status::error(MPI_ERR_ARG, std::string("invalid ") + arg + "=" + std::to_string(have) +
                                        " (the type's contents need " + std::to_string(need) +
                                        "; see " + envelope_fn + ")");
}

// MPI_Type_size and its _x and _c forms; the int form answers MPI_UNDEFINED for a size no int
// holds (MPI 4.0 §5.1.5).
template <typename T>
int type_size(const char* fn, MPI_Datatype datatype, T* size) {
  WEFT_REQUIRE_RUNNING(fn);
  const weft::Datatype* t = nullptr;
  WEFT_CHECK(kTypeErrors, fn, weft::find_datatype(datatype, "datatype", &t));
  WEFT_CHECK(kTypeErrors, fn, capi::check_not_null(size, "size"));
  if constexpr (std::is_same_v<T, int>) {
    *size = t->size() > size_t(INT_MAX) ? MPI_UNDEFINED : int(t->size());
  } else {
    *size = T(t->size());
  }
  return MPI_SUCCESS;
}

// MPI_Type_get_extent, or MPI_Type_get_true_extent (`true_bounds`), and their _x and _c forms
// (MPI_Aint or MPI_Count outputs, both wide enough for any extent).
template <typename T>
int type_extent(const char* fn, bool true_bounds, MPI_Datatype datatype, T* lb, T* extent) {
  WEFT_REQUIRE_RUNNING(fn);
  const weft::Datatype* t = nullptr;
  const char* lb_arg = true_bounds ? "true_lb" : "lb";
  const char* extent_arg = true_bounds ? "true_extent" : "extent";
  WEFT_CHECK(kTypeErrors, fn, check_query(datatype, lb, lb_arg, extent, extent_arg, &t));
  *lb = T(true_bounds ? t->true_lb() : t->lb());
  *extent = T(true_bounds ? t->true_extent() : t->extent());
  return MPI_SUCCESS;
}

// MPI_Type_lb and MPI_Type_ub (MPI-1, removed in MPI 3.0): one bound of the type.
int type_bound(const char* fn, MPI_Datatype datatype, MPI_Aint* displacement, bool upper) {
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_CHECK(kTypeErrors, fn, capi::check_not_null(displacement, "displacement"));
  MPI_Aint lb = 0, extent = 0;
  if (int rc = type_extent(fn, false, datatype, &lb, &extent); rc != MPI_SUCCESS) return rc;
  *displacement = upper ? lb + extent : lb;
  return MPI_SUCCESS;
}

// The int forms of MPI_Type_get_envelope/get_contents cannot describe a type that a large-count
// constructor made with values no int holds.
Status check_int_envelope(const weft::Datatype& t) {
  if (!t.envelope().ints_overflow) return Status::success();
  return Status::error(MPI_ERR_VALUE_TOO_LARGE,
                       std::string("datatype=") + t.label() +
                           " was made by a large-count constructor with values that no int "
                           "holds; its contents have no int form");
}

// MPI_Type_get_contents hands back predefined types as they are and derived ones as new handles
// the caller frees (MPI 4.0 §5.1.13).
MPI_Datatype returned_type(const weft::TypeRef& t) {
  if (t->is_predefined()) return t->handle();
  MPI_Datatype h = MPI_DATATYPE_NULL;
  capi::register_type(t->copy(t->envelope()), &h);
  return h;
}

// The arguments a form of MPI_Type_get_envelope/get_contents reports (MPI 4.0 §5.1.13): the
// _c forms (`large_form`) of a type that a _c constructor made see that constructor's int and
// MPI_Count arguments; every other query sees the int constructor's int and MPI_Aint arguments.
struct Contents {
  const int* ints;
  size_t n_ints;
  const MPI_Aint* aints;
  size_t n_aints;
  const MPI_Count* counts;
  size_t n_counts;
};

Contents contents_of(const weft::Envelope& e, bool large_form) {
  if (large_form && e.large)
    return {e.c_ints.data(), e.c_ints.size(), nullptr, 0, e.c_counts.data(), e.c_counts.size()};
  return {e.ints.data(), e.ints.size(), e.aints.data(), e.aints.size(), nullptr, 0};
}

// MPI_Type_get_envelope (N = int; no num_large_counts) and MPI_Type_get_envelope_c
// (N = MPI_Count).
template <typename N>
int get_envelope(const char* fn, MPI_Datatype datatype, N* num_integers, N* num_addresses,
                 N* num_large_counts, N* num_datatypes, int* combiner) {
  constexpr bool large_form = std::is_same_v<N, MPI_Count>;
  WEFT_REQUIRE_RUNNING(fn);
  const weft::Datatype* t = nullptr;
  WEFT_CHECK(
      kTypeErrors, fn,
      check_query(datatype, num_integers, "num_integers", num_addresses, "num_addresses", &t));
  if constexpr (large_form)
    WEFT_CHECK(kTypeErrors, fn, capi::check_not_null(num_large_counts, "num_large_counts"));
  WEFT_CHECK(kTypeErrors, fn, capi::check_not_null(num_datatypes, "num_datatypes"));
  WEFT_CHECK(kTypeErrors, fn, capi::check_not_null(combiner, "combiner"));
  if constexpr (!large_form) WEFT_CHECK(kTypeErrors, fn, check_int_envelope(*t));
  const weft::Envelope& e = t->envelope();
  const Contents c = contents_of(e, large_form);
  *num_integers = N(c.n_ints);
  *num_addresses = N(c.n_aints);
  if constexpr (large_form) *num_large_counts = N(c.n_counts);
  *num_datatypes = N(e.types.size());
  *combiner = e.combiner;
  return MPI_SUCCESS;
}

// MPI_Type_get_contents (N = int; no large counts) and MPI_Type_get_contents_c (N = MPI_Count).
template <typename N>
int get_contents(const char* fn, MPI_Datatype datatype, N max_integers, N max_addresses,
                 N max_large_counts, N max_datatypes, int array_of_integers[],
                 MPI_Aint array_of_addresses[], MPI_Count array_of_large_counts[],
                 MPI_Datatype array_of_datatypes[]) {
  constexpr bool large_form = std::is_same_v<N, MPI_Count>;
  const char* envelope_fn = large_form ? "MPI_Type_get_envelope_c" : "MPI_Type_get_envelope";
  WEFT_REQUIRE_RUNNING(fn);
  const weft::Datatype* t = nullptr;
  WEFT_CHECK(kTypeErrors, fn, weft::find_datatype(datatype, "datatype", &t));
  if (t->is_predefined()) {
    return capi::report(kTypeErrors, fn,
                        Status::error(MPI_ERR_TYPE, std::string("datatype=") + t->label() +
                                                        " is predefined (MPI_COMBINER_NAMED): it "
                                                        "has no contents"));
  }
  if constexpr (!large_form) WEFT_CHECK(kTypeErrors, fn, check_int_envelope(*t));
  const weft::Envelope& e = t->envelope();
  const Contents c = contents_of(e, large_form);
  WEFT_CHECK(kTypeErrors, fn, check_room(max_integers, c.n_ints, "max_integers", envelope_fn));
  WEFT_CHECK(kTypeErrors, fn, check_room(max_addresses, c.n_aints, "max_addresses", envelope_fn));
  WEFT_CHECK(kTypeErrors, fn,
             check_room(max_large_counts, c.n_counts, "max_large_counts", envelope_fn));
  WEFT_CHECK(kTypeErrors, fn,
             check_room(max_datatypes, e.types.size(), "max_datatypes", envelope_fn));
  WEFT_CHECK(kTypeErrors, fn,
             capi::check_array(array_of_integers, MPI_Count(c.n_ints), "array_of_integers"));
  WEFT_CHECK(kTypeErrors, fn,
             capi::check_array(array_of_addresses, MPI_Count(c.n_aints), "array_of_addresses"));
  WEFT_CHECK(
      kTypeErrors, fn,
      capi::check_array(array_of_large_counts, MPI_Count(c.n_counts), "array_of_large_counts"));
  WEFT_CHECK(
      kTypeErrors, fn,
      capi::check_array(array_of_datatypes, MPI_Count(e.types.size()), "array_of_datatypes"));
  if (c.n_ints > 0) std::copy(c.ints, c.ints + c.n_ints, array_of_integers);
  if (c.n_aints > 0) std::copy(c.aints, c.aints + c.n_aints, array_of_addresses);
  if constexpr (large_form)
    if (c.n_counts > 0) std::copy(c.counts, c.counts + c.n_counts, array_of_large_counts);
  for (size_t i = 0; i < e.types.size(); ++i) array_of_datatypes[i] = returned_type(e.types[i]);
  return MPI_SUCCESS;
}

// MPI_Type_match_size: the Fortran-sized type of a (valid) class and a size, or
// MPI_DATATYPE_NULL.
MPI_Datatype match(int typeclass, int size) {
  struct Sized {
    int typeclass, size;
    MPI_Datatype type;
  };
  constexpr Sized kSized[] = {
      {MPI_TYPECLASS_REAL, 4, MPI_REAL4},         {MPI_TYPECLASS_REAL, 8, MPI_REAL8},
      {MPI_TYPECLASS_REAL, 16, MPI_REAL16},       {MPI_TYPECLASS_INTEGER, 1, MPI_INTEGER1},
      {MPI_TYPECLASS_INTEGER, 2, MPI_INTEGER2},   {MPI_TYPECLASS_INTEGER, 4, MPI_INTEGER4},
      {MPI_TYPECLASS_INTEGER, 8, MPI_INTEGER8},   {MPI_TYPECLASS_INTEGER, 16, MPI_INTEGER16},
      {MPI_TYPECLASS_COMPLEX, 8, MPI_COMPLEX},    {MPI_TYPECLASS_COMPLEX, 16, MPI_DOUBLE_COMPLEX},
      {MPI_TYPECLASS_COMPLEX, 32, MPI_COMPLEX32},
  };
  for (const Sized& s : kSized)
    if (s.typeclass == typeclass && s.size == size) return s.type;
  return MPI_DATATYPE_NULL;
}

}  // namespace

extern "C" {

int PMPI_Type_size(MPI_Datatype datatype, int* size) {
  return type_size("MPI_Type_size", datatype, size);
}
int PMPI_Type_size_x(MPI_Datatype datatype, MPI_Count* size) {
  return type_size("MPI_Type_size_x", datatype, size);
}
int PMPI_Type_size_c(MPI_Datatype datatype, MPI_Count* size) {
  return type_size("MPI_Type_size_c", datatype, size);
}

int PMPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint* lb, MPI_Aint* extent) {
  return type_extent("MPI_Type_get_extent", false, datatype, lb, extent);
}
int PMPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count* lb, MPI_Count* extent) {
  return type_extent("MPI_Type_get_extent_x", false, datatype, lb, extent);
}
int PMPI_Type_get_extent_c(MPI_Datatype datatype, MPI_Count* lb, MPI_Count* extent) {
  return type_extent("MPI_Type_get_extent_c", false, datatype, lb, extent);
}

// The MPI-1 queries, removed in MPI 3.0 (mpi.h declares them deprecated).
int PMPI_Type_extent(MPI_Datatype datatype, MPI_Aint* extent) {
  MPI_Aint lb = 0;
  return type_extent("MPI_Type_extent", false, datatype, &lb, extent);
}
int PMPI_Type_lb(MPI_Datatype datatype, MPI_Aint* displacement) {
  return type_bound("MPI_Type_lb", datatype, displacement, false);
}
int PMPI_Type_ub(MPI_Datatype datatype, MPI_Aint* displacement) {
  return type_bound("MPI_Type_ub", datatype, displacement, true);
}

int PMPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint* true_lb, MPI_Aint* true_extent) {
  return type_extent("MPI_Type_get_true_extent", true, datatype, true_lb, true_extent);
}
int PMPI_Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count* true_lb, MPI_Count* true_extent) {
  return type_extent("MPI_Type_get_true_extent_x", true, datatype, true_lb, true_extent);
}
int PMPI_Type_get_true_extent_c(MPI_Datatype datatype, MPI_Count* true_lb, MPI_Count* true_extent) {
  return type_extent("MPI_Type_get_true_extent_c", true, datatype, true_lb, true_extent);
}

int PMPI_Type_get_envelope(MPI_Datatype datatype, int* num_integers, int* num_addresses,
                           int* num_datatypes, int* combiner) {
  return get_envelope("MPI_Type_get_envelope", datatype, num_integers, num_addresses,
                      static_cast<int*>(nullptr), num_datatypes, combiner);
}
int PMPI_Type_get_envelope_c(MPI_Datatype datatype, MPI_Count* num_integers,
                             MPI_Count* num_addresses, MPI_Count* num_large_counts,
                             MPI_Count* num_datatypes, int* combiner) {
  return get_envelope("MPI_Type_get_envelope_c", datatype, num_integers, num_addresses,
                      num_large_counts, num_datatypes, combiner);
}

int PMPI_Type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses,
                           int max_datatypes, int array_of_integers[],
                           MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[]) {
  return get_contents("MPI_Type_get_contents", datatype, max_integers, max_addresses, 0,
                      max_datatypes, array_of_integers, array_of_addresses, nullptr,
                      array_of_datatypes);
}
int PMPI_Type_get_contents_c(MPI_Datatype datatype, MPI_Count max_integers, MPI_Count max_addresses,
                             MPI_Count max_large_counts, MPI_Count max_datatypes,
                             int array_of_integers[], MPI_Aint array_of_addresses[],
                             MPI_Count array_of_large_counts[], MPI_Datatype array_of_datatypes[]) {
  return get_contents("MPI_Type_get_contents_c", datatype, max_integers, max_addresses,
                      max_large_counts, max_datatypes, array_of_integers, array_of_addresses,
                      array_of_large_counts, array_of_datatypes);
}

int PMPI_Type_match_size(int typeclass, int size, MPI_Datatype* datatype) {
  constexpr const char* fn = "MPI_Type_match_size";
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_CHECK(kTypeErrors, fn, capi::check_not_null(datatype, "datatype"));
  if (typeclass != MPI_TYPECLASS_REAL && typeclass != MPI_TYPECLASS_INTEGER &&
      typeclass != MPI_TYPECLASS_COMPLEX) {
    return capi::report(
        kTypeErrors, fn,
        Status::error(MPI_ERR_ARG, "invalid typeclass=" + std::to_string(typeclass) +
                                       " (must be MPI_TYPECLASS_REAL, "
                                       "MPI_TYPECLASS_INTEGER or "
                                       "MPI_TYPECLASS_COMPLEX)"));
  }
  const MPI_Datatype found = match(typeclass, size);
  if (found == MPI_DATATYPE_NULL) {
    return capi::report(kTypeErrors, fn,
                        Status::error(MPI_ERR_ARG, "invalid size=" + std::to_string(size) +
                                                       " (no predefined type of this typeclass "
                                                       "has that size)"));
  }
  *datatype = found;
  return MPI_SUCCESS;
}

// A handle to the predefined pair type for MPI_MINLOC/MPI_MAXLOC, or MPI_DATATYPE_NULL when the
// two types have none: valid types that make no predefined pair are not an error.
int PMPI_Type_get_value_index(MPI_Datatype value_type, MPI_Datatype index_type,
                              MPI_Datatype* pair_type) {
  constexpr const char* fn = "MPI_Type_get_value_index";
  WEFT_REQUIRE_RUNNING(fn);
  const weft::Datatype* t = nullptr;
  WEFT_CHECK(kTypeErrors, fn, weft::find_datatype(value_type, "value_type", &t));
  WEFT_CHECK(kTypeErrors, fn, weft::find_datatype(index_type, "index_type", &t));
  WEFT_CHECK(kTypeErrors, fn, capi::check_not_null(pair_type, "pair_type"));
  *pair_type = weft::value_index_pair(value_type, index_type);
  return MPI_SUCCESS;
}

}  // extern "C"

// The profiling interface: each MPI_X is a weak alias of PMPI_X (runtime/c_api/guard.hpp).
WEFT_MPI_ALIAS(MPI_Type_size)
WEFT_MPI_ALIAS(MPI_Type_size_x)
WEFT_MPI_ALIAS(MPI_Type_size_c)
WEFT_MPI_ALIAS(MPI_Type_get_extent)
WEFT_MPI_ALIAS(MPI_Type_get_extent_x)
WEFT_MPI_ALIAS(MPI_Type_get_extent_c)
WEFT_MPI_ALIAS(MPI_Type_get_true_extent)
WEFT_MPI_ALIAS(MPI_Type_get_true_extent_x)
WEFT_MPI_ALIAS(MPI_Type_get_true_extent_c)
WEFT_MPI_ALIAS(MPI_Type_get_envelope)
WEFT_MPI_ALIAS(MPI_Type_get_contents)
WEFT_MPI_ALIAS(MPI_Type_get_envelope_c)
WEFT_MPI_ALIAS(MPI_Type_get_contents_c)
WEFT_MPI_ALIAS(MPI_Type_match_size)
WEFT_MPI_ALIAS(MPI_Type_get_value_index)
WEFT_MPI_ALIAS(MPI_Type_extent)
WEFT_MPI_ALIAS(MPI_Type_lb)
WEFT_MPI_ALIAS(MPI_Type_ub)
