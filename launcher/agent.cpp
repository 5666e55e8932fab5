// The launch agent's process and stderr.
#include "launcher/agent.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace weft::launcher {
namespace {

constexpr size_t kErrTail = 4096;  // how much of an agent's stderr is kept for messages

std::string shell_quote(const std::string& word) {
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

std::string beside_self(const std::string& relative) {
  char self[4096] = {};
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  std::string path = n > 0 ? std::string(self, size_t(n)) : std::string("weftrun");
  const size_t slash = path.rfind('/');
  return (slash == std::string::npos ? std::string() : path.substr(0, slash + 1)) + relative;
}

std::string weftd_path() { return beside_self("weftd"); }

std::string profiler_library() {
  for (const char* dir : {"../" WEFT_INSTALL_LIBDIR "/", "../lib/"}) {
    const std::string path = beside_self(std::string(dir) + "libweft_profile.so");
    if (access(path.c_str(), R_OK) == 0) return path;
  }
  return {};
}

Agent::~Agent() {
  if (running()) {
    kill_group();
    waitpid(pid_, nullptr, 0);
  }
  if (err_fd_ >= 0) close(err_fd_);
}

std::string Agent::start(const std::string& agent, const std::string& host,
                         const std::string& weftd_args, const std::string& secret) {
  std::string command = agent;
  if (command.find("{host}") == std::string::npos) command += " " + shell_quote(host);
  for (size_t p = command.find("{host}"); p != std::string::npos; p = command.find("{host}", p))
    command.replace(p, 6, host);
  command += " " + shell_quote(weftd_path()) + " " + weftd_args;
  int in[2], err[2];
  if (pipe2(in, O_CLOEXEC) != 0) return std::string("pipe: ") + std::strerror(errno);
  if (pipe2(err, O_CLOEXEC) != 0) {
    close(in[0]);
    close(in[1]);
    return std::string("pipe: ") + std::strerror(errno);
  }
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) return std::string("fork: ") + std::strerror(errno);
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    setpgid(0, 0);
    signal(SIGPIPE, SIG_DFL);
    const int devnull = open("/dev/null", O_WRONLY);
    dup2(in[0], STDIN_FILENO);
    dup2(devnull, STDOUT_FILENO);
    dup2(err[1], STDERR_FILENO);
    execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(in[0]);
  close(err[1]);
  const std::string line = secret + "\n";
  (void)!write(in[1], line.data(), line.size());
  close(in[1]);
  fcntl(err[0], F_SETFL, O_NONBLOCK);
  pid_ = pid;
  err_fd_ = err[0];
  return {};
}

void Agent::read_err() {
  if (err_fd_ < 0) return;
  char buf[4096];
  ssize_t got;
  while ((got = read(err_fd_, buf, sizeof buf)) > 0) {
    err_tail_.append(buf, size_t(got));
    if (err_tail_.size() > kErrTail) err_tail_.erase(0, err_tail_.size() - kErrTail);
  }
  if (got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR)) {
    close(err_fd_);
    err_fd_ = -1;
  }
}

bool Agent::reap(int* status) {
  if (!running()) return false;
  if (waitpid(pid_, status, WNOHANG) != pid_) return false;
  ended_ = true;
  read_err();
  return true;
}

void Agent::kill_group() {
  if (running()) kill(-pid_, SIGKILL);
}

std::string Agent::last_line() const {
  const size_t end = err_tail_.find_last_not_of("\r\n");
  if (end == std::string::npos) return {};
  const size_t nl = err_tail_.rfind('\n', end);
  const size_t start = nl == std::string::npos ? 0 : nl + 1;
  return err_tail_.substr(start, end - start + 1);
}

}  // namespace weft::launcher
