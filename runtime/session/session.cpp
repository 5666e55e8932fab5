// Session objects, process sets and communicators made from a group.
#include "runtime/session/session.hpp"

#include <strings.h>

#include "runtime/comm/create.hpp"
#include "runtime/world.hpp"

namespace weft {

SessionTable& sessions() {
  static SessionTable table;
  return table;
}

MPI_Session SessionTable::add(Session session) {
  const MPI_Session handle = next_++;
  sessions_.emplace(handle, std::move(session));
  return handle;
}

Status lookup_session(MPI_Session handle, const char* arg, Session** out) {
  *out = sessions().find(handle);
  if (*out != nullptr) return Status::success();
  return Status::error(
      MPI_ERR_SESSION,
      std::string("invalid session ") + arg + "=" +
          (handle == MPI_SESSION_NULL ? std::string("MPI_SESSION_NULL")
                                      : std::to_string(handle) + " (not a live session)"));
}

const std::vector<std::string>& pset_names() {
  static const std::vector<std::string> names{"mpi://WORLD", "mpi://SELF"};
  return names;
}

Status pset_members(const std::string& name, const char* arg, groups::Members* out) {
  const int me = my_world_rank();
  if (strcasecmp(name.c_str(), "mpi://WORLD") == 0) {
    out->resize(size_t(world().kvs->job().size));
    for (size_t r = 0; r < out->size(); ++r) (*out)[r] = int(r);
    return Status::success();
  }
  if (strcasecmp(name.c_str(), "mpi://SELF") == 0) {
    *out = {me};
    return Status::success();
  }
  return Status::error(MPI_ERR_ARG, std::string("invalid ") + arg + "=\"" + name +
                                        "\" (no such process set; there are mpi://WORLD and "
                                        "mpi://SELF)");
}

namespace {
constexpr const char* kLevelNames[] = {"MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED",
                                       "MPI_THREAD_SERIALIZED", "MPI_THREAD_MULTIPLE"};
}

int thread_level_from_name(const std::string& name) {
  for (int level = MPI_THREAD_SINGLE; level <= MPI_THREAD_MULTIPLE; ++level)
    if (strcasecmp(name.c_str(), kLevelNames[level - MPI_THREAD_SINGLE]) == 0) return level;
  return -1;
}

const char* thread_level_name(int level) { return kLevelNames[level - MPI_THREAD_SINGLE]; }

Status comm_from_group(const groups::Members& group, const std::string& tag, CommOrigin origin,
                       MPI_Comm* out) {
  if (groups::rank_of(group, my_world_rank()) == MPI_UNDEFINED) {
    return Status::error(MPI_ERR_GROUP,
                         "invalid group: this process is not a member (only the group's members "
                         "call MPI_Comm_create_from_group)");
  }
  // FNV-1a over the tag and the members: calls with another tag or other members (which may
  // run at the same time on overlapping groups) number their internal collectives apart.
  uint32_t hash = 2166136261u;
  auto mix = [&hash](uint32_t byte) { hash = (hash ^ byte) * 16777619u; };
  for (unsigned char c : tag) mix(c);
  for (int r : group)
    for (int shift = 0; shift < 32; shift += 8) mix(uint32_t(r) >> shift & 0xff);
  uint32_t pair = 0;
  WEFT_TRY(agree_among(group, 2 * ContextIds::kFromGroupPair, hash,
                       "the group of MPI_Comm_create_from_group", &pair));
  *out = register_comm(group, pair, origin);
  return Status::success();
}

}  // namespace weft
