// What the wrappers record while a profile runs: per thread, each function's calls, time and
// bytes, the call sites, the traffic sent to each world rank and the time spent in MPI; per rank,
// the trace events. A generated wrapper (wrappers.cpp) counts most calls itself through the
// *_hit functions here and in handles.hpp; the others go to its counted_MPI_* function
// (untimed_call, begin_call, end_call). Nothing here allocates or locks on those paths once a
// thread's log exists.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
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

// One function's counts on one thread, with what lets its next call skip every lookup: all that an
// untimed call of it reads or writes but its traffic, in one cache line. A call from the function's
// last site is counted there by ++calls alone: that site's record catches up when another site
// becomes the last one (enter_site) or at the report (collect.cpp). The cached handles are 0
// (MPI_DATATYPE_NULL, MPI_COMM_NULL: handles.hpp checks) when none is cached, and are dropped
// whenever the cache epoch moves (Profile::epoch).
struct alignas(64) FunctionRecord {
  uint32_t untimed_left = 1;           // calls to go until the next timed one, that one included
                                       //   (a send's wrapper counts down before any other check)
  int32_t datatype = 0;                // the last datatype argument, and its size in bytes
  int32_t comm = 0;                    // the last communicator sent on, its size, and the slot in
  uint32_t comm_size = 0;              //   ThreadLog::sent of each of its ranks (traffic_slots)
  const void* site_address = nullptr;  // where this function was called from last (a site with a
  uint64_t calls_before_site = 0;      //   record), and `calls` when it became the last
  uint64_t calls = 0;
  uint64_t bytes = 0;
  uint64_t datatype_size = 0;
  const int32_t* traffic_slots = nullptr;
};
static_assert(sizeof(FunctionRecord) == 64);

// What only timed calls add, apart so that it takes no room in the records.
struct FunctionTimes {
  Tick ticks = 0;
  Tick max_ticks = 0;
};

struct Traffic {
  uint64_t bytes = 0;
  uint64_t messages = 0;
};

// Call sites kept per thread (open addressing); calls at sites beyond them are counted apart.
inline constexpr int kSiteSlots = 1024;

