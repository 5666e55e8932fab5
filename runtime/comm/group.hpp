// The MPI_Group handle table: groups are ordered lists of world ranks, shared by reference
// count between group handles and the communicators built from them.
#pragma once
#include <memory>
#include <vector>

#include "mpi.h"
#include "runtime/comm/group_ops.hpp"
#include "runtime/status.hpp"

namespace weft {

using GroupRef = std::shared_ptr<const groups::Members>;

class GroupTable {
 public:
  // Empties the table and (re)creates MPI_GROUP_EMPTY.
  void init_predefined();
  void clear() { groups_.clear(); }
  MPI_Group add(GroupRef members);
  GroupRef find(MPI_Group handle) const {
    return handle > 0 && size_t(handle) < groups_.size() ? groups_[size_t(handle)] : nullptr;
  }
  // Frees a handle (MPI_GROUP_EMPTY stays valid); sets it to MPI_GROUP_NULL.
  void release(MPI_Group* handle);

 private:
  std::vector<GroupRef> groups_;  // null: a free slot
};

// The group behind `handle`, or MPI_ERR_GROUP naming `arg` and the value.
Status lookup_group(const GroupTable& table, MPI_Group handle, const char* arg, GroupRef* out);

}  // namespace weft
