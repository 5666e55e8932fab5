// fork/exec of ranks. Between fork and exec only async-signal-safe calls: argv/envp are built
// before forking (the PMIx server already runs a thread).
#include "launcher/spawn.hpp"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "launcher/hang_report.hpp"

namespace weft::launcher {
namespace {

std::vector<char*> c_array(const std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (const std::string& s : strings) out.push_back(const_cast<char*>(s.c_str()));
  out.push_back(nullptr);
  return out;
}

bool executable_file(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(path.c_str(), X_OK) == 0;
}

}  // namespace

std::string resolve_program(const std::string& program, std::string* error) {
  if (program.find('/') != std::string::npos) {
    // Absolute, so that a rank started in another working directory (-wdir) still finds it.
    if (executable_file(program)) return std::filesystem::absolute(program).string();
    *error = "cannot execute '" + program + "': " +
             (access(program.c_str(), F_OK) == 0 ? "not an executable file" : std::strerror(errno));
    return {};
  }
  const char* path = std::getenv("PATH");
  std::string dirs = path != nullptr ? path : "/usr/bin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    const size_t end = std::min(dirs.find(':', start), dirs.size());
    const std::string dir = end > start ? dirs.substr(start, end - start) : ".";
    const std::string candidate = dir + "/" + program;
    if (executable_file(candidate)) return candidate;
    start = end + 1;
  }
  *error = "cannot find program '" + program + "' in PATH";
  return {};
}

std::string spawn_rank(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                       const std::string& wdir, pid_t pgid, bool with_stdin,
                       const std::vector<int>& cpus, RankProcess* out) {
  int out_pipe[2], err_pipe[2], in_pipe[2] = {-1, -1};
  if (pipe2(out_pipe, O_CLOEXEC) != 0 || pipe2(err_pipe, O_CLOEXEC) != 0 ||
      (with_stdin && pipe2(in_pipe, O_CLOEXEC) != 0))
    return std::string("pipe failed: ") + std::strerror(errno);
  std::vector<char*> args = c_array(argv);
  std::vector<char*> envp = c_array(env);
  const pid_t parent = getpid();
  const int report_signal = state_signal();
  cpu_set_t cpu_set;
  CPU_ZERO(&cpu_set);
  for (int cpu : cpus)
    if (cpu >= 0 && cpu < CPU_SETSIZE) CPU_SET(cpu, &cpu_set);

  const pid_t pid = fork();
  if (pid < 0) return std::string("fork failed: ") + std::strerror(errno);
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    setpgid(0, pgid);
    signal(SIGPIPE, SIG_DFL);
    // The hang report's signal is ignored until the rank's MPI library takes it (MPI_Init), so
    // asking a program that is not (yet) in MPI for its state never kills it.
    signal(report_signal, SIG_IGN);
    if (!cpus.empty())
      sched_setaffinity(0, sizeof cpu_set, &cpu_set);  // a hint: failure is harmless
    int in = with_stdin ? in_pipe[0] : open("/dev/null", O_RDONLY);
    dup2(in, STDIN_FILENO);
    dup2(out_pipe[1], STDOUT_FILENO);
    dup2(err_pipe[1], STDERR_FILENO);
    const char* msg = "weftrun: cannot change to the working directory\n";
    if (!wdir.empty() && chdir(wdir.c_str()) != 0) {
      (void)!write(STDERR_FILENO, msg, std::strlen(msg));
      _exit(127);
    }
    execve(args[0], args.data(), envp.data());
    msg = "weftrun: exec failed\n";
    (void)!write(STDERR_FILENO, msg, std::strlen(msg));
    _exit(127);
  }
  setpgid(pid, pgid == 0 ? pid : pgid);  // also here, so the group exists before we signal it
  close(out_pipe[1]);
  close(err_pipe[1]);
  if (with_stdin) {
    close(in_pipe[0]);
    fcntl(in_pipe[1], F_SETFL, O_NONBLOCK);
  }
  out->pid = pid;
  out->out_fd = out_pipe[0];
  out->err_fd = err_pipe[0];
  out->in_fd = with_stdin ? in_pipe[1] : -1;
  return {};
}

}  // namespace weft::launcher
