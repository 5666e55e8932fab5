// A counts or displacements array argument: int[] in the classic MPI functions, MPI_Count[]
// (counts, and displacements of the large-count datatype constructors) or MPI_Aint[]
// (displacements) in their large-count (_c) forms. One read-only view of all three, so that both
// forms of a call share one internal path (the C boundary's checks and the datatype builders).
#pragma once
#include <cstddef>

#include "mpi.h"

namespace weft {

class CountArray {
 public:
  CountArray(std::nullptr_t) {}
  CountArray(const int* values) : ints_(values) {}
  CountArray(const MPI_Count* values) : counts_(values) {}
  CountArray(const MPI_Aint* values) : aints_(values) {}

  // The array's address (for null checks).
  const void* data() const {
    if (ints_ != nullptr) return ints_;
    if (counts_ != nullptr) return counts_;
    return aints_;
  }
  MPI_Count operator[](size_t i) const {
    if (ints_ != nullptr) return ints_[i];
    if (counts_ != nullptr) return counts_[i];
    return MPI_Count(aints_[i]);
  }

 private:
  const int* ints_ = nullptr;
  const MPI_Count* counts_ = nullptr;
  const MPI_Aint* aints_ = nullptr;
};

}  // namespace weft
