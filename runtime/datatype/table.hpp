// Datatype handles: the predefined types at their mpi.h numbers and derived types from
// kFirstDerivedType up. A derived handle holds a shared reference; MPI_Type_free drops the handle
// while types built on it and pending operations keep the object (MPI 4.0 §5.1.9). The next new
// type takes the most recently freed handle, as MPICH's handle pool does (Open MPI's handles are
// object addresses, which its allocator usually hands to the next type): programs that keep
// using a freed handle after building its replacement (MPICH's own indexed_misc test does) work
// alike, and the table stays as small as the types alive at once. A freed handle used before
// any new type is made is reported.
// Threads: used under the call lock only (runtime/call_lock.hpp), so the table takes no lock.
#pragma once
#include <memory>
#include <vector>

#include "runtime/datatype/datatype.hpp"

namespace weft {

inline constexpr MPI_Datatype kFirstDerivedType = 128;

class DatatypeTable {
 public:
  // Registers a new derived type; returns its handle.
  MPI_Datatype add(std::shared_ptr<Datatype> type);
  // The type behind a live handle, or nullptr.
  Datatype* find(MPI_Datatype handle);
  // A reference that keeps the type alive, or nullptr for a dead handle.
  std::shared_ptr<const Datatype> share(MPI_Datatype handle);
  // Releases a derived handle and sets it to MPI_DATATYPE_NULL.
  Status free(MPI_Datatype* handle, const char* arg);
  // Derived handles still live (for tests and leak checks).
  size_t live_derived() const;

 private:
  std::vector<std::shared_ptr<Datatype>> derived_;  // handle = kFirstDerivedType + index
  std::vector<MPI_Datatype> freed_;                 // most recently freed last
};

// The process-wide table.
DatatypeTable& datatypes();

// MPI_ERR_TYPE naming `arg` and the handle (MPI_DATATYPE_NULL, freed or never created).
Status invalid_datatype(MPI_Datatype handle, const char* arg);

}  // namespace weft
