// Starting weftd on a host through the launch agent (ssh, srun, `ip netns exec`, any command with
// {host}), and watching that agent: its process, and the tail of its stderr, whose last line
// (ssh's own error, say) tells in one line why a daemon could not start. Used by weftrun for the
// daemons it starts and by weftd for its children in the start-up tree.
#pragma once
#include <sys/types.h>

#include <string>

namespace weft::launcher {

// `relative` taken from the directory of the running program (weftrun or weftd).
std::string beside_self(const std::string& relative);
// weftd beside the running program (weftrun and weftd are installed together).
std::string weftd_path();
// The profiler (libweft_profile.so) in the library directory next to the running program's, in
// an installation or in the build tree; "" when neither has it.
std::string profiler_library();

class Agent {
 public:
  Agent() = default;
  Agent(const Agent&) = delete;
  Agent& operator=(const Agent&) = delete;
  ~Agent();  // an agent still running is killed with its process group

  // Runs `agent` ({host} replaced by `host`; without {host}, the host is appended) followed by
  // weftd's path and `weftd_args`, in a process group of its own; `secret` is written to its stdin
  // (and nowhere else). Returns "" or what failed.
  std::string start(const std::string& agent, const std::string& host,
                    const std::string& weftd_args, const std::string& secret);
  int err_fd() const { return err_fd_; }
  // Keeps what has arrived on the agent's stderr (the last few KiB).
  void read_err();
  // True once, when the agent has ended; `status` is its wait status.
  bool reap(int* status);
  bool running() const { return pid_ > 0 && !ended_; }
  void kill_group();
  // The last line the agent wrote to stderr, or "".
  std::string last_line() const;

 private:
  pid_t pid_ = -1;
  int err_fd_ = -1;
  bool ended_ = false;
  std::string err_tail_;
};

}  // namespace weft::launcher
