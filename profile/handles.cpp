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

// World ranks of a communicator's ranks (of its remote group for an intercommunicator).
using WorldRanks = std::vector<int>;

struct Translations {
  std::mutex mutex;
  std::unordered_map<MPI_Comm, std::shared_ptr<const WorldRanks>> by_comm;
  std::atomic<uint64_t> generation{0};  // advanced when a communicator is freed
};
Translations& translations() {
  static Translations t;
  return t;
}

struct LastTranslation {
  MPI_Comm comm = MPI_COMM_NULL;
  uint64_t generation = 0;
  std::shared_ptr<const WorldRanks> ranks;
};
thread_local LastTranslation t_last;

std::shared_ptr<const WorldRanks> translate(MPI_Comm comm) {
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
  auto world = std::make_shared<WorldRanks>(ranks.size(), MPI_UNDEFINED);
  PMPI_Group_translate_ranks(group, size, ranks.data(), world_group, world->data());
  PMPI_Group_free(&group);
  PMPI_Group_free(&world_group);
  return world;
}

int world_rank_of(MPI_Comm comm, int rank) {
  if (comm == MPI_COMM_WORLD) return rank;
  Translations& t = translations();
  const uint64_t generation = t.generation.load(std::memory_order_acquire);
  if (t_last.comm != comm || t_last.generation != generation) {
    std::shared_ptr<const WorldRanks> ranks;
    {
      std::lock_guard<std::mutex> hold(t.mutex);
      if (auto it = t.by_comm.find(comm); it != t.by_comm.end()) ranks = it->second;
    }
    if (!ranks) {
      ranks = translate(comm);
      if (ranks->empty()) return MPI_UNDEFINED;  // not a communicator (the call will say so)
      std::lock_guard<std::mutex> hold(t.mutex);
      t.by_comm[comm] = ranks;
    }
    t_last = {comm, generation, ranks};
  }
  const WorldRanks& world = *t_last.ranks;
  return rank >= 0 && size_t(rank) < world.size() ? world[size_t(rank)] : MPI_UNDEFINED;
}

struct PersistentSend {
  int world_peer;
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

}  // namespace

uint64_t bytes_of_uncached(MPI_Count count, MPI_Datatype datatype) {
  const MPI_Count size = quiet_type_size(datatype);
  if (cacheable(datatype) && size > 0 && size <= MPI_Count(UINT32_MAX))
    g_sizes[datatype % kSizeSlots].store((uint64_t(datatype) + 1) << 32 | uint64_t(size),
                                         std::memory_order_relaxed);
  return uint64_t(count) * uint64_t(size);
}

int sent_translated(MPI_Comm comm, int dest, uint64_t bytes) {
  if (dest == MPI_PROC_NULL) return kNoPeer;
  const int world = world_rank_of(comm, dest);
  note_traffic(world == MPI_UNDEFINED ? kNoPeer : world, bytes);
  return world == MPI_UNDEFINED ? kNoPeer : world;
}

void remember_send(MPI_Request request, MPI_Comm comm, int dest, uint64_t bytes) {
  if (dest == MPI_PROC_NULL) return;
  const int world = world_rank_of(comm, dest);
  PersistentSends& p = persistent_sends();
  std::lock_guard<std::mutex> hold(p.mutex);
  p.by_request[request] = {world == MPI_UNDEFINED ? kNoPeer : world, bytes};
  p.count.store(p.by_request.size(), std::memory_order_relaxed);
}

void started(int count, const MPI_Request* requests) {
  PersistentSends& p = persistent_sends();
  if (p.count.load(std::memory_order_relaxed) == 0) return;
  std::lock_guard<std::mutex> hold(p.mutex);
  for (int i = 0; i < count; ++i)
    if (auto it = p.by_request.find(requests[i]); it != p.by_request.end())
      note_traffic(it->second.world_peer, it->second.bytes);
}

void forget_datatype(const MPI_Datatype* datatype) {
  if (datatype != nullptr && cacheable(*datatype))
    g_sizes[*datatype % kSizeSlots].store(0, std::memory_order_relaxed);
}

void forget_comm(const MPI_Comm* comm) {
  if (comm == nullptr || *comm == MPI_COMM_WORLD) return;
  Translations& t = translations();
  std::lock_guard<std::mutex> hold(t.mutex);
  t.by_comm.erase(*comm);
  t.generation.fetch_add(1, std::memory_order_release);
}

void forget_request(const MPI_Request* request) {
  PersistentSends& p = persistent_sends();
  if (request == nullptr || p.count.load(std::memory_order_relaxed) == 0) return;
  std::lock_guard<std::mutex> hold(p.mutex);
  p.by_request.erase(*request);
  p.count.store(p.by_request.size(), std::memory_order_relaxed);
}

}  // namespace weft::profile
