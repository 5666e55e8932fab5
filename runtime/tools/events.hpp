// MPI_T events where they happen: any layer may include this header (it includes nothing of the
// project). Each raise point costs one relaxed load and a branch while no registration wants its
// event; runtime/tools/events.cpp holds the registrations and delivers.
#pragma once
#include <atomic>
#include <cstdint>

namespace weft::coll {
struct Algorithm;
struct CollArgs;
}  // namespace weft::coll

namespace weft::tools {

// The event types, in the order of their MPI_T event indices.
enum class EventKind : int { kUnexpectedMessage, kCollAlgorithm, kWaitBlocked };
inline constexpr int kNumEventKinds = 3;

// The data of each event instance, as MPI_T_event_copy writes it (events_table.cpp describes the
// elements with these offsets).
struct UnexpectedMessageData {
  int32_t source;   // the sender's rank in the communicator
  int32_t tag;
  int32_t context;  // the communicator's point-to-point context id
  int64_t bytes;    // the message's payload
};
struct CollAlgorithmData {
  int32_t algorithm;  // an item of the enumeration weft_coll_algorithm
  int32_t context;    // the communicator's point-to-point context id
  int32_t size;       // the communicator's size
  int64_t bytes;      // the data of the call on this rank
};
struct WaitBlockedData {
  int64_t blocked_ns;  // how long the wait slept on the transport's event fd
};

// Per event kind: whether a registration wants it (written under the tools lock).
inline std::atomic<bool> g_event_wanted[kNumEventKinds];
// Whether events wait in a registration's buffer for the end of the outermost MPI call.
inline std::atomic<bool> g_events_buffered{false};

// Out of line: time-stamps the event and hands it to the registrations that want it.
[[gnu::cold]] void raise_unexpected_message(const UnexpectedMessageData& d);
[[gnu::cold]] void raise_coll_algorithm(const coll::Algorithm& a, const coll::CollArgs& args,
                                        uint32_t context);
[[gnu::cold]] void raise_wait_blocked(const WaitBlockedData& d);
// Called where an outermost MPI call ends (runtime/call_lock.hpp): runs the callbacks that could
// not run where their events were raised.
[[gnu::cold]] void deliver_buffered_events();

inline bool event_wanted(EventKind k) {
  return g_event_wanted[int(k)].load(std::memory_order_relaxed);
}

// The raise points.
inline void unexpected_message_event(int source, int tag, uint32_t context, uint64_t bytes) {
  if (event_wanted(EventKind::kUnexpectedMessage)) [[unlikely]]
    raise_unexpected_message({source, tag, int32_t(context), int64_t(bytes)});
}
inline void coll_algorithm_event(const coll::Algorithm& a, const coll::CollArgs& args,
                                 uint32_t context) {
  if (event_wanted(EventKind::kCollAlgorithm)) [[unlikely]] raise_coll_algorithm(a, args, context);
}
inline void wait_blocked_event(int64_t blocked_ns) {
  if (event_wanted(EventKind::kWaitBlocked)) [[unlikely]] raise_wait_blocked({blocked_ns});
}
inline void end_of_call_events() {
  if (g_events_buffered.load(std::memory_order_relaxed)) [[unlikely]] deliver_buffered_events();
}

}  // namespace weft::tools
