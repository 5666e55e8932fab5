// Caches of datatype sizes and communicator rank translations, and the persistent sends, for the
// wrappers' byte counts and the communication matrix.
#include "profile/handles.hpp"

#include <atomic>
#include <memory>
#include <mutex>
#include <numeric>
#include <unordered_map>
#include <vector>

#include "profile/recorder.hpp"

namespace weft::profile {
namespace {

// While one lives, the profiler's own calls about a handle return their errors instead of
// reaching an error handler (fatal by default): the handle may be one the call ignores, or a bad
// one the call itself is about to report (an untimed call is counted before it runs). Errors
// without a valid communicator go to MPI_COMM_WORLD's or MPI_COMM_SELF's handler.
class QuietErrors {
 public:
  QuietErrors() {
    for (int i = 0; i < 2; ++i) {
      PMPI_Comm_get_errhandler(kComms[i], &previous_[i]);
      PMPI_Comm_set_errhandler(kComms[i], MPI_ERRORS_RETURN);
    }
  }
  ~QuietErrors() {
    for (int i = 0; i < 2; ++i) {
      PMPI_Comm_set_errhandler(kComms[i], previous_[i]);
      PMPI_Errhandler_free(&previous_[i]);
    }
  }
  QuietErrors(const QuietErrors&) = delete;
  QuietErrors& operator=(const QuietErrors&) = delete;

