// The group handle table.
#include "runtime/comm/group.hpp"

#include <string>

namespace weft {

void GroupTable::init_predefined() {
  groups_.assign(2, nullptr);
  sessions_.assign(2, MPI_SESSION_NULL);
  groups_[MPI_GROUP_EMPTY] = std::make_shared<const groups::Members>();
}

MPI_Group GroupTable::add(GroupRef members, MPI_Session session) {
  for (size_t i = MPI_GROUP_EMPTY + 1; i < groups_.size(); ++i) {
    if (groups_[i] == nullptr) {
      groups_[i] = std::move(members);
      sessions_[i] = session;
      return MPI_Group(i);
    }
  }
  groups_.push_back(std::move(members));
  sessions_.push_back(session);
  return MPI_Group(groups_.size() - 1);
}

void GroupTable::release(MPI_Group* handle) {
  if (*handle > MPI_GROUP_EMPTY && size_t(*handle) < groups_.size()) groups_[size_t(*handle)] = nullptr;
  *handle = MPI_GROUP_NULL;
}

Status lookup_group(const GroupTable& table, MPI_Group handle, const char* arg, GroupRef* out) {
  *out = table.find(handle);
  if (*out != nullptr) return Status::success();
  return Status::error(MPI_ERR_GROUP, std::string("invalid group ") + arg + "=" +
                                          (handle == MPI_GROUP_NULL ? "MPI_GROUP_NULL"
                                                                    : std::to_string(handle)));
}

}  // namespace weft
