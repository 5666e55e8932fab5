// Datatype handles: the predefined types at their mpi.h numbers and derived types from
// kFirstDerivedType up. A derived handle holds a shared reference; MPI_Type_free drops the handle
// while types built on it and pending operations keep the object (MPI 4.0 §5.1.9). A freed
// handle is reused only after kHandleQuarantine later frees, so a stale handle is almost always
// reported rather than silently naming a newer type, and the table stays as small as the types
// alive at once.
// Threads: MPI_THREAD_SERIALIZED at most, so the table takes no lock.
#pragma once
#include <deque>
#include <memory>
#include <vector>

#include "runtime/datatype/datatype.hpp"

namespace weft {

inline constexpr MPI_Datatype kFirstDerivedType = 128;
inline constexpr size_t kHandleQuarantine = 1024;

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
  std::deque<MPI_Datatype> freed_;                  // oldest first
};

// The process-wide table.
DatatypeTable& datatypes();

// MPI_ERR_TYPE naming `arg` and the handle (MPI_DATATYPE_NULL, freed or never created).
Status invalid_datatype(MPI_Datatype handle, const char* arg);

}  // namespace weft
