// Session directories: creation with an owner record, and removal of those whose launcher is
// gone. Only directories of this user, named weftrun.*, that are real directories (not links)
// are ever considered, and one whose launcher still runs is never touched.
#include "launcher/session_dir.hpp"

#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace weft::launcher {
namespace {

constexpr const char* kOwnerFile = "owner";
constexpr const char* kPrefix = "weftrun.";

// Fields 3 (state) and 22 (start time in clock ticks after boot) of /proc/<pid>/stat; false
// when unreadable.
bool process_stat(long pid, char* state, unsigned long long* start) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(in, line)) return false;
  // The command name (field 2) is in parentheses and may hold spaces: count after the last ')'.
  const size_t close = line.rfind(')');
  if (close == std::string::npos) return false;
  std::istringstream rest(line.substr(close + 1));
  std::string field;
  for (int i = 3; i <= 22 && rest >> field; ++i) {
    if (i == 3) *state = field[0];
    if (i == 22) {
      *start = std::strtoull(field.c_str(), nullptr, 10);
      return true;
    }
  }
  return false;
}

unsigned long long process_start(long pid) {
  char state = '?';
  unsigned long long start = 0;
  return process_stat(pid, &state, &start) ? start : 0;
}

// The pid in a PMIx server's pmix_dstor_<kind>_<pid> directory, or 0.
long dstor_pid(const std::string& name) {
  if (name.rfind("pmix_dstor_", 0) != 0) return 0;
  const size_t us = name.rfind('_');
  char* end = nullptr;
  const long pid = std::strtol(name.c_str() + us + 1, &end, 10);
  return (end != nullptr && *end == '\0' && pid > 0) ? pid : 0;
}

}  // namespace

std::string temp_base() {
  const char* base = std::getenv("TMPDIR");
  return (base != nullptr && *base != '\0') ? base : "/tmp";
}

std::string create_session_dir(const std::string& base, std::string* path) {
  std::string tmpl = base + "/" + kPrefix + "XXXXXX";
  if (mkdtemp(tmpl.data()) == nullptr)
    return "cannot create a temporary directory " + tmpl + ": " + std::strerror(errno);
  *path = tmpl;
  const long pid = long(getpid());
  std::ofstream owner(tmpl + "/" + kOwnerFile);
  owner << pid << ' ' << process_start(pid) << '\n';
  owner.close();
  if (!owner) return "cannot write " + tmpl + "/" + kOwnerFile + ": " + std::strerror(errno);
  return "";
}

SessionOwner read_session_owner(const std::string& dir) {
  SessionOwner owner;
  std::ifstream in(dir + "/" + kOwnerFile);
  if (in >> owner.pid >> owner.start) return owner;
  owner = SessionOwner{};
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (long pid = dstor_pid(entry.path().filename().string()); pid > 0) {
      owner.pid = pid;
      break;
    }
  }
  return owner;
}

bool owner_alive(const SessionOwner& owner) {
  if (owner.pid <= 0) return false;
  if (kill(pid_t(owner.pid), 0) != 0 && errno == ESRCH) return false;
  // It exists (or is another user's, EPERM). A zombie is gone for good (its parent may never
  // reap it); a live one is the same process only if it started when the record says.
  char state = '?';
  unsigned long long start = 0;
  if (!process_stat(owner.pid, &state, &start)) return true;
  if (state == 'Z' || state == 'X') return false;
  return owner.start == 0 || start == owner.start;
}

std::vector<std::string> remove_stale_session_dirs(const std::string& base,
                                                   double unknown_after_s) {
  std::vector<std::string> removed;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(base, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(kPrefix, 0) != 0) continue;
    const std::string dir = entry.path().string();
    struct stat st {};
    if (lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != getuid()) continue;
    const SessionOwner owner = read_session_owner(dir);
    if (owner.pid > 0 ? owner_alive(owner)
                      : double(time(nullptr) - st.st_mtime) < unknown_after_s) {
      continue;  // a live job's, or one just being made
    }
    std::error_code remove_ec;
    std::filesystem::remove_all(dir, remove_ec);
    if (!remove_ec) removed.push_back(dir);
  }
  return removed;
}

}  // namespace weft::launcher
