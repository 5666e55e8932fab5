// The per-thread logs and what end_call adds to them: function totals, call sites, time in MPI,
// trace events; the cache epoch.
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

// The epochs given out so far; a lock, so that a pause and a free on two threads cannot leave
// an epoch behind that records while paused.
struct Epochs {
  std::mutex mutex;
  uint64_t last = 0;
};
Epochs& epochs() {
  static Epochs e;
  return e;
}

}  // namespace

void set_recording(bool on) {
  Epochs& e = epochs();
  std::lock_guard<std::mutex> hold(e.mutex);
  g_profile.epoch.store(on ? ++e.last : kNotRecording, std::memory_order_release);
}

void handle_freed() {
  Epochs& e = epochs();
  std::lock_guard<std::mutex> hold(e.mutex);
  // While paused nothing moves: the next start gives a new epoch anyway.
  if (g_profile.epoch.load(std::memory_order_relaxed) != kNotRecording)
    g_profile.epoch.store(++e.last, std::memory_order_release);
}

void refresh_caches(ThreadLog& log, uint64_t epoch) {
  for (FunctionRecord& f : log.functions) {
    f.datatype = 0;
    f.datatype_size = 0;
    f.comm = 0;
    f.comm_size = 0;
    f.traffic_slots = nullptr;
  }
  for (auto& owner : log.traffic_slot_owners) owner.reset();
  log.epoch = epoch;
}

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

thread_local constinit ThreadLog* t_log __attribute__((tls_model("initial-exec"))) = &g_no_log;
thread_local constinit const void* t_site __attribute__((tls_model("initial-exec"))) = nullptr;

ThreadLog* new_thread_log() {
  Logs& l = logs();
  std::lock_guard<std::mutex> hold(l.mutex);
  l.logs.push_back(std::make_unique<ThreadLog>());
  l.logs.back()->thread_index = uint16_t(l.logs.size() - 1);
  l.logs.back()->sent.resize(size_t(g_profile.world_size) + 1);
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

void enter_site(ThreadLog& log, FunctionRecord& f, const void* address, uint32_t function) {
  if (f.site_address != nullptr)
    hashed_site(log, f.site_address, function).calls += f.calls - f.calls_before_site;
  SiteStats& s = hashed_site(log, address, function);
  if (s.address == address) {
    f.site_address = address;
    f.calls_before_site = f.calls;
  } else {  // the shared record of unplaced calls
    f.site_address = nullptr;
    ++s.calls;
  }
}

void end_timed_call(ThreadLog& log, FunctionId function, const void* site, bool outermost,
                    Tick start, Tick end, uint64_t bytes, int peer) {
  FunctionRecord& f = log.functions[function];
  FunctionTimes& times = log.times[function];
  const Tick ticks = end - start;
  // A timed call past the exact ones stands for the calls of its gap (timed()).
  const Tick weighted = f.calls < kExactCalls || g_profile.trace ? ticks : ticks * kSampleEvery;
  if (f.site_address != site) enter_site(log, f, site, function);
  hashed_site(log, site, function).ticks += weighted;
  f.bytes += bytes;
  ++f.calls;
  times.ticks += weighted;
  if (ticks > times.max_ticks) times.max_ticks = ticks;
  if (outermost) log.mpi_ticks += weighted;
  if (!g_profile.trace) return;
  const uint64_t slot = g_profile.trace_claimed.fetch_add(1, std::memory_order_relaxed);
  if (slot < g_profile.trace_events.size())
    g_profile.trace_events[slot] = {start, end, bytes, uint16_t(function), log.thread_index,
                                    int32_t(peer)};
}

void note_traffic(int slot, uint64_t bytes) { add_traffic(thread_log(), slot, bytes); }

}  // namespace weft::profile
