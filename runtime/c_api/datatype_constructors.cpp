// Derived datatype constructors (MPI 4.0 §5.1.2-5.1.7): contiguous, vector, hvector, indexed,
// hindexed, indexed_block, hindexed_block, struct, subarray, darray and resized, each in its int
// and large-count (_c) form, both through one checked path per constructor; and the MPI-1 forms
// MPI_Type_hvector, MPI_Type_hindexed and MPI_Type_struct (removed in MPI 3.0).
#include <string>
#include <vector>

#include "runtime/c_api/datatype_args.hpp"

using weft::CountArray;
using weft::Status;
using weft::TypeRef;
using weft::capi::kTypeErrors;
namespace capi = weft::capi;

namespace {

// Registers a type a constructor made. The large-count forms (MPI's _c suffix on `fn`) mark it so
// that MPI_Type_get_envelope_c/get_contents_c report their MPI_Count arguments as large counts.
void register_made(const char* fn, std::shared_ptr<weft::Datatype> type, MPI_Datatype* newtype) {
  const std::string name = fn;
  if (name.size() > 2 && name.compare(name.size() - 2, 2, "_c") == 0) type->mark_large_count();
  capi::register_type(std::move(type), newtype);
}

// The checks every constructor ends with: the old type exists and newtype can be written.
Status check_old_and_new(MPI_Datatype oldtype, MPI_Datatype* newtype, TypeRef* old) {
  WEFT_TRY(capi::find_old_type(oldtype, "oldtype", old));
  return capi::check_not_null(newtype, "newtype");
}

int contiguous(const char* fn, MPI_Count count, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  WEFT_REQUIRE_RUNNING(fn);
  TypeRef old;
  WEFT_CHECK(kTypeErrors, fn, capi::check_count(count, "count"));
  WEFT_CHECK(kTypeErrors, fn, check_old_and_new(oldtype, newtype, &old));
  register_made(fn, weft::make_contiguous(count, old), newtype);
  return MPI_SUCCESS;
}

// MPI_Type_vector (`stride` in extents of oldtype) and MPI_Type_create_hvector (`bytes`).
int vector(const char* fn, bool bytes, MPI_Count count, MPI_Count blocklength, MPI_Count stride,
           MPI_Datatype oldtype, MPI_Datatype* newtype) {
  WEFT_REQUIRE_RUNNING(fn);
  TypeRef old;
  WEFT_CHECK(kTypeErrors, fn, capi::check_count(count, "count"));
  WEFT_CHECK(kTypeErrors, fn, capi::check_count(blocklength, "blocklength"));
  WEFT_CHECK(kTypeErrors, fn, check_old_and_new(oldtype, newtype, &old));
  register_made(fn,
                bytes ? weft::make_hvector(count, blocklength, stride, old)
                      : weft::make_vector(count, blocklength, stride, old),
                newtype);
  return MPI_SUCCESS;
}

// MPI_Type_indexed (displacements in extents of oldtype) and MPI_Type_create_hindexed (`bytes`).
int indexed(const char* fn, bool bytes, MPI_Count count, CountArray blocklengths,
            CountArray displacements, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  WEFT_REQUIRE_RUNNING(fn);
  TypeRef old;
  WEFT_CHECK(kTypeErrors, fn, capi::check_count(count, "count"));
  WEFT_CHECK(kTypeErrors, fn,
             capi::check_array(blocklengths.data(), count, "array_of_blocklengths"));
  WEFT_CHECK(kTypeErrors, fn,
             capi::check_array(displacements.data(), count, "array_of_displacements"));
  WEFT_CHECK(kTypeErrors, fn, capi::check_counts(blocklengths, count, "array_of_blocklengths"));
  WEFT_CHECK(kTypeErrors, fn, check_old_and_new(oldtype, newtype, &old));
  register_made(fn,
                bytes ? weft::make_hindexed(count, blocklengths, displacements, old)
                      : weft::make_indexed(count, blocklengths, displacements, old),
                newtype);
  return MPI_SUCCESS;
}

// MPI_Type_create_indexed_block and MPI_Type_create_hindexed_block (`bytes`).
int indexed_block(const char* fn, bool bytes, MPI_Count count, MPI_Count blocklength,
                  CountArray displacements, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  WEFT_REQUIRE_RUNNING(fn);
  TypeRef old;
  WEFT_CHECK(kTypeErrors, fn, capi::check_count(count, "count"));
  WEFT_CHECK(kTypeErrors, fn, capi::check_count(blocklength, "blocklength"));
  WEFT_CHECK(kTypeErrors, fn,
             capi::check_array(displacements.data(), count, "array_of_displacements"));
  WEFT_CHECK(kTypeErrors, fn, check_old_and_new(oldtype, newtype, &old));
  register_made(fn,
                bytes ? weft::make_hindexed_block(count, blocklength, displacements, old)
                      : weft::make_indexed_block(count, blocklength, displacements, old),
                newtype);
  return MPI_SUCCESS;
}

int create_struct(const char* fn, MPI_Count count, CountArray blocklengths,
                  CountArray displacements, const MPI_Datatype* array_of_types,
                  MPI_Datatype* newtype) {
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_CHECK(kTypeErrors, fn, capi::check_count(count, "count"));
  WEFT_CHECK(kTypeErrors, fn,
             capi::check_array(blocklengths.data(), count, "array_of_blocklengths"));
  WEFT_CHECK(kTypeErrors, fn,
             capi::check_array(displacements.data(), count, "array_of_displacements"));
  WEFT_CHECK(kTypeErrors, fn, capi::check_array(array_of_types, count, "array_of_types"));
  WEFT_CHECK(kTypeErrors, fn, capi::check_counts(blocklengths, count, "array_of_blocklengths"));
  std::vector<TypeRef> types(static_cast<size_t>(count));
  for (size_t i = 0; i < types.size(); ++i) {
    const std::string arg = "array_of_types[" + std::to_string(i) + "]";
    WEFT_CHECK(kTypeErrors, fn, capi::find_old_type(array_of_types[i], arg.c_str(), &types[i]));
  }
  WEFT_CHECK(kTypeErrors, fn, capi::check_not_null(newtype, "newtype"));
  register_made(fn, weft::make_struct(count, blocklengths, displacements, types.data()), newtype);
  return MPI_SUCCESS;
}

int subarray(const char* fn, int ndims, CountArray sizes, CountArray subsizes, CountArray starts,
             int order, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  WEFT_REQUIRE_RUNNING(fn);
  TypeRef old;
  WEFT_CHECK(kTypeErrors, fn, capi::check_array(sizes.data(), ndims, "array_of_sizes"));
  WEFT_CHECK(kTypeErrors, fn, capi::check_array(subsizes.data(), ndims, "array_of_subsizes"));
  WEFT_CHECK(kTypeErrors, fn, capi::check_array(starts.data(), ndims, "array_of_starts"));
  WEFT_CHECK(kTypeErrors, fn, check_old_and_new(oldtype, newtype, &old));
  std::shared_ptr<weft::Datatype> t;
  WEFT_CHECK(kTypeErrors, fn, weft::make_subarray(ndims, sizes, subsizes, starts, order, old, &t));
  register_made(fn, std::move(t), newtype);
  return MPI_SUCCESS;
}

int darray(const char* fn, int size, int rank, int ndims, CountArray gsizes, const int* distribs,
           const int* dargs, const int* psizes, int order, MPI_Datatype oldtype,
           MPI_Datatype* newtype) {
  WEFT_REQUIRE_RUNNING(fn);
  TypeRef old;
  WEFT_CHECK(kTypeErrors, fn, capi::check_array(gsizes.data(), ndims, "array_of_gsizes"));
  WEFT_CHECK(kTypeErrors, fn, capi::check_array(distribs, ndims, "array_of_distribs"));
  WEFT_CHECK(kTypeErrors, fn, capi::check_array(dargs, ndims, "array_of_dargs"));
  WEFT_CHECK(kTypeErrors, fn, capi::check_array(psizes, ndims, "array_of_psizes"));
  WEFT_CHECK(kTypeErrors, fn, check_old_and_new(oldtype, newtype, &old));
  std::shared_ptr<weft::Datatype> t;
  WEFT_CHECK(kTypeErrors, fn,
             weft::make_darray(size, rank, ndims, gsizes, distribs, dargs, psizes, order, old, &t));
  register_made(fn, std::move(t), newtype);
  return MPI_SUCCESS;
}

int resized(const char* fn, MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent,
            MPI_Datatype* newtype) {
  WEFT_REQUIRE_RUNNING(fn);
  TypeRef old;
  WEFT_CHECK(kTypeErrors, fn, check_old_and_new(oldtype, newtype, &old));
  register_made(fn, weft::make_resized(old, lb, extent), newtype);
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int PMPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return contiguous("MPI_Type_contiguous", count, oldtype, newtype);
}
int PMPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype,
                     MPI_Datatype* newtype) {
  return vector("MPI_Type_vector", false, count, blocklength, stride, oldtype, newtype);
}
int PMPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                             MPI_Datatype* newtype) {
  return vector("MPI_Type_create_hvector", true, count, blocklength, stride, oldtype, newtype);
}
int PMPI_Type_indexed(int count, const int array_of_blocklengths[],
                      const int array_of_displacements[], MPI_Datatype oldtype,
                      MPI_Datatype* newtype) {
  return indexed("MPI_Type_indexed", false, count, array_of_blocklengths, array_of_displacements,
                 oldtype, newtype);
}
int PMPI_Type_create_hindexed(int count, const int array_of_blocklengths[],
                              const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                              MPI_Datatype* newtype) {
  return indexed("MPI_Type_create_hindexed", true, count, array_of_blocklengths,
                 array_of_displacements, oldtype, newtype);
}
int PMPI_Type_create_indexed_block(int count, int blocklength, const int array_of_displacements[],
                                   MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return indexed_block("MPI_Type_create_indexed_block", false, count, blocklength,
                       array_of_displacements, oldtype, newtype);
}
int PMPI_Type_create_hindexed_block(int count, int blocklength,
                                    const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                                    MPI_Datatype* newtype) {
  return indexed_block("MPI_Type_create_hindexed_block", true, count, blocklength,
                       array_of_displacements, oldtype, newtype);
}
int PMPI_Type_create_struct(int count, const int array_of_blocklengths[],
                            const MPI_Aint array_of_displacements[],
                            const MPI_Datatype array_of_types[], MPI_Datatype* newtype) {
  return create_struct("MPI_Type_create_struct", count, array_of_blocklengths,
                       array_of_displacements, array_of_types, newtype);
}
int PMPI_Type_create_subarray(int ndims, const int array_of_sizes[], const int array_of_subsizes[],
                              const int array_of_starts[], int order, MPI_Datatype oldtype,
                              MPI_Datatype* newtype) {
  return subarray("MPI_Type_create_subarray", ndims, array_of_sizes, array_of_subsizes,
                  array_of_starts, order, oldtype, newtype);
}
int PMPI_Type_create_darray(int size, int rank, int ndims, const int array_of_gsizes[],
                            const int array_of_distribs[], const int array_of_dargs[],
                            const int array_of_psizes[], int order, MPI_Datatype oldtype,
                            MPI_Datatype* newtype) {
  return darray("MPI_Type_create_darray", size, rank, ndims, array_of_gsizes, array_of_distribs,
                array_of_dargs, array_of_psizes, order, oldtype, newtype);
}
int PMPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
                             MPI_Datatype* newtype) {
  return resized("MPI_Type_create_resized", oldtype, lb, extent, newtype);
}