 private:
  static constexpr MPI_Comm kComms[2] = {MPI_COMM_WORLD, MPI_COMM_SELF};
  MPI_Errhandler previous_[2] = {MPI_ERRHANDLER_NULL, MPI_ERRHANDLER_NULL};
};

MPI_Count quiet_type_size(MPI_Datatype datatype) {
  QuietErrors quiet;
  MPI_Count size = 0;
  if (PMPI_Type_size_c(datatype, &size) != MPI_SUCCESS || size < 0) size = 0;
  return size;
}

// The traffic slot (ThreadLog::sent) of each of a communicator's ranks (of its remote group for
// an intercommunicator): its world rank, or world_size for a process of another job.
using TrafficSlots = std::vector<int32_t>;

struct Translations {
  std::mutex mutex;
  std::unordered_map<MPI_Comm, std::shared_ptr<const TrafficSlots>> by_comm;
};
Translations& translations() {
  static Translations t;
  return t;
}

std::shared_ptr<const TrafficSlots> translate(MPI_Comm comm) {
  QuietErrors quiet;
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  MPI_Group group = MPI_GROUP_NULL, world_group = MPI_GROUP_NULL;
  if (inter)
    PMPI_Comm_remote_group(comm, &group);
  else
    PMPI_Comm_group(comm, &group);
  PMPI_Comm_group(MPI_COMM_WORLD, &world_group);
  int size = 0;
  PMPI_Group_size(group, &size);
  std::vector<int> ranks(size_t(size), 0);
  std::iota(ranks.begin(), ranks.end(), 0);
  auto slots = std::make_shared<TrafficSlots>(ranks.size(), MPI_UNDEFINED);
  PMPI_Group_translate_ranks(group, size, ranks.data(), world_group, slots->data());
  PMPI_Group_free(&group);
  PMPI_Group_free(&world_group);
  for (int32_t& slot : *slots)
    if (slot == MPI_UNDEFINED) slot = g_profile.world_size;
  return slots;
}

// The traffic slot of rank `dest` of comm (world_size where comm is not a communicator or has no
// such rank: the call will say so); comm's slots become `cache`'s last ones when it is given,
// held by `owner`.
int slot_of(MPI_Comm comm, int dest, FunctionRecord* cache,
            std::shared_ptr<const TrafficSlots>* owner) {
  Translations& t = translations();
  std::shared_ptr<const TrafficSlots> slots;
  {
    std::lock_guard<std::mutex> hold(t.mutex);
    if (auto it = t.by_comm.find(comm); it != t.by_comm.end()) slots = it->second;
  }
  if (!slots) {
    slots = translate(comm);
    if (slots->empty()) return g_profile.world_size;  // not a communicator
    std::lock_guard<std::mutex> hold(t.mutex);
    t.by_comm[comm] = slots;
  }
  if (cache != nullptr) {
    *owner = slots;
    cache->comm = comm;
    cache->comm_size = uint32_t(slots->size());
    cache->traffic_slots = slots->data();
  }
  return unsigned(dest) < slots->size() ? (*slots)[unsigned(dest)] : g_profile.world_size;
}

// The world rank of a traffic slot, kNoPeer for the processes of other jobs.
int peer_of(int slot) { return slot < g_profile.world_size ? slot : kNoPeer; }

struct PersistentSend {
  int slot;
  uint64_t bytes;
};
struct PersistentSends {
  std::mutex mutex;
  std::unordered_map<MPI_Request, PersistentSend> by_request;
  std::atomic<size_t> count{0};  // lets MPI_Start skip the lock when there are none
};
PersistentSends& persistent_sends() {
  static PersistentSends p;
  return p;
}

// A datatype's size, 0 for a handle that is not a datatype.
uint64_t datatype_size(MPI_Datatype datatype) {
  if (cacheable(datatype)) {
    const uint64_t entry = g_sizes[datatype % kSizeSlots].load(std::memory_order_relaxed);
    if (entry >> 32 == uint64_t(datatype) + 1) return entry & 0xffffffffu;
  }
  const MPI_Count size = quiet_type_size(datatype);
  if (cacheable(datatype) && size > 0 && size <= MPI_Count(UINT32_MAX))
    g_sizes[datatype % kSizeSlots].store((uint64_t(datatype) + 1) << 32 | uint64_t(size),
                                         std::memory_order_relaxed);
  return uint64_t(size);
}

}  // namespace

uint64_t bytes_of(FunctionRecord& f, MPI_Count count, MPI_Datatype datatype) {
  if (count <= 0) return 0;
  if (f.datatype != datatype) {
    const uint64_t size = datatype_size(datatype);
    if (size == 0) return 0;
    f.datatype = datatype;
    f.datatype_size = size;
  }
  return uint64_t(count) * f.datatype_size;
}

int count_send(ThreadLog& log, FunctionRecord& f, MPI_Comm comm, int dest, uint64_t bytes) {
  if (dest == MPI_PROC_NULL) return kNoPeer;
  const int slot = send_hit(f, comm, dest)
                       ? f.traffic_slots[unsigned(dest)]
                       : slot_of(comm, dest, &f, &log.traffic_slot_owners[&f - log.functions]);
  add_traffic(log, slot, bytes);
  return peer_of(slot);
}

void remember_send(MPI_Request request, MPI_Comm comm, int dest, uint64_t bytes) {
  if (dest == MPI_PROC_NULL) return;
  const int slot = slot_of(comm, dest, nullptr, nullptr);
  PersistentSends& p = persistent_sends();
  std::lock_guard<std::mutex> hold(p.mutex);
  p.by_request[request] = {slot, bytes};
  p.count.store(p.by_request.size(), std::memory_order_relaxed);
}

void started(int count, const MPI_Request* requests) {
  PersistentSends& p = persistent_sends();
  if (p.count.load(std::memory_order_relaxed) == 0) return;
  std::lock_guard<std::mutex> hold(p.mutex);
  for (int i = 0; i < count; ++i)
    if (auto it = p.by_request.find(requests[i]); it != p.by_request.end())
      note_traffic(it->second.slot, it->second.bytes);
}

void forget_datatype(const MPI_Datatype* datatype) {
  if (datatype == nullptr) return;
  if (cacheable(*datatype)) g_sizes[*datatype % kSizeSlots].store(0, std::memory_order_relaxed);
  handle_freed();
}

void forget_comm(const MPI_Comm* comm) {
  if (comm == nullptr || *comm == MPI_COMM_WORLD) return;
  Translations& t = translations();
  std::lock_guard<std::mutex> hold(t.mutex);
  t.by_comm.erase(*comm);
  handle_freed();
}

void forget_request(const MPI_Request* request) {
  PersistentSends& p = persistent_sends();
  if (request == nullptr || p.count.load(std::memory_order_relaxed) == 0) return;
  std::lock_guard<std::mutex> hold(p.mutex);
  p.by_request.erase(*request);
  p.count.store(p.by_request.size(), std::memory_order_relaxed);
}

}  // namespace weft::profile
