// The per-thread logs and what end_call adds to them: function totals, call sites, time in MPI,
// trace events.
#include "profile/recorder.hpp"

#include <cstdint>
#include <memory>
#include <mutex>

namespace weft::profile {

namespace {

struct Logs {
  std::mutex mutex;
  std::vector<std::unique_ptr<ThreadLog>> logs;  // never freed: threads may end before the report
};
Logs& logs() {
  static Logs l;
  return l;
}

}  // namespace

// Uniform in 1 .. 2 * kSampleEvery - 1, from Marsaglia's xorshift64 (J. Stat. Softw. 8(14),
// 2003).
uint32_t next_gap(ThreadLog& log) {
  uint64_t x = log.random_state;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  log.random_state = x;
  return 1 + uint32_t((x >> 32) % (2 * kSampleEvery - 1));
}

thread_local constinit ThreadLog* t_log __attribute__((tls_model("initial-exec"))) = nullptr;

ThreadLog* new_thread_log() {
  Logs& l = logs();
  std::lock_guard<std::mutex> hold(l.mutex);
  l.logs.push_back(std::make_unique<ThreadLog>());
  l.logs.back()->thread_index = uint16_t(l.logs.size() - 1);
  // Threads draw different gaps.
  l.logs.back()->random_state ^= uint64_t(l.logs.size()) * 0x9E3779B97F4A7C15ull;
  return l.logs.back().get();
}

std::vector<const ThreadLog*> all_thread_logs() {
  Logs& l = logs();
  std::lock_guard<std::mutex> hold(l.mutex);
  std::vector<const ThreadLog*> out;
  for (const auto& log : l.logs) out.push_back(log.get());
  return out;
}

SiteStats& hashed_site(ThreadLog& log, const void* address, uint32_t function) {
  constexpr int kProbes = 8;
  const uint64_t hash = (uint64_t(uintptr_t(address)) ^ function) * 0x9E3779B97F4A7C15ull;
  for (int probe = 0; probe < kProbes; ++probe) {
    SiteStats& s = log.sites[((hash >> 54) + probe) & (kSiteSlots - 1)];
    if (s.address == address && s.function == function) return s;
    if (s.address == nullptr) {
      s.address = address;
      s.function = function;
      return s;
    }
  }
  return log.unplaced_sites;
}

void end_timed_call(ThreadLog& log, FunctionStats& f, SiteStats& s, bool outermost,
                    FunctionId function, Tick start, Tick end, uint64_t bytes, int peer) {
  const Tick ticks = end - start;
  // A timed call past the exact ones stands for the calls of its gap (timed()).
  const Tick weighted = f.calls < kExactCalls || g_profile.trace ? ticks : ticks * kSampleEvery;
  ++f.calls;
  f.ticks += weighted;
  if (ticks > f.max_ticks) f.max_ticks = ticks;
  s.ticks += weighted;
  if (outermost) log.mpi_ticks += weighted;
  if (!g_profile.trace) return;
  const uint64_t slot = g_profile.trace_claimed.fetch_add(1, std::memory_order_relaxed);
  if (slot < g_profile.trace_events.size())
    g_profile.trace_events[slot] = {start, end, bytes, uint16_t(function), log.thread_index,
                                    int32_t(peer)};
}

void note_traffic(int world_peer, uint64_t bytes) {
  ThreadLog& log = thread_log();
  Traffic* t = &log.sent_outside_world;
  if (world_peer >= 0 && world_peer < g_profile.world_size) {
    if (log.sent.empty()) log.sent.resize(size_t(g_profile.world_size));
    t = &log.sent[size_t(world_peer)];
  }
  t->bytes += bytes;
  ++t->messages;
}

}  // namespace weft::profile
