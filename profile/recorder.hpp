// What the wrappers record while a profile runs: per thread, each function's calls, time and
// bytes, the call sites, the traffic sent to each world rank and the time spent in MPI; per rank,
// the trace events. The wrappers (generated wrappers.cpp) call begin_call and end_call around
// each PMPI_* call; nothing here allocates or locks on that path once a thread's log exists.
#pragma once
#include <atomic>
#include <cstdint>
#include <vector>

#include "profile/clock.hpp"
#include "profile/function_ids.hpp"

namespace weft::profile {

inline constexpr int kNoPeer = -1;

// One call site: the return address of a wrapper (an instruction in its caller) and which MPI
// function was called there.
struct SiteStats {
  const void* address = nullptr;
  uint32_t function = 0;
  uint64_t calls = 0;
  Tick ticks = 0;
};

struct FunctionStats {
  uint64_t calls = 0;
  Tick ticks = 0;
  Tick max_ticks = 0;
  uint64_t bytes = 0;
  SiteStats* last_site = nullptr;  // where this function was called from last (most calls repeat it)
};

struct Traffic {
  uint64_t bytes = 0;
  uint64_t messages = 0;
};

// Call sites kept per thread (open addressing); calls at sites beyond them are counted apart.
inline constexpr int kSiteSlots = 1024;

struct ThreadLog {
  FunctionStats functions[kFunctionCount];
  SiteStats sites[kSiteSlots];
  SiteStats unplaced_sites;       // calls at sites that found no free slot
  std::vector<Traffic> sent;      // by world rank (sized at the first send)
  Traffic sent_outside_world;     // to processes of other jobs (spawned, connected)
  Tick mpi_ticks = 0;             // time inside outermost MPI calls
  int depth = 0;                  // of MPI calls: one made inside another (a callback calling MPI)
                                  // is counted, but its time is already in the outer call's
  uint16_t thread_index = 0;      // 0 for the first thread that called MPI, then 1, 2, ...
  uint32_t untimed_left = 1;      // sampled calls to go until the next timed one
  uint64_t random_state = 0x2545F4914F6CDD1Dull;  // of the gaps between timed calls
};

// One trace event: a call of `function` by thread `thread`.
struct TraceEvent {
  Tick start;
  Tick end;
  uint64_t bytes;
  uint16_t function;
  uint16_t thread;
  int32_t peer;  // world rank sent to, or kNoPeer
};

// The state of this rank's profile (lifecycle.cpp starts and ends it).
struct Profile {
  std::atomic<bool> recording{false};  // between MPI_Init and MPI_Finalize, unless MPI_Pcontrol(0)
  int world_rank = 0;
  int world_size = 1;
  bool trace = false;
  std::vector<TraceEvent> trace_events;      // the budget, allocated at start
  std::atomic<uint64_t> trace_claimed{0};    // events claimed; those past the budget are dropped
};

inline Profile g_profile;
inline bool recording() { return g_profile.recording.load(std::memory_order_relaxed); }

ThreadLog* new_thread_log();
extern thread_local constinit ThreadLog* t_log __attribute__((tls_model("initial-exec")));
inline ThreadLog& thread_log() {
  if (t_log == nullptr) [[unlikely]] t_log = new_thread_log();
  return *t_log;
}
// Every thread's log (for the report at MPI_Finalize, when no other thread is in MPI).
std::vector<const ThreadLog*> all_thread_logs();

// Reading the clock is most of what a wrapper costs (rdtsc: 12-25 ns here, against an 85 ns
// message), so a thread times every call of a function until it has made kExactCalls of them,
// and after that one call in kSampleEvery on average, at random gaps (uniform in 1 to
// 2 * kSampleEvery - 1, so that no periodic pattern of calls is always or never timed). A timed
// sampled call stands for kSampleEvery calls in the times: totals, means and the time in MPI are
// then estimates (Horvitz-Thompson), the longest call the longest timed one; calls, bytes and
// traffic are always exact. With the trace on, every call is timed.
inline constexpr uint64_t kExactCalls = 1024;
inline constexpr uint32_t kSampleEvery = 64;

// The next gap between timed calls (recorder.cpp).
uint32_t next_gap(ThreadLog& log);

// Whether a call of `function` on this thread is timed (also counts down the sampling gap).
[[gnu::always_inline]] inline bool timed(ThreadLog& log, FunctionId function) {
  if (log.functions[function].calls < kExactCalls || g_profile.trace) return true;
  if (--log.untimed_left != 0) return false;
  log.untimed_left = next_gap(log);
  return true;
}

// The thread's log when this call of `function` goes untimed, nullptr when it is timed. An
// untimed call is counted before it runs (untimed_counted), then passed on as a tail call, so
// the wrapper keeps no frame around it: its bytes and traffic are counted even if it then fails,
// and a call made inside it (a callback calling MPI) does not see it as its outer call.
[[gnu::always_inline]] inline ThreadLog* untimed_call(FunctionId function) {
  ThreadLog& log = thread_log();
  return timed(log, function) ? nullptr : &log;
}
// The start of a call that untimed_call found timed: its clock reading.
[[gnu::always_inline]] inline Tick begin_timed_call() {
  ++thread_log().depth;
  return now();
}
// The start of a call of `function` that cannot be passed on as a tail call (it counts what the
// call returns): its clock reading, or 0 when it goes untimed.
[[gnu::always_inline]] inline Tick begin_call(FunctionId function) {
  ThreadLog& log = thread_log();
  ++log.depth;
  return timed(log, function) ? now() : 0;
}
// The end of a call begun at `start`: the clock, or 0 for an untimed call.
inline Tick end_of(Tick start) { return start != 0 ? now() : 0; }

// Fibonacci hashing of the address (Knuth, TAOCP vol. 3, 6.4) to a slot; a few probes, then the
// call is counted among the unplaced ones. Out of line: most calls find their function's last
// site (site_of).
SiteStats& hashed_site(ThreadLog& log, const void* address, uint32_t function);

// The record of a call of `function` from `address`.
[[gnu::always_inline]] inline SiteStats& site_of(ThreadLog& log, FunctionStats& f,
                                                 const void* address, uint32_t function) {
  if (f.last_site != nullptr && f.last_site->address == address) [[likely]] return *f.last_site;
  SiteStats& s = hashed_site(log, address, function);
  if (s.address == address) f.last_site = &s;  // not the shared record of unplaced calls
  return s;
}

// Counts an untimed call of `function` from `site` that moves `bytes`.
[[gnu::always_inline]] inline void untimed_counted(ThreadLog& log, FunctionId function,
                                                   const void* site, uint64_t bytes) {
  FunctionStats& f = log.functions[function];
  ++site_of(log, f, site, function).calls;
  f.bytes += bytes;
  ++f.calls;
}

// The part of end_call for a timed call: its time, and its trace event.
void end_timed_call(ThreadLog& log, FunctionStats& f, SiteStats& s, bool outermost,
                    FunctionId function, Tick start, Tick end, uint64_t bytes, int peer);

// Counts the call; start and end are 0 for an untimed call. Inline: that is most calls.
[[gnu::always_inline]] inline void end_call(FunctionId function, Tick start, Tick end,
                                            const void* site, uint64_t bytes, int peer) {
  ThreadLog& log = *t_log;
  const bool outermost = --log.depth == 0;
  if (start == 0) return untimed_counted(log, function, site, bytes);  // sampled, not timed
  FunctionStats& f = log.functions[function];
  SiteStats& s = site_of(log, f, site, function);
  ++s.calls;
  f.bytes += bytes;
  end_timed_call(log, f, s, outermost, function, start, end, bytes, peer);
}

// Counts a message of `bytes` to world rank `world_peer` (or outside the world when negative).
void note_traffic(int world_peer, uint64_t bytes);

}  // namespace weft::profile
