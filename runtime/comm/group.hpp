// The MPI_Group handle table: groups are ordered lists of world ranks, shared by reference
// count between group handles and the communicators built from them. A group may derive from a
// session (MPI_Group_from_session_pset, or made from such a group or communicator).
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
  void clear() {
    groups_.clear();
    sessions_.clear();
  }
  MPI_Group add(GroupRef members, MPI_Session session = MPI_SESSION_NULL);
  GroupRef find(MPI_Group handle) const {
    return handle > 0 && size_t(handle) < groups_.size() ? groups_[size_t(handle)] : nullptr;
  }
  // The session a live group derives from; MPI_SESSION_NULL for any other handle.
  MPI_Session session_of(MPI_Group handle) const {
    return find(handle) != nullptr ? sessions_[size_t(handle)] : MPI_SESSION_NULL;
  }
  // Frees a handle (MPI_GROUP_EMPTY stays valid); sets it to MPI_GROUP_NULL.
  void release(MPI_Group* handle);

 private:
  std::vector<GroupRef> groups_;  // null: a free slot
  std::vector<MPI_Session> sessions_;  // by handle, as groups_
};

// The group behind `handle`, or MPI_ERR_GROUP naming `arg` and the value.
Status lookup_group(const GroupTable& table, MPI_Group handle, const char* arg, GroupRef* out);

}  // namespace weft
