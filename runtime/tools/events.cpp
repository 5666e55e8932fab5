// MPI_T event registrations and delivery (MPI 4.1 §15.3.8). A raised event goes at once to the
// registration's callback of the lowest safety level the raise point allows (inside the library:
// MPI_T_CB_REQUIRE_MPI_RESTRICTED, or MPI_T_CB_REQUIRE_THREAD_SAFE while other threads may be in
// the library). A registration with no such callback keeps the event in its bounded buffer until
// the outermost MPI call ends, where any callback may run; events that find the buffer full are
// counted and reported to the dropped handler there. No callback runs with a lock of Weft held,
// but immediate ones may run under the call lock.
#include <cstring>
#include <deque>
#include <set>
#include <vector>

#include "coll/algorithm.hpp"
#include "runtime/call_lock.hpp"
#include "runtime/tools/events.hpp"
#include "runtime/tools/tools.hpp"

struct weft_t_event_instance {
  int event;
  int64_t timestamp;
  alignas(8) unsigned char data[32];
};

struct weft_t_event_registration {
  int event;
  bool bound;        // to one communicator, given by its context id
  uint32_t context;
  size_t capacity;   // of `buffered`
  struct Callback {
    MPI_T_event_cb_function* fn = nullptr;
    void* user_data = nullptr;
  };
  Callback callbacks[4];  // by safety level
  MPI_T_event_dropped_cb_function* dropped_handler = nullptr;
  std::deque<weft_t_event_instance> buffered;
  uint64_t dropped = 0;
  int in_flight = 0;  // deliveries running its callbacks now
  bool freed = false;
  MPI_T_event_free_cb_function* free_cb = nullptr;
  void* free_user_data = nullptr;
};

