// The blocked-in record and the state signal's handler.
#include "runtime/wait_state.hpp"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "runtime/comm/comm.hpp"

namespace weft::wait_state {
namespace {

enum class What { kNone, kMessage, kCollective };

// What the coming wait of this thread's call is for.
struct Pending {
  const char* call = nullptr;
  What what = What::kNone;
  bool send = false;
  const Comm* comm = nullptr;
  int peer = 0;
  int tag = 0;
  uint64_t bytes = 0;
  uint32_t number = 0;
};
__attribute__((tls_model("initial-exec"))) thread_local Pending g_pending;
// Threads blocked now (under MPI_THREAD_MULTIPLE several; changed under the call lock).
int g_blocked = 0;

std::atomic<const char*> g_call{nullptr};
// Two line buffers: the main thread fills the one not shown, then publishes it.
constexpr size_t kLine = 512;
char g_lines[2][kLine];
std::atomic<int> g_shown{-1};  // -1: not blocked
int g_rank = -1;

std::string peer_text(int peer, bool send) {
  if (peer == MPI_ANY_SOURCE) return "source=MPI_ANY_SOURCE";
  return std::string(send ? "dest=" : "source=") + std::to_string(peer);
}

void write_all(const char* text, size_t len) {
  while (len > 0) {
    const ssize_t n = write(STDERR_FILENO, text, len);
    if (n <= 0) return;
    text += n;
    len -= size_t(n);
  }
}

void on_state_signal(int) {
  const int saved = errno;
  char line[kLine + 160];
  const int shown = g_shown.load(std::memory_order_acquire);
  const char* call = g_call.load(std::memory_order_relaxed);
  std::string_view body;
  if (shown >= 0) {
    body = g_lines[shown];
  }
  // Only async-signal-safe work: copy pieces into `line`, then one write.
  size_t at = 0;
  auto add = [&](const char* s) {
    for (; *s != '\0' && at < sizeof line - 2; ++s) line[at++] = *s;
  };
  add(kMarker);
  char number[16];
  int n = g_rank < 0 ? 0 : g_rank, digits = 0;
  do {
    number[digits++] = char('0' + n % 10);
    n /= 10;
  } while (n > 0);
  while (digits > 0 && at < sizeof line - 2) line[at++] = number[--digits];
  add(" ");
  if (shown >= 0) {
    add(body.data());
  } else {
    add("not blocked in MPI (last MPI call: ");
    add(call != nullptr ? call : "none");
    add(")");
  }
  line[at++] = '\n';
  write_all(line, at);
  errno = saved;
}

}  // namespace

void note_call(const char* fn) {
  g_call.store(fn, std::memory_order_relaxed);
  g_pending.call = fn;
  g_pending.what = What::kNone;
}

void note_message(bool send, const Comm& comm, int peer, int tag, uint64_t bytes) {
  g_pending = Pending{g_pending.call, What::kMessage, send, &comm, peer, tag, bytes, 0};
}

void note_collective(const Comm& comm, uint32_t number) {
  g_pending = Pending{g_pending.call, What::kCollective, false, &comm, 0, 0, 0, number};
}

void blocking_begins() {
  ++g_blocked;
  const char* call = g_pending.call;
  std::string text = std::string("in ") + (call != nullptr ? call : "MPI");
  const Pending& p = g_pending;
  if (p.what == What::kMessage && p.comm != nullptr) {
    text += "(" + peer_text(p.peer, p.send) + ", tag=" +
            (p.tag == MPI_ANY_TAG ? std::string("MPI_ANY_TAG") : std::to_string(p.tag)) + ", " +
            std::to_string(p.bytes) + " bytes) on " + p.comm->display_name();
  } else if (p.what == What::kCollective && p.comm != nullptr) {
    text += " #" + std::to_string(p.number) + " on " + p.comm->display_name();
  }
  const int slot = g_shown.load(std::memory_order_relaxed) == 0 ? 1 : 0;
  std::snprintf(g_lines[slot], kLine, "%s", text.c_str());
  g_shown.store(slot, std::memory_order_release);
}

void blocking_ends() {
  // With other threads still blocked, the line keeps describing the last one to block.
  if (--g_blocked == 0) g_shown.store(-1, std::memory_order_release);
  g_pending.what = What::kNone;
}

void install_from_environment() {
  const char* sig = std::getenv("WEFT_STATE_SIGNAL");
  const char* rank = std::getenv("WEFT_RANK");
  if (sig == nullptr || std::atoi(sig) <= 0) return;
  g_rank = rank != nullptr ? std::atoi(rank) : 0;
  struct sigaction sa {};
  sa.sa_handler = on_state_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  sigaction(std::atoi(sig), &sa, nullptr);
}

const char* current_line() {
  const int shown = g_shown.load(std::memory_order_acquire);
  return shown >= 0 ? g_lines[shown] : "";
}

}  // namespace weft::wait_state