// The large-count (_c) forms: MPI_Count counts, block lengths, strides and displacements.
int PMPI_Type_contiguous_c(MPI_Count count, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return contiguous("MPI_Type_contiguous_c", count, oldtype, newtype);
}
int PMPI_Type_vector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                       MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return vector("MPI_Type_vector_c", false, count, blocklength, stride, oldtype, newtype);
}
int PMPI_Type_create_hvector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                               MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return vector("MPI_Type_create_hvector_c", true, count, blocklength, stride, oldtype, newtype);
}
int PMPI_Type_indexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                        const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                        MPI_Datatype* newtype) {
  return indexed("MPI_Type_indexed_c", false, count, array_of_blocklengths, array_of_displacements,
                 oldtype, newtype);
}
int PMPI_Type_create_hindexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                                const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                MPI_Datatype* newtype) {
  return indexed("MPI_Type_create_hindexed_c", true, count, array_of_blocklengths,
                 array_of_displacements, oldtype, newtype);
}
int PMPI_Type_create_indexed_block_c(MPI_Count count, MPI_Count blocklength,
                                     const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                     MPI_Datatype* newtype) {
  return indexed_block("MPI_Type_create_indexed_block_c", false, count, blocklength,
                       array_of_displacements, oldtype, newtype);
}
int PMPI_Type_create_hindexed_block_c(MPI_Count count, MPI_Count blocklength,
                                      const MPI_Count array_of_displacements[],
                                      MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return indexed_block("MPI_Type_create_hindexed_block_c", true, count, blocklength,
                       array_of_displacements, oldtype, newtype);
}
int PMPI_Type_create_struct_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                              const MPI_Count array_of_displacements[],
                              const MPI_Datatype array_of_types[], MPI_Datatype* newtype) {
  return create_struct("MPI_Type_create_struct_c", count, array_of_blocklengths,
                       array_of_displacements, array_of_types, newtype);
}
int PMPI_Type_create_subarray_c(int ndims, const MPI_Count array_of_sizes[],
                                const MPI_Count array_of_subsizes[],
                                const MPI_Count array_of_starts[], int order, MPI_Datatype oldtype,
                                MPI_Datatype* newtype) {
  return subarray("MPI_Type_create_subarray_c", ndims, array_of_sizes, array_of_subsizes,
                  array_of_starts, order, oldtype, newtype);
}
int PMPI_Type_create_darray_c(int size, int rank, int ndims, const MPI_Count array_of_gsizes[],
                              const int array_of_distribs[], const int array_of_dargs[],
                              const int array_of_psizes[], int order, MPI_Datatype oldtype,
                              MPI_Datatype* newtype) {
  return darray("MPI_Type_create_darray_c", size, rank, ndims, array_of_gsizes, array_of_distribs,
                array_of_dargs, array_of_psizes, order, oldtype, newtype);
}
int PMPI_Type_create_resized_c(MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent,
                               MPI_Datatype* newtype) {
  return resized("MPI_Type_create_resized_c", oldtype, lb, extent, newtype);
}