struct ThreadLog {
  uint64_t epoch = 0;             // of the handles cached in its records; 0: none (kNotRecording
                                  // is never one, so a log matches no epoch while not recording)
  FunctionRecord functions[kFunctionCount];
  FunctionTimes times[kFunctionCount];
  SiteStats sites[kSiteSlots];
  SiteStats unplaced_sites;       // calls at sites that found no free slot
  std::vector<Traffic> sent;      // by world rank, then one slot for processes of other jobs
  // What each record's traffic_slots points into, held here while it is cached: a send counts
  // its traffic after its call, when another thread may have freed the communicator.
  std::shared_ptr<const std::vector<int32_t>> traffic_slot_owners[kFunctionCount];
  Tick mpi_ticks = 0;             // time inside outermost MPI calls
  int depth = 0;                  // of MPI calls: one made inside another (a callback calling MPI)
                                  // is counted, but its time is already in the outer call's
  uint16_t thread_index = 0;      // 0 for the first thread that called MPI, then 1, 2, ...
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

inline constexpr uint64_t kNotRecording = ~uint64_t(0);

// The state of this rank's profile (lifecycle.cpp starts and ends it).
struct Profile {
  // kNotRecording outside MPI_Init..MPI_Finalize and while MPI_Pcontrol(0) pauses the profile;
  // else a number that moves whenever a cached handle may have been freed (set_recording,
  // handle_freed). A thread whose log holds another one drops its cached handles before it uses
  // them (current_log), so one compare tells a wrapper both that the profile records and that
  // its caches are current.
  std::atomic<uint64_t> epoch{kNotRecording};
  int world_rank = 0;
  int world_size = 1;
  bool trace = false;
  std::vector<TraceEvent> trace_events;      // the budget, allocated at start
  std::atomic<uint64_t> trace_claimed{0};    // events claimed; those past the budget are dropped
};

inline Profile g_profile;
inline bool recording() {
  return g_profile.epoch.load(std::memory_order_relaxed) != kNotRecording;
}
// Starts or pauses recording; a new epoch on each start.
void set_recording(bool on);
// A datatype or communicator is being freed: every thread drops its cached handles.
void handle_freed();

// A thread's log pointer is g_no_log until its first counted call makes its own, so the wrappers
// need no null test: g_no_log's epoch (0) is never the profile's.
inline ThreadLog g_no_log;
ThreadLog* new_thread_log();
extern thread_local constinit ThreadLog* t_log __attribute__((tls_model("initial-exec")));
inline ThreadLog& thread_log() {
  if (t_log == &g_no_log) [[unlikely]] t_log = new_thread_log();
  return *t_log;
}
// The call site of a call that leaves its wrapper's fast path, for its counted_MPI_* (set aside
// here so that the wrapper passes its own arguments on unchanged, as a tail call).
extern thread_local constinit const void* t_site __attribute__((tls_model("initial-exec")));
// Drops the handles cached in log's records and takes `epoch` (recorder.cpp).
void refresh_caches(ThreadLog& log, uint64_t epoch);
// The thread's log with its cached handles current (while recording).
inline ThreadLog& current_log() {
  ThreadLog& log = thread_log();
  const uint64_t epoch = g_profile.epoch.load(std::memory_order_acquire);
  if (log.epoch != epoch && epoch != kNotRecording) [[unlikely]] refresh_caches(log, epoch);
  return log;
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

// Whether this call of f is timed. The wrapper's fast path counts f.untimed_left down (last of
// all its checks; a send's, first) and leaves it at 0 when it reaches 0; a call that left the
// fast path before counting down counts it down here.
[[gnu::always_inline]] inline bool timed(ThreadLog& log, FunctionRecord& f) {
  if (f.untimed_left != 0 && --f.untimed_left != 0) return false;
  f.untimed_left = f.calls + 1 < kExactCalls || g_profile.trace ? 1 : next_gap(log);
  return true;
}

// The wrapper's fast path: whether the thread's caches are current and the call comes from f's
// last site (then the generated wrapper checks the handles, handles.hpp), and lastly whether it
// goes untimed. All checks come before any count, so a call that fails one is counted once, by
// counted_MPI_*. A send checks current() and counts down first, passes the call on, then checks
// the rest: one that fails them is counted once, by sent_MPI_* (gen_wrappers.py).
[[gnu::always_inline]] inline bool current(const ThreadLog& log) {
  return log.epoch == g_profile.epoch.load(std::memory_order_relaxed);
}
[[gnu::always_inline]] inline bool hit(const ThreadLog& log, const FunctionRecord& f,
                                       const void* site) {
  return current(log) && f.site_address == site;
}
[[gnu::always_inline]] inline bool untimed_hit(FunctionRecord& f) { return --f.untimed_left != 0; }
// Counts a call that passed them, of `bytes`.
[[gnu::always_inline]] inline void count_hit(FunctionRecord& f, uint64_t bytes) {
  ++f.calls;
  f.bytes += bytes;
}

// The thread's log when this call of `function` goes untimed, nullptr when it is timed. An
// untimed call is counted before it runs (untimed_counted), then passed on as a tail call, so
// a call made inside it (a callback calling MPI) does not see it as its outer call, and its bytes
// and traffic are counted even if it then fails.
[[gnu::always_inline]] inline ThreadLog* untimed_call(FunctionId function) {
  ThreadLog& log = current_log();
  return timed(log, log.functions[function]) ? nullptr : &log;
}
// The start of a call that untimed_call found timed: its clock reading.
[[gnu::always_inline]] inline Tick begin_timed_call() {
  ++thread_log().depth;
  return now();
}
// The start of a call of `function` that cannot be passed on as a tail call (it counts what the
// call returns): its clock reading, or 0 when it goes untimed.
[[gnu::always_inline]] inline Tick begin_call(FunctionId function) {
  ThreadLog& log = current_log();
  ++log.depth;
  return timed(log, log.functions[function]) ? now() : 0;
}
// The end of a call begun at `start`: the clock, or 0 for an untimed call.
inline Tick end_of(Tick start) { return start != 0 ? now() : 0; }

// Fibonacci hashing of the address (Knuth, TAOCP vol. 3, 6.4) to a slot; a few probes, then the
// call is counted among the unplaced ones. Out of line: most calls come from their function's
// last site.
SiteStats& hashed_site(ThreadLog& log, const void* address, uint32_t function);

// Makes `address` f's last site, first adding the calls made at the last one to its record; a
// site that finds no record is counted among the unplaced ones here and does not become the last.
void enter_site(ThreadLog& log, FunctionRecord& f, const void* address, uint32_t function);

// Counts an untimed call of `function` from `site` that moves `bytes`.
[[gnu::always_inline]] inline void untimed_counted(ThreadLog& log, FunctionId function,
                                                   const void* site, uint64_t bytes) {
  FunctionRecord& f = log.functions[function];
  if (f.site_address != site) [[unlikely]] enter_site(log, f, site, function);
  f.bytes += bytes;
  ++f.calls;
}

// The part of end_call for a timed call: its calls, bytes and time, and its trace event.
void end_timed_call(ThreadLog& log, FunctionId function, const void* site, bool outermost,
                    Tick start, Tick end, uint64_t bytes, int peer);

// Counts the call; start and end are 0 for an untimed call. Inline: that is most calls.
[[gnu::always_inline]] inline void end_call(FunctionId function, Tick start, Tick end,
                                            const void* site, uint64_t bytes, int peer) {
  ThreadLog& log = *t_log;
  const bool outermost = --log.depth == 0;
  if (start == 0) return untimed_counted(log, function, site, bytes);  // sampled, not timed
  end_timed_call(log, function, site, outermost, start, end, bytes, peer);
}

// Counts a message of `bytes` in t; in traffic slot `slot` of log (a world rank, or
// g_profile.world_size for processes of other jobs); in slot `slot` of the thread's log.
[[gnu::always_inline]] inline void count_message(Traffic& t, uint64_t bytes) {
  t.bytes += bytes;
  ++t.messages;
}
[[gnu::always_inline]] inline void add_traffic(ThreadLog& log, int slot, uint64_t bytes) {
  count_message(log.sent[size_t(slot)], bytes);
}
void note_traffic(int slot, uint64_t bytes);

}  // namespace weft::profile
