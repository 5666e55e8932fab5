// Datatype lifetime and naming: MPI_Type_dup, MPI_Type_commit, MPI_Type_free,
// MPI_Type_set_name and MPI_Type_get_name (MPI 4.0 §5.1.9-5.1.10, §7.8).
#include <cstring>
#include <string>

#include "runtime/comm/attributes.hpp"
#include "runtime/c_api/datatype_args.hpp"

using weft::Status;
using weft::TypeRef;
using weft::capi::kTypeErrors;
namespace capi = weft::capi;

namespace {

// A live handle held in *slot, for calls that change the type.
Status find_mutable(const MPI_Datatype* slot, const char* arg, weft::Datatype** out) {
  WEFT_TRY(capi::check_not_null(slot, arg));
  *out = weft::datatypes().find(*slot);
  if (*out == nullptr) return weft::invalid_datatype(*slot, arg);
  return Status::success();
}

}  // namespace

extern "C" {

int PMPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype* newtype) {
  constexpr const char* fn = "MPI_Type_dup";
  WEFT_REQUIRE_RUNNING(fn);
  TypeRef old;
  WEFT_CHECK(kTypeErrors, fn, capi::find_old_type(oldtype, "oldtype", &old));
  WEFT_CHECK(kTypeErrors, fn, capi::check_not_null(newtype, "newtype"));
  MPI_Datatype copy = MPI_DATATYPE_NULL;
  capi::register_type(weft::make_dup(old), &copy);
  Status s = weft::attributes_on_type_dup(oldtype, copy);
  if (!s.ok()) {
    (void)weft::datatypes().free(&copy, "newtype");
    return capi::report(kTypeErrors, fn, s);
  }
  *newtype = copy;
  return MPI_SUCCESS;
}

int PMPI_Type_commit(MPI_Datatype* datatype) {
  constexpr const char* fn = "MPI_Type_commit";
  WEFT_REQUIRE_RUNNING(fn);
  weft::Datatype* t = nullptr;
  WEFT_CHECK(kTypeErrors, fn, find_mutable(datatype, "datatype", &t));
  t->commit();
  return MPI_SUCCESS;
}

int PMPI_Type_free(MPI_Datatype* datatype) {
  constexpr const char* fn = "MPI_Type_free";
  WEFT_REQUIRE_RUNNING(fn);
  weft::Datatype* t = nullptr;
  WEFT_CHECK(kTypeErrors, fn, find_mutable(datatype, "datatype", &t));
  if (t->is_predefined()) {
    return capi::report(kTypeErrors, fn,
                        Status::error(MPI_ERR_TYPE, std::string("cannot free the predefined "
                                                                "datatype datatype=") +
                                                        t->label()));
  }
  // Attributes go first; types built on this one and pending operations keep the object.
  WEFT_CHECK(kTypeErrors, fn, weft::attributes_on_type_free(*datatype));
  return capi::report(kTypeErrors, fn, weft::datatypes().free(datatype, "datatype"));
}

int PMPI_Type_set_name(MPI_Datatype datatype, const char* type_name) {
  constexpr const char* fn = "MPI_Type_set_name";
  WEFT_REQUIRE_RUNNING(fn);
  weft::Datatype* t = nullptr;
  WEFT_CHECK(kTypeErrors, fn, find_mutable(&datatype, "datatype", &t));
  WEFT_CHECK(kTypeErrors, fn, capi::check_not_null(type_name, "type_name"));
  // Longer names are truncated to what MPI_Type_get_name can return (MPI 4.0 §7.8).
  t->set_name(std::string(type_name, strnlen(type_name, MPI_MAX_OBJECT_NAME - 1)));
  return MPI_SUCCESS;
}

int PMPI_Type_get_name(MPI_Datatype datatype, char* type_name, int* resultlen) {
  constexpr const char* fn = "MPI_Type_get_name";
  WEFT_REQUIRE_RUNNING(fn);
  const weft::Datatype* t = nullptr;
  WEFT_CHECK(kTypeErrors, fn, weft::find_datatype(datatype, "datatype", &t));
  WEFT_CHECK(kTypeErrors, fn, capi::check_not_null(type_name, "type_name"));
  WEFT_CHECK(kTypeErrors, fn, capi::check_not_null(resultlen, "resultlen"));
  const std::string& name = t->name();
  std::memcpy(type_name, name.c_str(), name.size() + 1);
  *resultlen = int(name.size());
  return MPI_SUCCESS;
}

}  // extern "C"

// The profiling interface: each MPI_X is a weak alias of PMPI_X (runtime/c_api/guard.hpp).
WEFT_MPI_ALIAS(MPI_Type_dup)
WEFT_MPI_ALIAS(MPI_Type_commit)
WEFT_MPI_ALIAS(MPI_Type_free)
WEFT_MPI_ALIAS(MPI_Type_set_name)
WEFT_MPI_ALIAS(MPI_Type_get_name)
