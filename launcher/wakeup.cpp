// The self-pipe for signals and the monotonic clock.
#include "launcher/wakeup.hpp"

#include <fcntl.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace weft::launcher {
namespace {

int g_wake_fd = -1;      // write end of the self-pipe, for the signal handler
pid_t g_wake_owner = -1;  // the launcher process the pipe is for

void on_signal(int sig) {
  // A child between fork and exec (a rank or an agent being started) still runs this handler:
  // a signal meant for it (the job's SIGTERM to a rank's group) must not reach the launcher's
  // pipe as if the launcher had got it. The child takes the signal's default action instead.
  if (getpid() != g_wake_owner) {
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, nullptr);
    raise(sig);
    return;
  }
  const char byte = char(sig);
  const int saved = errno;
  (void)!write(g_wake_fd, &byte, 1);
  errno = saved;
}

}  // namespace

double now_s() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

std::string open_wakeup(int fds[2], std::initializer_list<int> signals) {
  if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0) return std::string("pipe: ") + std::strerror(errno);
  g_wake_fd = fds[1];
  g_wake_owner = getpid();
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  for (int sig : signals) sigaction(sig, &sa, nullptr);
  signal(SIGPIPE, SIG_IGN);
  return {};
}

}  // namespace weft::launcher
