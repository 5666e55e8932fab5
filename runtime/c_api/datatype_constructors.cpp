// Derived datatype constructors (MPI 4.0 §5.1.2-5.1.7): contiguous, vector, hvector, indexed,
// hindexed, indexed_block, hindexed_block, struct, subarray, darray and resized.
#include <string>
#include <vector>

#include "runtime/c_api/datatype_args.hpp"

using weft::Status;
using weft::TypeRef;
using weft::capi::kTypeErrors;
namespace capi = weft::capi;

namespace {

// The checks every constructor ends with: the old type exists and newtype can be written.
Status check_old_and_new(MPI_Datatype oldtype, MPI_Datatype* newtype, TypeRef* old) {
  WEFT_TRY(capi::find_old_type(oldtype, "oldtype", old));
  return capi::check_not_null(newtype, "newtype");
}

}  // namespace

extern "C" {

int PMPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  constexpr const char* fn = "MPI_Type_contiguous";
  WEFT_REQUIRE_RUNNING(fn);
  TypeRef old;
  WEFT_CHECK(kTypeErrors, fn, capi::check_count(count, "count"));
  WEFT_CHECK(kTypeErrors, fn, check_old_and_new(oldtype, newtype, &old));
  capi::register_type(weft::make_contiguous(count, old), newtype);
  return MPI_SUCCESS;
}

int PMPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype,
                     MPI_Datatype* newtype) {
  constexpr const char* fn = "MPI_Type_vector";
  WEFT_REQUIRE_RUNNING(fn);
  TypeRef old;
  WEFT_CHECK(kTypeErrors, fn, capi::check_count(count, "count"));
  WEFT_CHECK(kTypeErrors, fn, capi::check_count(blocklength, "blocklength"));
  WEFT_CHECK(kTypeErrors, fn, check_old_and_new(oldtype, newtype, &old));
  capi::register_type(weft::make_vector(count, blocklength, stride, old), newtype);
  return MPI_SUCCESS;
}

int PMPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                             MPI_Datatype* newtype) {
  constexpr const char* fn = "MPI_Type_create_hvector";
  WEFT_REQUIRE_RUNNING(fn);
  TypeRef old;
  WEFT_CHECK(kTypeErrors, fn, capi::check_count(count, "count"));
  WEFT_CHECK(kTypeErrors, fn, capi::check_count(blocklength, "blocklength"));
  WEFT_CHECK(kTypeErrors, fn, check_old_and_new(oldtype, newtype, &old));
  capi::register_type(weft::make_hvector(count, blocklength, stride, old), newtype);
  return MPI_SUCCESS;
}

int PMPI_Type_indexed(int count, const int array_of_blocklengths[],
                      const int array_of_displacements[], MPI_Datatype oldtype,
                      MPI_Datatype* newtype) {
  constexpr const char* fn = "MPI_Type_indexed";
  WEFT_REQUIRE_RUNNING(fn);
  TypeRef old;
  WEFT_CHECK(kTypeErrors, fn, capi::check_count(count, "count"));
  WEFT_CHECK(kTypeErrors, fn,
             capi::check_array(array_of_blocklengths, count, "array_of_blocklengths"));
  WEFT_CHECK(kTypeErrors, fn,
             capi::check_array(array_of_displacements, count, "array_of_displacements"));
  WEFT_CHECK(kTypeErrors, fn,
             capi::check_counts(array_of_blocklengths, count, "array_of_blocklengths"));
  WEFT_CHECK(kTypeErrors, fn, check_old_and_new(oldtype, newtype, &old));
  capi::register_type(weft::make_indexed(count, array_of_blocklengths, array_of_displacements, old),
                      newtype);
  return MPI_SUCCESS;
}

