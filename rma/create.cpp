// Window creation and free (rma/create.hpp).
#include "rma/create.hpp"

#include <unistd.h>

#include <cstring>
#include <string>

#include "coll/coll.hpp"
#include "gpu/memory.hpp"
#include "pt2pt/shm/cross_memory.hpp"
#include "rma/remote.hpp"
#include "rma/transport_keys.hpp"
#include "runtime/comm/attributes.hpp"
#include "runtime/comm/create.hpp"
#include "runtime/comm/errhandler.hpp"
#include "runtime/comm/split_type.hpp"
#include "runtime/config.hpp"
#include "runtime/tools/counters.hpp"
#include "runtime/world.hpp"

namespace weft::rma {
namespace {

// What every member tells the others at creation.
struct Member {
  uint64_t base = 0;
  uint64_t size = 0;
  uint64_t disp_unit = 1;
  uint64_t probe = 0;  // address of kProbeWord in its address space
  int32_t pid = 0;
  int32_t world_rank = 0;
  uint64_t device = 0;    // its memory is in its GPU
  uint64_t exported = 0;  // device memory: the allocation holding it, described for CUDA IPC
  gpu::ExportedMemory allocation;
};

// Read by the other members on this node through process_vm_readv to learn, before any data
// moves, whether cross-memory attach is allowed between them.
const uint64_t kProbeWord = 0x5745465450524f42ULL;

// The hints MPI_Win_get_info reports: the given ones, and the defaults of those not given.
InfoEntries window_hints(MPI_Info info) {
  InfoEntries hints = {{"no_locks", "false"},
                       {"accumulate_ordering", "rar,raw,war,waw"},
                       {"accumulate_ops", "same_op_no_op"},
                       {"same_size", "false"},
                       {"same_disp_unit", "false"},
                       {"alloc_shared_noncontig", "false"}};
  const InfoEntries* given = nullptr;
  if (info == MPI_INFO_NULL || !infos().entries(info, "info", &given).ok()) return hints;
  for (const auto& [key, value] : *given) {
    bool known = false;
    for (auto& [k, v] : hints) {
      if (k == key) {
        v = value;
        known = true;
      }
    }
    if (!known) hints.emplace_back(key, value);
  }
  return hints;
}

bool hint_true(const InfoEntries& hints, const char* key) {
  for (const auto& [k, v] : hints)
    if (k == key) return v == "true";
  return false;
}

// Whether this process may read `m`'s memory with process_vm_readv.
bool cma_allowed(const Member& m) {
  uint64_t word = 0;
  return shm::cross_memory_copy(m.pid, true, reinterpret_cast<uint64_t>(&word), m.probe,
                                sizeof word) &&
         word == kProbeWord;
}

// Whether every member's bit is set (an AND over `comm`).
Status all_agree(Comm& comm, bool mine, bool* all) {
  uint64_t word = mine ? 1 : 0;
  coll::CallSpec spec = bitwise_and_call(&word, 1);
  WEFT_TRY(coll::run_blocking(comm, spec));
  *all = word != 0;
  return Status::success();
}

// Maps another member's window in device memory of this node (CUDA IPC) and reaches it there;
// leaves it to messages where that cannot be (memory of a stream-ordered pool, GPUs without
// peer access, a window past the end of its allocation).
void map_device_window(Window& w, const Member& m, Target* t) {
  const gpu::ExportedMemory& a = m.allocation;
  gpu::DeviceMemory* memory = gpu::device_memory();
  if (memory == nullptr || m.exported == 0 || m.base < a.base ||
      m.size > a.size - (m.base - a.base))
    return;
  if (w.device_mappings == nullptr)  // room for every member: none is dropped while in use
    w.device_mappings = std::make_unique<gpu::IpcCache>(size_t(w.size));
  std::string why;
  auto* here = static_cast<unsigned char*>(w.device_mappings->map(*memory, m.world_rank, a, &why));
  if (here == nullptr) return;
  t->reach = Reach::kMapped;
  t->mapped = here + (m.base - a.base);
  tools::g_counters.rma_device_windows_mapped.add(1);
}

}  // namespace

Status create_window(Comm& comm, const WindowSpec& spec, void** base_out, MPI_Win* out) {
  auto w = std::make_unique<Window>();
  w->flavor = spec.flavor;
  w->rank = comm.rank;
  w->size = comm.size;
  w->bytes = spec.bytes;
  w->disp_unit = spec.disp_unit;
  w->hints = window_hints(spec.info);
  w->errhandler = MPI_ERRORS_ARE_FATAL;  // MPI 4.1 §9.3.2: windows start with it
  errhandler_retain(w->errhandler);

  // A private communicator for the window's own synchronisation traffic.
  uint32_t pair = 0;
  WEFT_TRY(agree_context(comm, true, &pair));
  w->comm = register_comm(comm.world_ranks, pair, CommOrigin{MPI_ERRORS_RETURN, MPI_SESSION_NULL});
  Comm& wc = *world().comms.find(w->comm);

  // The members on this node, in window rank order, share a segment.
  MPI_Comm node_handle = MPI_COMM_NULL;
  WEFT_TRY(comm_split_node(wc, wc.rank, &node_handle));
  Comm& node = *world().comms.find(node_handle);
  if (spec.flavor == MPI_WIN_FLAVOR_SHARED && node.size != wc.size) {
    (void)comm_free(node_handle);
    return Status::error(MPI_ERR_RMA_SHARED,
                         "the communicator spans more than one node (" + std::to_string(node.size) +
                             " of its " + std::to_string(wc.size) +
                             " ranks are on this one); shared-memory windows need all on one");
  }
  const bool allocates =
      spec.flavor == MPI_WIN_FLAVOR_ALLOCATE || spec.flavor == MPI_WIN_FLAVOR_SHARED;
  std::vector<uint64_t> data(size_t(node.size), 0);
  const uint64_t mine = allocates ? spec.bytes : 0;
  Status s = internal_allgather(node, &mine, sizeof mine, data.data());
  if (s.ok()) {
    const bool contiguous =
        spec.flavor == MPI_WIN_FLAVOR_SHARED && !hint_true(w->hints, "alloc_shared_noncontig");
    s = NodeSegment::create(node, data, contiguous, &w->segment);
  }
  std::vector<int> node_world = node.world_ranks;
  const int my_local = node.rank;
  (void)comm_free(node_handle);
  WEFT_TRY(s);

  w->base = allocates ? static_cast<void*>(w->segment->data(my_local)) : spec.base;
  if (spec.flavor == MPI_WIN_FLAVOR_DYNAMIC) w->base = nullptr;
  Member me;
  me.base = uint64_t(reinterpret_cast<uintptr_t>(w->base));
  me.size = spec.bytes;
  me.disp_unit = spec.disp_unit;
  me.probe = uint64_t(reinterpret_cast<uintptr_t>(&kProbeWord));
  me.pid = int32_t(getpid());
  me.world_rank = my_world_rank();
  me.device = spec.flavor == MPI_WIN_FLAVOR_CREATE && spec.bytes > 0 && gpu::on_device(spec.base);
  me.exported = me.device != 0 && gpu::device_memory()->export_memory(spec.base, &me.allocation);
  std::vector<Member> members(size_t(wc.size));
  WEFT_TRY(internal_allgather(wc, &me, sizeof me, members.data()));

  // WEFT_RMA_PATH=messages or transport: every other process reached as if on another node.
  const std::string path = setting_value("WEFT_RMA_PATH");
  const bool as_remote = path == "messages" || path == "transport";
  w->targets.resize(size_t(wc.size));
  w->epochs.locks.resize(wc.size);
  for (int r = 0; r < wc.size; ++r) {
    const Member& m = members[size_t(r)];
    Target& t = w->targets[size_t(r)];
    t.base = m.base;
    t.size = m.size;
    t.disp_unit = m.disp_unit;
    t.pid = m.pid;
    t.world_rank = m.world_rank;
    t.device = m.device != 0;
    int local = -1;
    for (size_t i = 0; i < node_world.size(); ++i)
      if (node_world[i] == m.world_rank) local = int(i);
    if (local < 0) continue;  // another node: kRemote
    t.control = w->segment->control(local);
    if (allocates) t.mapped = w->segment->data(local);  // shared, whatever the path
    if (as_remote && r != wc.rank && spec.flavor != MPI_WIN_FLAVOR_SHARED) continue;
    if (allocates) {
      t.reach = Reach::kMapped;
    } else if (r == wc.rank) {
      t.reach = Reach::kMapped;  // its own memory, at its own addresses
      t.mapped = reinterpret_cast<unsigned char*>(uintptr_t(m.base));
    } else if (t.device) {
      map_device_window(*w, m, &t);  // or messages
    } else if (cma_allowed(m)) {
      t.reach = Reach::kCma;
    }  // else: cross-memory attach is not permitted here; messages it is
  }
  const bool dynamic = spec.flavor == MPI_WIN_FLAVOR_DYNAMIC;
  if (dynamic) {
    w->own_device = w->targets[size_t(wc.rank)];
    w->own_device.device = true;
  }
  // Every member serves requests as soon as any member sends any; in a dynamic window, also
  // where GPU memory may be attached, which other members of the node reach by messages.
  bool none_remote = !(dynamic && gpu::usable_device_memory() != nullptr);
  for (const Target& t : w->targets) none_remote = none_remote && t.reach != Reach::kRemote;
  bool nobody_remote = true;
  WEFT_TRY(all_agree(wc, none_remote, &nobody_remote));
  if (!nobody_remote) WEFT_TRY(start_server(*w));
  // Contiguous transfers to other nodes through the transport's RMA, where it has one (the
  // attached regions of dynamic windows are not known ahead: messages).
  if (!nobody_remote && path != "messages" && !dynamic && world().transport->rma_capable())
    WEFT_TRY(exchange_keys(*w, wc));
  if (base_out != nullptr) *base_out = w->base;
  *out = windows().add(std::move(w));
  return Status::success();
}

Status free_window(Window& w) {
  const Epochs& e = w.epochs;
  if (!e.locks.empty() || e.lock_all || e.access_open || e.exposure_open) {
    return Status::error(MPI_ERR_RMA_SYNC,
                         w.display_name() + " still has an epoch open (" +
                             (e.access_open     ? "MPI_Win_start without MPI_Win_complete"
                              : e.exposure_open ? "MPI_Win_post without MPI_Win_wait"
                                                : "a lock not released by MPI_Win_unlock") +
                             ")");
  }
  // Every member's operations on every target are over once all have arrived here.
  WEFT_TRY(remote_flush(w, -1));
  Comm* wc = world().comms.find(w.comm);
  if (w.device_mappings != nullptr) w.device_mappings->clear(*gpu::device_memory());
  WEFT_TRY(internal_barrier(*wc));
  stop_server(w);
  release_keys(w);
  WEFT_TRY(attributes_on_win_free(w.handle));
  errhandler_release(w.errhandler);
  (void)comm_free(w.comm);
  windows().remove(w.handle);
  return Status::success();
}

}  // namespace weft::rma
