// Sessions (MPI 4.1 §11.3): the session table (error handler, thread level and info of each),
// the process sets every session sees, and how the members of a group made from a process set
// agree on a communicator without a parent (MPI_Comm_create_from_group).
// Threads: used under the call lock only (runtime/call_lock.hpp), so the table takes no lock.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "mpi.h"
#include "runtime/comm/comm.hpp"
#include "runtime/comm/group_ops.hpp"
#include "runtime/comm/info_objects.hpp"
#include "runtime/status.hpp"

namespace weft {

struct Session {
  MPI_Errhandler errhandler = MPI_ERRORS_ARE_FATAL;
  int thread_level = MPI_THREAD_SINGLE;
  InfoEntries info;  // the keys MPI_Session_init was given
};

class SessionTable {
 public:
  MPI_Session add(Session session);
  Session* find(MPI_Session handle) {
    auto it = sessions_.find(handle);
    return it == sessions_.end() ? nullptr : &it->second;
  }
  void remove(MPI_Session handle) { sessions_.erase(handle); }
  size_t live() const { return sessions_.size(); }

 private:
  std::map<MPI_Session, Session> sessions_;
  MPI_Session next_ = MPI_SESSION_NULL + 1;
};

SessionTable& sessions();

// The session behind `handle`, or MPI_ERR_SESSION naming `arg` and the value.
Status lookup_session(MPI_Session handle, const char* arg, Session** out);

// The process sets every session sees, in the order MPI_Session_get_nth_pset lists them.
const std::vector<std::string>& pset_names();
// The world ranks of a process set (names compare without regard to case); MPI_ERR_ARG naming
// `arg` and the name when there is no such set.
Status pset_members(const std::string& name, const char* arg, groups::Members* out);

// The thread level named by an info value ("MPI_THREAD_MULTIPLE" ...), or -1.
int thread_level_from_name(const std::string& name);
const char* thread_level_name(int level);

// MPI_Comm_create_from_group's work: collective over the members of `group` (this process among
// them, or MPI_ERR_GROUP); `tag` and the members tell concurrent calls apart. The communicator
// gets the error handler and the session of `origin`.
Status comm_from_group(const groups::Members& group, const std::string& tag, CommOrigin origin,
                       MPI_Comm* out);

}  // namespace weft