// The MPI-1 forms, removed in MPI 3.0 (mpi.h declares them deprecated).
int PMPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                      MPI_Datatype* newtype) {
  return vector("MPI_Type_hvector", true, count, blocklength, stride, oldtype, newtype);
}
int PMPI_Type_hindexed(int count, int array_of_blocklengths[], MPI_Aint array_of_displacements[],
                       MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return indexed("MPI_Type_hindexed", true, count, array_of_blocklengths, array_of_displacements,
                 oldtype, newtype);
}
int PMPI_Type_struct(int count, int array_of_blocklengths[], MPI_Aint array_of_displacements[],
                     MPI_Datatype array_of_types[], MPI_Datatype* newtype) {
  return create_struct("MPI_Type_struct", count, array_of_blocklengths, array_of_displacements,
                       array_of_types, newtype);
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
WEFT_MPI_ALIAS(MPI_Type_contiguous_c)
WEFT_MPI_ALIAS(MPI_Type_vector_c)
WEFT_MPI_ALIAS(MPI_Type_create_hvector_c)
WEFT_MPI_ALIAS(MPI_Type_indexed_c)
WEFT_MPI_ALIAS(MPI_Type_create_hindexed_c)
WEFT_MPI_ALIAS(MPI_Type_create_indexed_block_c)
WEFT_MPI_ALIAS(MPI_Type_create_hindexed_block_c)
WEFT_MPI_ALIAS(MPI_Type_create_struct_c)
WEFT_MPI_ALIAS(MPI_Type_create_subarray_c)
WEFT_MPI_ALIAS(MPI_Type_create_darray_c)
WEFT_MPI_ALIAS(MPI_Type_create_resized_c)
WEFT_MPI_ALIAS(MPI_Type_hvector)
WEFT_MPI_ALIAS(MPI_Type_hindexed)
WEFT_MPI_ALIAS(MPI_Type_struct)
