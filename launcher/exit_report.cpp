// Exit status formatting for weftrun's one-line failure reports.
#include "launcher/exit_report.hpp"

#include <signal.h>
#include <sys/wait.h>

#include <cstring>

namespace weft::launcher {

std::string signal_name(int sig) {
  const char* abbrev = sigabbrev_np(sig);
  return abbrev != nullptr ? std::string("SIG") + abbrev : "signal " + std::to_string(sig);
}

std::string describe_status(int wait_status) {
  if (WIFSIGNALED(wait_status)) {
    const int sig = WTERMSIG(wait_status);
    return "killed by " + signal_name(sig) + " (" + strsignal(sig) + ")";
  }
  return "exited with code " + std::to_string(WEXITSTATUS(wait_status));
}

std::string describe_rank_end(int rank, pid_t pid, int wait_status) {
  return "rank " + std::to_string(rank) + " (pid " + std::to_string(pid) + ") " +
         describe_status(wait_status);
}

int exit_code_for(int wait_status) {
  if (WIFSIGNALED(wait_status)) return 128 + WTERMSIG(wait_status);
  return WEXITSTATUS(wait_status);
}

bool is_failure(int wait_status) {
  return WIFSIGNALED(wait_status) || (WIFEXITED(wait_status) && WEXITSTATUS(wait_status) != 0);
}

}  // namespace weft::launcher
