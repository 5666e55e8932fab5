// The info table, MPI_INFO_ENV's contents and the communicator hints.
#include "runtime/comm/info_objects.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

#include "runtime/world.hpp"

namespace weft {

namespace {

std::string info_name(MPI_Info info) {
  if (info == MPI_INFO_NULL) return "MPI_INFO_NULL";
  if (info == MPI_INFO_ENV) return "MPI_INFO_ENV";
  return std::to_string(info);
}

InfoEntries::iterator find_key(InfoEntries& entries, const std::string& key) {
  return std::find_if(entries.begin(), entries.end(),
                      [&](const auto& entry) { return entry.first == key; });
}

// A new key goes last; an existing key keeps its place.
void put(InfoEntries& entries, const std::string& key, const std::string& value) {
  auto it = find_key(entries, key);
  if (it != entries.end()) {
    it->second = value;
  } else {
    entries.emplace_back(key, value);
  }
}

// This process's command line from /proc (argv as exec'd).
std::vector<std::string> own_command_line() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  const std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::string> words;
  for (size_t at = 0; at < raw.size();) {
    const size_t end = raw.find('\0', at);
    words.push_back(raw.substr(at, end - at));
    at = end == std::string::npos ? raw.size() : end + 1;
  }
  return words;
}

// The job's size: from MPI_Init on the world's; before it weftrun's WEFT_SIZE, or 1 for a
// process no PMIx server started (a singleton); 0 when not known yet.
int known_job_size() {
  if (world().job_size > 0) return world().job_size;
  if (const char* size = std::getenv("WEFT_SIZE")) {
    char* end = nullptr;
    const long n = std::strtol(size, &end, 10);
    if (end != size && *end == '\0' && n > 0 && n <= INT_MAX) return int(n);
  }
  return std::getenv("PMIX_NAMESPACE") == nullptr ? 1 : 0;
}

const char* thread_level_name(int level) {
  switch (level) {
    case MPI_THREAD_SINGLE:
      return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED:
      return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED:
      return "MPI_THREAD_SERIALIZED";
    default:
      return "MPI_THREAD_MULTIPLE";
  }
}

std::map<MPI_Comm, InfoEntries>& comm_hints() {
  static std::map<MPI_Comm, InfoEntries> hints;
  return hints;
}

}  // namespace

Status check_info_key(const char* key, const char* arg) {
  if (key == nullptr)
    return Status::error(MPI_ERR_INFO_KEY, std::string("invalid ") + arg + "=NULL");
  const size_t n = std::strlen(key);
  if (n == 0) return Status::error(MPI_ERR_INFO_KEY, std::string("invalid empty ") + arg);
  if (n <= MPI_MAX_INFO_KEY) return Status::success();
  return Status::error(MPI_ERR_INFO_KEY, std::string("invalid ") + arg + " of " +
                                             std::to_string(n) +
                                             " characters (MPI_MAX_INFO_KEY is " +
                                             std::to_string(MPI_MAX_INFO_KEY) + ")");
}

Status check_info_value(const char* value, const char* arg) {
  if (value == nullptr)
    return Status::error(MPI_ERR_INFO_VALUE, std::string("invalid ") + arg + "=NULL");
  const size_t n = std::strlen(value);
  if (n <= MPI_MAX_INFO_VAL) return Status::success();
  return Status::error(MPI_ERR_INFO_VALUE, std::string("invalid ") + arg + " of " +
                                               std::to_string(n) +
                                               " characters (MPI_MAX_INFO_VAL is " +
                                               std::to_string(MPI_MAX_INFO_VAL) + ")");
}

MPI_Info InfoTable::create(InfoEntries entries) {
  const MPI_Info handle = next_++;
  objects_[handle] = std::move(entries);
  return handle;
}

Status InfoTable::entries(MPI_Info info, const char* arg, const InfoEntries** out) {
  if (info == MPI_INFO_ENV) {
    env_ = environment_entries(0, nullptr);
    *out = &env_;
    return Status::success();
  }
  InfoEntries* user = nullptr;
  WEFT_TRY(modifiable(info, arg, &user));
  *out = user;
  return Status::success();
}

