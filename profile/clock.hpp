// The profiler's clock: the CPU's time-stamp counter where it is invariant (x86-64: about 10 ns a
// read, against about 30 for clock_gettime), converted to nanoseconds by one calibration against
// CLOCK_MONOTONIC over the whole run; elsewhere CLOCK_MONOTONIC itself.
#pragma once
#include <time.h>

#include <cstdint>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace weft::profile {

using Tick = uint64_t;

inline uint64_t monotonic_ns() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return uint64_t(t.tv_sec) * 1000000000u + uint64_t(t.tv_nsec);
}

inline Tick now() {
#if defined(__x86_64__)
  return __rdtsc();
#else
  return monotonic_ns();
#endif
}

// A pair of readings of both clocks; two of them (start and end of the run) give the rate.
struct ClockPoint {
  Tick tick = 0;
  uint64_t ns = 0;
  static ClockPoint read() {
    ClockPoint p;
    p.ns = monotonic_ns();
    p.tick = now();
    return p;
  }
};

// Nanoseconds per tick between two points (1 where the ticks are nanoseconds already or the run
// was too short to tell).
inline double ns_per_tick(const ClockPoint& from, const ClockPoint& to) {
  if (to.tick <= from.tick || to.ns <= from.ns) return 1.0;
  return double(to.ns - from.ns) / double(to.tick - from.tick);
}

}  // namespace weft::profile
