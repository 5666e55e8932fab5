// Starting one rank: fork + exec with its environment, its output on pipes, in the job's process
// group, and killed by the kernel if weftrun dies.
#pragma once
#include <sys/types.h>

#include <string>
#include <vector>

namespace weft::launcher {

struct RankProcess {
  pid_t pid = -1;
  int out_fd = -1;  // read end of the rank's stdout
  int err_fd = -1;  // read end of the rank's stderr
  int in_fd = -1;   // write end of the rank's stdin, or -1 (stdin is /dev/null)
};

// `wdir` non-empty: the rank's working directory. `pgid` 0 makes the rank lead a new process
// group; a non-empty `cpus` (OS CPU numbers) binds it to those. Returns "" or what failed.
std::string spawn_rank(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                       const std::string& wdir, pid_t pgid, bool with_stdin,
                       const std::vector<int>& cpus, RankProcess* out);

// Where `program` would be executed from (PATH search as execvp does), or "" with `error` set.
std::string resolve_program(const std::string& program, std::string* error);

}  // namespace weft::launcher
