// Constructors of derived datatypes (MPI 4.0 §5.1.2-5.1.7). The C boundary has checked handles,
// pointers and that counts and block lengths are >= 0; subarray and darray check their own
// geometry. Each returns a new, uncommitted, unregistered object that keeps its old types alive.
#pragma once
#include <memory>

#include "runtime/datatype.hpp"

namespace weft {

using TypeRef = std::shared_ptr<const Datatype>;

std::shared_ptr<Datatype> make_contiguous(int count, const TypeRef& old);
std::shared_ptr<Datatype> make_vector(int count, int blocklength, int stride, const TypeRef& old);
std::shared_ptr<Datatype> make_hvector(int count, int blocklength, MPI_Aint stride,
                                       const TypeRef& old);
std::shared_ptr<Datatype> make_indexed(int count, const int* blocklengths, const int* displacements,
                                       const TypeRef& old);
std::shared_ptr<Datatype> make_hindexed(int count, const int* blocklengths,
                                        const MPI_Aint* displacements, const TypeRef& old);
std::shared_ptr<Datatype> make_indexed_block(int count, int blocklength, const int* displacements,
                                             const TypeRef& old);
std::shared_ptr<Datatype> make_hindexed_block(int count, int blocklength,
                                              const MPI_Aint* displacements, const TypeRef& old);
std::shared_ptr<Datatype> make_struct(int count, const int* blocklengths,
                                      const MPI_Aint* displacements, const TypeRef* types);
std::shared_ptr<Datatype> make_resized(const TypeRef& old, MPI_Aint lb, MPI_Aint extent);
std::shared_ptr<Datatype> make_dup(const TypeRef& old);

// runtime/datatype_arrays.cpp: distributed-array helpers.
Status make_subarray(int ndims, const int* sizes, const int* subsizes, const int* starts, int order,
                     const TypeRef& old, std::shared_ptr<Datatype>* out);
Status make_darray(int size, int rank, int ndims, const int* gsizes, const int* distribs,
                   const int* dargs, const int* psizes, int order, const TypeRef& old,
                   std::shared_ptr<Datatype>* out);

}  // namespace weft