int PMPI_Type_create_hindexed(int count, const int array_of_blocklengths[],
                              const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                              MPI_Datatype* newtype) {
  constexpr const char* fn = "MPI_Type_create_hindexed";
  WEFT_REQUIRE_RUNNING(fn);
  TypeRef old;
  WEFT_CHECK(kTypeErrors, fn, capi::check_count(count, "count"));
  WEFT_CHECK(kTypeErrors, fn,
             capi::check_array(array_of_blocklengths, count, "array_of_blocklengths"));
  WEFT_CHECK(kTypeErrors, fn,
             capi::check_array(array_of_displacements, count, "array_of_displacements"));
  WEFT_CHECK(kTypeErrors, fn,
             capi::check_counts(array_of_blocklengths, count, "array_of_blocklengths"));
  WEFT_CHECK(kTypeErrors, fn, check_old_and_new(oldtype, newtype, &old));
  capi::register_type(
      weft::make_hindexed(count, array_of_blocklengths, array_of_displacements, old), newtype);
  return MPI_SUCCESS;
}

int PMPI_Type_create_indexed_block(int count, int blocklength, const int array_of_displacements[],
                                   MPI_Datatype oldtype, MPI_Datatype* newtype) {
  constexpr const char* fn = "MPI_Type_create_indexed_block";
  WEFT_REQUIRE_RUNNING(fn);
  TypeRef old;
  WEFT_CHECK(kTypeErrors, fn, capi::check_count(count, "count"));
  WEFT_CHECK(kTypeErrors, fn, capi::check_count(blocklength, "blocklength"));
  WEFT_CHECK(kTypeErrors, fn,
             capi::check_array(array_of_displacements, count, "array_of_displacements"));
  WEFT_CHECK(kTypeErrors, fn, check_old_and_new(oldtype, newtype, &old));
  capi::register_type(weft::make_indexed_block(count, blocklength, array_of_displacements, old),
                      newtype);
  return MPI_SUCCESS;
}

int PMPI_Type_create_hindexed_block(int count, int blocklength,
                                    const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                                    MPI_Datatype* newtype) {
  constexpr const char* fn = "MPI_Type_create_hindexed_block";
  WEFT_REQUIRE_RUNNING(fn);
  TypeRef old;
  WEFT_CHECK(kTypeErrors, fn, capi::check_count(count, "count"));
  WEFT_CHECK(kTypeErrors, fn, capi::check_count(blocklength, "blocklength"));
  WEFT_CHECK(kTypeErrors, fn,
             capi::check_array(array_of_displacements, count, "array_of_displacements"));
  WEFT_CHECK(kTypeErrors, fn, check_old_and_new(oldtype, newtype, &old));
  capi::register_type(weft::make_hindexed_block(count, blocklength, array_of_displacements, old),
                      newtype);
  return MPI_SUCCESS;
}

int PMPI_Type_create_struct(int count, const int array_of_blocklengths[],
                            const MPI_Aint array_of_displacements[],
                            const MPI_Datatype array_of_types[], MPI_Datatype* newtype) {
  constexpr const char* fn = "MPI_Type_create_struct";
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_CHECK(kTypeErrors, fn, capi::check_count(count, "count"));
  WEFT_CHECK(kTypeErrors, fn,
             capi::check_array(array_of_blocklengths, count, "array_of_blocklengths"));
  WEFT_CHECK(kTypeErrors, fn,
             capi::check_array(array_of_displacements, count, "array_of_displacements"));
  WEFT_CHECK(kTypeErrors, fn, capi::check_array(array_of_types, count, "array_of_types"));
  WEFT_CHECK(kTypeErrors, fn,
             capi::check_counts(array_of_blocklengths, count, "array_of_blocklengths"));
  std::vector<TypeRef> types(size_t(count > 0 ? count : 0));
  for (int i = 0; i < count; ++i) {
    const std::string arg = "array_of_types[" + std::to_string(i) + "]";
    WEFT_CHECK(kTypeErrors, fn,
               capi::find_old_type(array_of_types[i], arg.c_str(), &types[size_t(i)]));
  }
  WEFT_CHECK(kTypeErrors, fn, capi::check_not_null(newtype, "newtype"));
  capi::register_type(
      weft::make_struct(count, array_of_blocklengths, array_of_displacements, types.data()),
      newtype);
  return MPI_SUCCESS;
}

