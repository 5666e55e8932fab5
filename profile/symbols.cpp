// Source locations of the busiest call sites, from the modules' debug information through
// binutils' addr2line where it is installed (rank 0, after PMPI_Finalize). Without it, or without
// debug information, the sites keep what dladdr told (symbol+offset, module+offset).
#include "profile/symbols.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <map>
#include <sstream>

#include "profile/report.hpp"

namespace weft::profile {
namespace {

// The standard output of `argv` (searched in PATH), its standard error discarded; empty when it
// cannot be started.
std::string output_of(const std::vector<std::string>& argv) {
  int out[2];
  if (pipe(out) != 0) return {};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, out[0]);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  const int failed = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(out[1]);
  std::string text;
  char chunk[4096];
  for (ssize_t n; !failed && (n = read(out[0], chunk, sizeof chunk)) != 0;) {
    if (n > 0) text.append(chunk, size_t(n));
    else if (errno != EINTR) break;
  }
  close(out[0]);
  if (!failed) waitpid(pid, nullptr, 0);
  return text;
}

std::string base_name(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// "function (file.c:12)" from addr2line's two lines, or "" when it knows neither.
std::string location(std::string function, std::string place) {
  const size_t discriminator = place.find(" (discriminator");
  if (discriminator != std::string::npos) place.resize(discriminator);
  const bool known_function = !function.empty() && function != "??";
  const bool known_place = !place.empty() && place.rfind("??", 0) != 0;
  if (!known_function && !known_place) return {};
  std::string out = known_function ? function : "?";
  if (known_place) out += " (" + base_name(place) + ")";
  return out;
}

}  // namespace

void resolve_locations(std::vector<SiteSummary>* sites) {
  std::map<std::string, std::vector<SiteSummary*>> by_module;
  for (SiteSummary& s : *sites)
    if (s.module != "?" && access(s.module.c_str(), R_OK) == 0) by_module[s.module].push_back(&s);
  for (auto& [module, members] : by_module) {
    // The return address is the instruction after the call: one byte back is the call's line.
    std::vector<std::string> argv = {"addr2line", "-f", "-C", "-e", module};
    for (const SiteSummary* s : members)
      argv.push_back(format("0x%llx", (unsigned long long)(s->offset > 0 ? s->offset - 1 : 0)));
    std::stringstream lines(output_of(argv));
    std::string function, place;
    for (SiteSummary* s : members) {
      if (!std::getline(lines, function) || !std::getline(lines, place)) break;
      s->location = location(function, place);
    }
  }
}

}  // namespace weft::profile
