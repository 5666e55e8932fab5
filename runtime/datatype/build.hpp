// Constructors of derived datatypes (MPI 4.0 §5.1.2-5.1.7), for the int and the large-count (_c)
// forms alike. The C boundary has checked handles, pointers and that counts and block lengths
// are >= 0; subarray and darray check their own geometry. Each returns a new, uncommitted,
// unregistered object that keeps its old types alive.
#pragma once
#include <memory>
#include <vector>

#include "runtime/datatype/count_array.hpp"
#include "runtime/datatype/datatype.hpp"

namespace weft {

using TypeRef = std::shared_ptr<const Datatype>;

// Counts, block lengths, strides and displacements come as MPI_Count and CountArray, so that the
// int constructors and their large-count (_c) forms build through the same code.
std::shared_ptr<Datatype> make_contiguous(MPI_Count count, const TypeRef& old);
// `stride` in extents of `old`.
std::shared_ptr<Datatype> make_vector(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                                      const TypeRef& old);
// `stride` in bytes.
std::shared_ptr<Datatype> make_hvector(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                                       const TypeRef& old);
std::shared_ptr<Datatype> make_indexed(MPI_Count count, CountArray blocklengths,
                                       CountArray displacements, const TypeRef& old);
std::shared_ptr<Datatype> make_hindexed(MPI_Count count, CountArray blocklengths,
                                        CountArray displacements, const TypeRef& old);
std::shared_ptr<Datatype> make_indexed_block(MPI_Count count, MPI_Count blocklength,
                                             CountArray displacements, const TypeRef& old);
std::shared_ptr<Datatype> make_hindexed_block(MPI_Count count, MPI_Count blocklength,
                                              CountArray displacements, const TypeRef& old);
std::shared_ptr<Datatype> make_struct(MPI_Count count, CountArray blocklengths,
                                      CountArray displacements, const TypeRef* types);
std::shared_ptr<Datatype> make_resized(const TypeRef& old, MPI_Count lb, MPI_Count extent);
std::shared_ptr<Datatype> make_dup(const TypeRef& old);

// runtime/datatype/arrays.cpp: distributed-array helpers.
Status make_subarray(int ndims, CountArray sizes, CountArray subsizes, CountArray starts, int order,
                     const TypeRef& old, std::shared_ptr<Datatype>* out);
Status make_darray(int size, int rank, int ndims, CountArray gsizes, const int* distribs,
                   const int* dargs, const int* psizes, int order, const TypeRef& old,
                   std::shared_ptr<Datatype>* out);

// The integers of an envelope (MPI_Type_get_contents): a large-count constructor's values that
// no int holds mark the envelope instead (Envelope::ints_overflow). add() takes an argument that
// is MPI_Count in the _c constructor, add_int() one that stays int there; finish() appends the
// addresses (MPI_Count in every _c constructor) to the _c form's counts.
class EnvelopeInts {
 public:
  void add(MPI_Count value);
  void add(CountArray values, MPI_Count n);
  void add_int(int value);
  void add_int(CountArray values, MPI_Count n);
  Envelope finish(int combiner, std::vector<MPI_Aint> aints, std::vector<TypeRef> types);

 private:
  std::vector<int> ints_, c_ints_;
  std::vector<MPI_Count> c_counts_;
  bool overflow_ = false;
};

}  // namespace weft