int PMPI_Type_create_subarray(int ndims, const int array_of_sizes[], const int array_of_subsizes[],
                              const int array_of_starts[], int order, MPI_Datatype oldtype,
                              MPI_Datatype* newtype) {
  constexpr const char* fn = "MPI_Type_create_subarray";
  WEFT_REQUIRE_RUNNING(fn);
  TypeRef old;
  WEFT_CHECK(kTypeErrors, fn, capi::check_array(array_of_sizes, ndims, "array_of_sizes"));
  WEFT_CHECK(kTypeErrors, fn, capi::check_array(array_of_subsizes, ndims, "array_of_subsizes"));
  WEFT_CHECK(kTypeErrors, fn, capi::check_array(array_of_starts, ndims, "array_of_starts"));
  WEFT_CHECK(kTypeErrors, fn, check_old_and_new(oldtype, newtype, &old));
  std::shared_ptr<weft::Datatype> t;
  WEFT_CHECK(kTypeErrors, fn,
             weft::make_subarray(ndims, array_of_sizes, array_of_subsizes, array_of_starts, order,
                                 old, &t));
  capi::register_type(std::move(t), newtype);
  return MPI_SUCCESS;
}

int PMPI_Type_create_darray(int size, int rank, int ndims, const int array_of_gsizes[],
                            const int array_of_distribs[], const int array_of_dargs[],
                            const int array_of_psizes[], int order, MPI_Datatype oldtype,
                            MPI_Datatype* newtype) {
  constexpr const char* fn = "MPI_Type_create_darray";
  WEFT_REQUIRE_RUNNING(fn);
  TypeRef old;
  WEFT_CHECK(kTypeErrors, fn, capi::check_array(array_of_gsizes, ndims, "array_of_gsizes"));
  WEFT_CHECK(kTypeErrors, fn, capi::check_array(array_of_distribs, ndims, "array_of_distribs"));
  WEFT_CHECK(kTypeErrors, fn, capi::check_array(array_of_dargs, ndims, "array_of_dargs"));
  WEFT_CHECK(kTypeErrors, fn, capi::check_array(array_of_psizes, ndims, "array_of_psizes"));
  WEFT_CHECK(kTypeErrors, fn, check_old_and_new(oldtype, newtype, &old));
  std::shared_ptr<weft::Datatype> t;
  WEFT_CHECK(kTypeErrors, fn,
             weft::make_darray(size, rank, ndims, array_of_gsizes, array_of_distribs,
                               array_of_dargs, array_of_psizes, order, old, &t));
  capi::register_type(std::move(t), newtype);
  return MPI_SUCCESS;
}

int PMPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
                             MPI_Datatype* newtype) {
  constexpr const char* fn = "MPI_Type_create_resized";
  WEFT_REQUIRE_RUNNING(fn);
  TypeRef old;
  WEFT_CHECK(kTypeErrors, fn, check_old_and_new(oldtype, newtype, &old));
  capi::register_type(weft::make_resized(old, lb, extent), newtype);
  return MPI_SUCCESS;
}

}  // extern "C"

// The profiling interface: each MPI_X is a weak alias of PMPI_X (runtime/c_api/guard.hpp).
WEFT_MPI_ALIAS(MPI_Type_contiguous)
WEFT_MPI_ALIAS(MPI_Type_vector)
WEFT_MPI_ALIAS(MPI_Type_create_hvector)
WEFT_MPI_ALIAS(MPI_Type_indexed)
WEFT_MPI_ALIAS(MPI_Type_create_hindexed)
WEFT_MPI_ALIAS(MPI_Type_create_indexed_block)
WEFT_MPI_ALIAS(MPI_Type_create_hindexed_block)
WEFT_MPI_ALIAS(MPI_Type_create_struct)
WEFT_MPI_ALIAS(MPI_Type_create_subarray)
WEFT_MPI_ALIAS(MPI_Type_create_darray)
WEFT_MPI_ALIAS(MPI_Type_create_resized)