namespace weft::tools {
namespace {

using Registration = weft_t_event_registration;
constexpr int kLevels = 4;

std::vector<Registration*>& registrations() {  // live ones, guarded by mutex()
  static std::vector<Registration*> r;
  return r;
}
std::set<const weft_t_event_instance*>& live_instances() {  // those a callback holds now
  static std::set<const weft_t_event_instance*> s;
  return s;
}

bool live(MPI_T_event_registration r) {
  for (Registration* x : registrations())
    if (x == r) return true;
  return false;
}

void update_wanted(int event) {
  bool wanted = false;
  for (Registration* r : registrations()) wanted |= r->event == event;
  g_event_wanted[event].store(wanted, std::memory_order_relaxed);
}

// The callback level to run at a point that requires `required`: the lowest registered level at
// or above it, or -1.
int level_for(const Registration& r, int required) {
  for (int l = required; l < kLevels; ++l)
    if (r.callbacks[l].fn != nullptr) return l;
  return -1;
}

// After a delivery: the registration's free callback, once it is freed and nothing runs it.
void finish_delivery(Registration* r, int level) {
  MPI_T_event_free_cb_function* free_cb = nullptr;
  void* user_data = nullptr;
  {
    std::lock_guard<std::mutex> hold(mutex());
    if (--r->in_flight > 0 || !r->freed) return;
    free_cb = r->free_cb;
    user_data = r->free_user_data;
  }
  if (free_cb) free_cb(r, MPI_T_cb_safety(level), user_data);
  delete r;
}

// Runs callback `cb` (of `level`, copied under the lock) of `r` on `inst`, which is valid for
// MPI_T_event_* meanwhile.
void run_callback(Registration* r, int level, Registration::Callback cb,
                  const weft_t_event_instance& inst) {
  {
    std::lock_guard<std::mutex> hold(mutex());
    live_instances().insert(&inst);
  }
  cb.fn(const_cast<weft_t_event_instance*>(&inst), r, MPI_T_cb_safety(level), cb.user_data);
  std::lock_guard<std::mutex> hold(mutex());
  live_instances().erase(&inst);
}

void raise(EventKind kind, uint32_t context, bool has_context, const void* data, size_t size) {
  weft_t_event_instance inst{int(kind), source_timestamp(), {}};
  std::memcpy(inst.data, data, size);
  const int required = call_lock::g_needed.load(std::memory_order_relaxed) != 0
                           ? MPI_T_CB_REQUIRE_THREAD_SAFE
                           : MPI_T_CB_REQUIRE_MPI_RESTRICTED;
  struct Call {
    Registration* r;
    int level;
    Registration::Callback cb;
  };
  std::vector<Call> now;
  {
    std::lock_guard<std::mutex> hold(mutex());
    if (!initialized()) return;  // after the last MPI_T_finalize nothing is delivered
    for (Registration* r : registrations()) {
      if (r->event != int(kind) || (r->bound && has_context && r->context != context)) continue;
      if (const int level = level_for(*r, required); level >= 0) {
        ++r->in_flight;
        now.push_back({r, level, r->callbacks[level]});
      } else if (level_for(*r, MPI_T_CB_REQUIRE_NONE) >= 0) {
        if (r->buffered.size() < r->capacity)
          r->buffered.push_back(inst);
        else
          ++r->dropped;
        g_events_buffered.store(true, std::memory_order_relaxed);
      }
    }
  }
  for (const Call& c : now) {
    run_callback(c.r, c.level, c.cb, inst);
    finish_delivery(c.r, c.level);
  }
}

}  // namespace

void raise_unexpected_message(const UnexpectedMessageData& d) {
  raise(EventKind::kUnexpectedMessage, uint32_t(d.context), true, &d, sizeof d);
}

void raise_coll_algorithm(const coll::Algorithm& a, const coll::CollArgs& args,
                          uint32_t context) {
  size_t bytes = args.bytes;
  for (const coll::Block& b : args.blocks) bytes += b.bytes;
  for (const coll::Block& b : args.send_blocks) bytes += b.bytes;
  const CollAlgorithmData d{coll_algorithm_item(a), int32_t(context), int32_t(args.size),
                            int64_t(bytes)};
  raise(EventKind::kCollAlgorithm, context, true, &d, sizeof d);
}

void raise_wait_blocked(const WaitBlockedData& d) {
  raise(EventKind::kWaitBlocked, 0, false, &d, sizeof d);
}

void deliver_buffered_events() {
  struct Batch {
    Registration* r;
    int level;  // of the callback that runs, -1 for none
    Registration::Callback cb;
    MPI_T_event_dropped_cb_function* dropped_handler;
    uint64_t dropped;
    std::deque<weft_t_event_instance> events;
  };
  std::vector<Batch> batches;
  {
    std::lock_guard<std::mutex> hold(mutex());
    g_events_buffered.store(false, std::memory_order_relaxed);
    if (!initialized()) return;
    for (Registration* r : registrations()) {
      if (r->buffered.empty() && r->dropped == 0) continue;
      ++r->in_flight;
      const int level = level_for(*r, MPI_T_CB_REQUIRE_NONE);
      batches.push_back({r, level, level >= 0 ? r->callbacks[level] : Registration::Callback{},
                         r->dropped_handler, r->dropped, {}});
      batches.back().events.swap(r->buffered);
      r->dropped = 0;
    }
  }
  for (Batch& b : batches) {
    if (b.dropped > 0 && b.dropped_handler && b.level >= 0)
      b.dropped_handler(MPI_Count(b.dropped), b.r, 0, MPI_T_cb_safety(b.level), b.cb.user_data);
    for (const weft_t_event_instance& inst : b.events)
      if (b.level >= 0) run_callback(b.r, b.level, b.cb, inst);
    finish_delivery(b.r, b.level < 0 ? MPI_T_CB_REQUIRE_NONE : b.level);
  }
}

int event_handle_alloc(int index, bool bound, uint32_t context, size_t capacity,
                       MPI_T_event_registration* out) {
  if (index < 0 || index >= event_count()) return MPI_T_ERR_INVALID_INDEX;
  if (out == nullptr) return MPI_T_ERR_INVALID;
  *out = new Registration{.event = index, .bound = bound, .context = context, .capacity = capacity};
  registrations().push_back(*out);
  update_wanted(index);
  return MPI_SUCCESS;
}

int event_handle_capacity(MPI_T_event_registration r, size_t* capacity) {
  if (!live(r)) return MPI_T_ERR_INVALID_HANDLE;
  *capacity = r->capacity;
  return MPI_SUCCESS;
}

int event_handle_set_capacity(MPI_T_event_registration r, size_t capacity) {
  if (!live(r)) return MPI_T_ERR_INVALID_HANDLE;
  r->capacity = capacity;
  return MPI_SUCCESS;
}

int event_register_callback(MPI_T_event_registration r, MPI_T_cb_safety level, void* user_data,
                            MPI_T_event_cb_function* fn) {
  if (!live(r)) return MPI_T_ERR_INVALID_HANDLE;
  if (int(level) < 0 || int(level) >= kLevels) return MPI_T_ERR_INVALID;
  r->callbacks[level] = {fn, user_data};
  return MPI_SUCCESS;
}

int event_check_callback(MPI_T_event_registration r, MPI_T_cb_safety level) {
  if (!live(r)) return MPI_T_ERR_INVALID_HANDLE;
  if (int(level) < 0 || int(level) >= kLevels) return MPI_T_ERR_INVALID;
  return MPI_SUCCESS;
}

int event_set_dropped_handler(MPI_T_event_registration r, MPI_T_event_dropped_cb_function* fn) {
  if (!live(r)) return MPI_T_ERR_INVALID_HANDLE;
  r->dropped_handler = fn;
  return MPI_SUCCESS;
}

int event_handle_free(MPI_T_event_registration r, void* user_data,
                      MPI_T_event_free_cb_function* fn) {
  {
    std::lock_guard<std::mutex> hold(mutex());
    if (!initialized()) return MPI_T_ERR_NOT_INITIALIZED;
    if (!live(r)) return MPI_T_ERR_INVALID_HANDLE;
    std::erase(registrations(), r);
    update_wanted(r->event);
    r->freed = true;
    r->free_cb = fn;
    r->free_user_data = user_data;
    // Events still buffered are never delivered; a delivery running now calls `fn` when done.
    r->buffered.clear();
    if (r->in_flight > 0) return MPI_SUCCESS;
  }
  if (fn) fn(r, MPI_T_CB_REQUIRE_NONE, user_data);
  delete r;
  return MPI_SUCCESS;
}

int event_read(MPI_T_event_instance inst, int element, void* buffer) {
  if (live_instances().count(inst) == 0) return MPI_T_ERR_INVALID_HANDLE;
  if (element < 0 || element >= event_element_count(inst->event)) return MPI_T_ERR_INVALID_INDEX;
  if (buffer == nullptr) return MPI_T_ERR_INVALID;
  std::memcpy(buffer, inst->data + event_element_offset(inst->event, element),
              event_element_bytes(inst->event, element));
  return MPI_SUCCESS;
}

int event_copy(MPI_T_event_instance inst, void* buffer) {
  if (live_instances().count(inst) == 0) return MPI_T_ERR_INVALID_HANDLE;
  if (buffer == nullptr) return MPI_T_ERR_INVALID;
  for (int e = 0; e < event_element_count(inst->event); ++e)
    std::memcpy(static_cast<unsigned char*>(buffer) + event_element_offset(inst->event, e),
                inst->data + event_element_offset(inst->event, e),
                event_element_bytes(inst->event, e));
  return MPI_SUCCESS;
}

int event_get_timestamp(MPI_T_event_instance inst, MPI_Count* timestamp) {
  if (live_instances().count(inst) == 0) return MPI_T_ERR_INVALID_HANDLE;
  if (timestamp == nullptr) return MPI_T_ERR_INVALID;
  *timestamp = inst->timestamp;
  return MPI_SUCCESS;
}

int event_get_source(MPI_T_event_instance inst, int* source_index) {
  if (live_instances().count(inst) == 0) return MPI_T_ERR_INVALID_HANDLE;
  if (source_index == nullptr) return MPI_T_ERR_INVALID;
  *source_index = 0;
  return MPI_SUCCESS;
}

}  // namespace weft::tools
