// Info objects (MPI_Info_*): ordered key/value lists within MPI's length limits, the predefined
// MPI_INFO_ENV (read-only), and the hints set on communicators (MPI_Comm_set_info/get_info),
// kept here by communicator handle. Usable before MPI_Init and after MPI_Finalize, as MPI 4.0
// allows. Threads: MPI_THREAD_SERIALIZED at most, so the tables take no lock.
#pragma once
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "mpi.h"
#include "runtime/status.hpp"

namespace weft {

// Keys in the order they were first set.
using InfoEntries = std::vector<std::pair<std::string, std::string>>;

// A key of 1..MPI_MAX_INFO_KEY characters (MPI_ERR_INFO_KEY), a value of at most
// MPI_MAX_INFO_VAL characters (MPI_ERR_INFO_VALUE); `arg` names the argument in the message.
Status check_info_key(const char* key, const char* arg);
Status check_info_value(const char* value, const char* arg);

class InfoTable {
 public:
  MPI_Info create(InfoEntries entries = {});
  // The entries of a user info object or of MPI_INFO_ENV; MPI_ERR_INFO for any other handle.
  Status entries(MPI_Info info, const char* arg, const InfoEntries** out);
  // A new key goes last; an existing key keeps its place and takes the new value.
  Status set(MPI_Info info, const std::string& key, const std::string& value);
  Status remove(MPI_Info info, const std::string& key);  // MPI_ERR_INFO_NOKEY if absent
  Status dup(MPI_Info info, MPI_Info* out);
  Status free(MPI_Info info);
  size_t live_objects() const { return objects_.size(); }

 private:
  // A user info object, modifiable; MPI_ERR_INFO naming the handle otherwise.
  Status modifiable(MPI_Info info, const char* arg, InfoEntries** out);

  std::map<MPI_Info, InfoEntries> objects_;
  InfoEntries env_;  // MPI_INFO_ENV as last read
  MPI_Info next_ = MPI_INFO_ENV + 1;
};

// The process-wide table.
InfoTable& infos();

// What MPI_INFO_ENV and MPI_Info_create_env hold: the keys MPI 4.1 §11.2.1 lists, in its order,
// each where Weft knows a value: command, argv, maxprocs, mpi_initial_errhandler, soft, host,
// arch, wdir, thread_level ("file" never: weftrun reads no such file). `argv` (argc entries)
// replaces this process's command line when not null. maxprocs and soft (the one size the launch
// allows) are the job's size, known before MPI_Init under weftrun or as a singleton;
// thread_level is the level MPI_Init_thread requested, known from MPI_Init on. Both stay known
// after MPI_Finalize, so the object is the same whenever it is made.
InfoEntries environment_entries(int argc, char** argv);

// Communicator hints. MPI_Comm_set_info updates the keys it names and keeps the others.
Status comm_info_set(MPI_Comm comm, MPI_Info info);
// A new info object holding the hints of `comm` (MPI_Comm_get_info).
MPI_Info comm_info_get(MPI_Comm comm);
// Hooks for the communicator code (runtime/comm/): MPI_Comm_dup/idup copy the hints with
// comm_info_on_dup; MPI_Comm_dup_with_info and the *_with_info creators call comm_info_set on
// the new communicator instead; MPI_Comm_free calls comm_info_on_free.
void comm_info_on_dup(MPI_Comm old_comm, MPI_Comm new_comm);
void comm_info_on_free(MPI_Comm comm);

}  // namespace weft