Status InfoTable::modifiable(MPI_Info info, const char* arg, InfoEntries** out) {
  auto it = objects_.find(info);
  if (it != objects_.end()) {
    *out = &it->second;
    return Status::success();
  }
  std::string why = info == MPI_INFO_ENV ? " (predefined and read-only)" : "";
  return Status::error(MPI_ERR_INFO,
                       std::string("invalid info object ") + arg + "=" + info_name(info) + why);
}

Status InfoTable::set(MPI_Info info, const std::string& key, const std::string& value) {
  InfoEntries* entries = nullptr;
  WEFT_TRY(modifiable(info, "info", &entries));
  put(*entries, key, value);
  return Status::success();
}

Status InfoTable::remove(MPI_Info info, const std::string& key) {
  InfoEntries* entries = nullptr;
  WEFT_TRY(modifiable(info, "info", &entries));
  auto it = find_key(*entries, key);
  if (it == entries->end()) {
    return Status::error(MPI_ERR_INFO_NOKEY,
                         "key \"" + key + "\" is not in info object " + info_name(info));
  }
  entries->erase(it);
  return Status::success();
}

Status InfoTable::dup(MPI_Info info, MPI_Info* out) {
  const InfoEntries* entries = nullptr;
  WEFT_TRY(this->entries(info, "info", &entries));
  *out = create(*entries);
  return Status::success();
}

Status InfoTable::free(MPI_Info info) {
  InfoEntries* entries = nullptr;
  WEFT_TRY(modifiable(info, "info", &entries));
  objects_.erase(info);
  return Status::success();
}

InfoTable& infos() {
  static InfoTable table;
  return table;
}

InfoEntries environment_entries(int argc, char** argv) {
  std::vector<std::string> words;
  if (argv != nullptr) {
    for (int i = 0; i < argc && argv[i] != nullptr; ++i) words.emplace_back(argv[i]);
  } else {
    words = own_command_line();
  }
  InfoEntries env;
  if (!words.empty()) {
    env.emplace_back("command", words[0]);
    std::string args;
    for (size_t i = 1; i < words.size(); ++i) args += (i > 1 ? " " : "") + words[i];
    env.emplace_back("argv", args);
  }
  const int size = known_job_size();
  if (size > 0) env.emplace_back("maxprocs", std::to_string(size));
  // Every communicator starts with MPI_ERRORS_ARE_FATAL; no launcher option changes that.
  env.emplace_back("mpi_initial_errhandler", "mpi_errors_are_fatal");
  if (size > 0) env.emplace_back("soft", std::to_string(size));
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) == 0) env.emplace_back("host", host);
  utsname machine{};
  if (uname(&machine) == 0) env.emplace_back("arch", machine.machine);
  char cwd[4096];
  if (getcwd(cwd, sizeof cwd) != nullptr) env.emplace_back("wdir", cwd);
  const int requested = world().requested_thread_level;
  if (requested >= 0) env.emplace_back("thread_level", thread_level_name(requested));
  return env;
}

Status comm_info_set(MPI_Comm comm, MPI_Info info) {
  if (info == MPI_INFO_NULL) return Status::success();
  const InfoEntries* given = nullptr;
  WEFT_TRY(infos().entries(info, "info", &given));
  InfoEntries& hints = comm_hints()[comm];
  for (const auto& [key, value] : *given) put(hints, key, value);
  return Status::success();
}

MPI_Info comm_info_get(MPI_Comm comm) {
  auto it = comm_hints().find(comm);
  return infos().create(it != comm_hints().end() ? it->second : InfoEntries{});
}

void comm_info_on_dup(MPI_Comm old_comm, MPI_Comm new_comm) {
  auto it = comm_hints().find(old_comm);
  if (it != comm_hints().end()) comm_hints()[new_comm] = it->second;
}

void comm_info_on_free(MPI_Comm comm) { comm_hints().erase(comm); }

}  // namespace weft
