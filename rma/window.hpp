// MPI windows (MPI 4.1 ch. 12): what each member exposes, how this process reaches every
// target's memory, the epochs this process has open, and the table of live windows.
// Threads: MPI_THREAD_SERIALIZED at most, like the rest of the library.
#pragma once
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "gpu/ipc_cache.hpp"
#include "mpi.h"
#include "rma/node_segment.hpp"
#include "pt2pt/transport.hpp"
#include "rma/remote_state.hpp"
#include "runtime/comm/info_objects.hpp"
#include "runtime/op/op.hpp"
#include "runtime/request.hpp"
#include "runtime/status.hpp"

namespace weft::rma {

// How this process reaches one target's window memory.
enum class Reach : unsigned char {
  kMapped,  // in a mapping this process shares (MPI_Win_allocate, _shared): load/store
  kCma,     // another process on this node: process_vm_readv/writev (Win_create, _dynamic)
  kRemote,  // another node
};

struct Target {
  uint64_t base = 0;  // the window's start in the target's own address space
  uint64_t size = 0;  // bytes (dynamic windows: 0; attached regions count instead)
  uint64_t disp_unit = 1;
  int pid = 0;
  int world_rank = 0;
  Reach reach = Reach::kRemote;
  unsigned char* mapped = nullptr;   // kMapped: the window's start in this process
  TargetControl* control = nullptr;  // on this node: its lock and accumulate mutex
  // kRemote with the transport's RMA: its key (rma/transport_keys.hpp); this process's own too
  // where the transport has atomics.
  RemoteKey* key = nullptr;
  // The memory is in the target's GPU (MPI_Win_create on CUDA device memory): reached with the
  // device's copies, never with loads and stores. kMapped: at its own addresses (the target
  // itself), or through this process's mapping of it (CUDA IPC, another process of the node);
  // kRemote: by messages, which the target applies with its copies.
  bool device = false;
};

// A region attached to a dynamic window (MPI_Win_attach): its bytes, and whether it is GPU
// memory (reached with the device's copies, by messages from other processes).
struct AttachedRegion {
  uint64_t bytes = 0;
  bool device = false;
};

// The passive-target locks this process holds, by target: MPI_LOCK_SHARED or
// MPI_LOCK_EXCLUSIVE, negated when MPI_MODE_NOCHECK took none; 0 for none. A flat array, so
// that MPI_Win_lock/unlock's short path (rma/fast_path.hpp) allocates nothing.
class HeldLocks {
 public:
  void resize(int targets) { type_.assign(size_t(targets), 0); }
  bool empty() const { return held_ == 0; }
  bool holds(int target) const { return type_[size_t(target)] != 0; }
  int type(int target) const { return type_[size_t(target)]; }
  void set(int target, int type) {
    held_ += type_[size_t(target)] == 0 ? 1 : 0;
    type_[size_t(target)] = type;
  }
  void clear(int target) {
    held_ -= type_[size_t(target)] != 0 ? 1 : 0;
    type_[size_t(target)] = 0;
  }

 private:
  std::vector<int> type_;
  int held_ = 0;
};

// The epochs this process has open as an origin (access) and as a target (exposure).
struct Epochs {
  bool fence = false;          // after MPI_Win_fence, until one with MPI_MODE_NOSUCCEED
  std::set<int> access_group;  // MPI_Win_start ... complete: the targets
  bool access_open = false;
  std::vector<int> exposure_group;  // MPI_Win_post ... wait/test: the origins
  bool exposure_open = false;
  std::vector<Request*> post_sends;      // the post notices not yet known to be delivered
  std::vector<Request*> complete_recvs;  // the origins' completion notices, awaited by wait
  HeldLocks locks;
  bool lock_all = false;
  bool lock_all_checked = false;  // lock_all took the shared locks (no MPI_MODE_NOCHECK)
};

struct Window {
  MPI_Win handle = MPI_WIN_NULL;
  std::string name;
  int flavor = MPI_WIN_FLAVOR_CREATE;
  MPI_Comm comm = MPI_COMM_NULL;  // a private duplicate: synchronisation traffic
  int rank = 0;
  int size = 0;
  void* base = nullptr;  // this process's window memory
  uint64_t bytes = 0;
  uint64_t disp_unit = 1;
  std::vector<Target> targets;  // by rank in the window's group
  std::unique_ptr<NodeSegment> segment;
  MPI_Errhandler errhandler = MPI_ERRORS_ARE_FATAL;
  InfoEntries hints;  // the hints in use, MPI_Win_get_info's answer
  Epochs epochs;
  // Where MPI_Win_get_attr points for MPI_WIN_SIZE, _DISP_UNIT, _CREATE_FLAVOR and _MODEL.
  struct {
    MPI_Aint size = 0;
    int disp_unit = 1, flavor = 0, model = MPI_WIN_UNIFIED;
  } attr;
  // The reduction MPI_Fetch_and_op's short path applied last (rma/fast_path.hpp).
  struct {
    MPI_Op op = MPI_OP_NULL;
    MPI_Datatype type = MPI_DATATYPE_NULL;
    Reduction reduction;
  } fetch_op;
  RemoteState remote;  // the active-message path and transport RMA (rma/remote.hpp)
  MemoryRegistration* registration = nullptr;  // this process's memory, for the transport's RMA
  // The basic types whose accumulates go by the transport's atomics, one bit per AtomicType
  // (rma/transport_atomics.hpp); 0: none do.
  uint32_t atomic_types = 0;
  // MPI_Win_attach'ed regions of a dynamic window, by start address.
  std::map<uint64_t, AttachedRegion> attached;
  // Of a dynamic window: this process's memory as the target of an access that lands in an
  // attached region of GPU memory (targets[rank] with `device` set).
  Target own_device;
  // Of a dynamic window: the regions of GPU memory other members of this node attached, as
  // [start, end) by window rank, learnt from them when cross-memory attach could not reach an
  // address; accesses there go by messages.
  std::map<int, std::vector<std::pair<uint64_t, uint64_t>>> device_regions;
  // The device memory of other members of the node, mapped here (Target::device), closed by
  // MPI_Win_free before its final barrier, so that no mapping outlives the window.
  std::unique_ptr<gpu::IpcCache> device_mappings;

  // "window <name>" or "window <handle>".
  std::string display_name() const {
    return name.empty() ? "window " + std::to_string(handle) : "window " + name;
  }
};

class WindowTable {
 public:
  Window* find(MPI_Win handle) {
    return (handle > 0 && size_t(handle) < windows_.size()) ? windows_[size_t(handle)].get()
                                                            : nullptr;
  }
  MPI_Win add(std::unique_ptr<Window> w);
  void remove(MPI_Win handle);
  bool empty() const;

 private:
  std::vector<std::unique_ptr<Window>> windows_;  // by handle; slot 0 is MPI_WIN_NULL
};

inline WindowTable g_window_table;
inline WindowTable& windows() { return g_window_table; }

// The window behind `handle`, or MPI_ERR_WIN naming `arg` and the value.
Status lookup_window(MPI_Win handle, const char* arg, Window** out);

// The region of dynamic window `w` attached here that holds [address, address + bytes), and its
// start in *start; null when no one region holds it all.
const AttachedRegion* attached_region(const Window& w, uint64_t address, uint64_t bytes,
                                      uint64_t* start);

}  // namespace weft::rma
