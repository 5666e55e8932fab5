// MPI_T performance variables, sessions and handles. Every variable is a process-wide counter of
// counters.hpp (bound to no object). A handle is a view of it: its value is what the counter
// gained while the handle was started, plus what was written to it; reset makes that 0.
// Counters are continuous (started when allocated, never stopped) and writable; the blocked-time
// timer starts stopped, and start/stop choose what it measures.
#include <cstring>
#include <functional>
#include <set>
#include <vector>

#include "coll/registry.hpp"
#include "runtime/tools/counters.hpp"
#include "runtime/tools/tools.hpp"

struct weft_t_pvar_session {
  std::vector<MPI_T_pvar_handle> handles;
};

struct weft_t_pvar_handle {
  int index;
  bool started;
  uint64_t base;         // the counter when started or last reset/written
  uint64_t accumulated;  // gained while started before the last stop, or written
};

namespace weft::tools {
namespace {

struct Pvar {
  std::string name;
  std::string desc;
  int var_class;
  bool continuous;
  int category;
  const Counter* counter;
  // A level or high-water mark: read as it is now, neither started, stopped, reset nor written.
  bool readonly = false;
};

std::vector<Pvar> build_table() {
  Counters& c = g_counters;
  std::vector<Pvar> t = {
      {"pt2pt_messages_sent", "Point-to-point sends started to a rank (not MPI_PROC_NULL).",
       MPI_T_PVAR_CLASS_COUNTER, true, 0, &c.messages_sent},
      {"pt2pt_bytes_sent", "Payload bytes of the point-to-point sends started.",
       MPI_T_PVAR_CLASS_COUNTER, true, 0, &c.bytes_sent},
      {"pt2pt_messages_received",
       "Point-to-point receives started from a rank (not MPI_PROC_NULL).", MPI_T_PVAR_CLASS_COUNTER,
       true, 0, &c.messages_received},
      {"pt2pt_bytes_received",
       "Bytes of the receive buffers posted (the most the receives started can take).",
       MPI_T_PVAR_CLASS_COUNTER, true, 0, &c.bytes_received},
      {"shm_eager_messages_sent",
       "Sends to ranks of this node that went through the shared-memory rings (at most "
       "WEFT_SHM_EAGER_LIMIT bytes).",
       MPI_T_PVAR_CLASS_COUNTER, true, 0, &c.shm_eager_sent},
      {"shm_single_copy_messages_sent",
       "Sends to ranks of this node that the receiver copied from this process's memory "
       "(process_vm_readv).",
       MPI_T_PVAR_CLASS_COUNTER, true, 0, &c.shm_single_copy_sent},
      {"shm_device_mapped_messages_sent",
       "Sends of GPU memory to ranks of this node that the receiver copied from its own mapping "
       "of this process's allocation (CUDA IPC).",
       MPI_T_PVAR_CLASS_COUNTER, true, 0, &c.shm_device_mapped_sent},
      {"shm_device_staged_messages_sent",
       "Sends of GPU memory to ranks of this node that went through a host copy: memory that "
       "cannot be shared (a stream-ordered pool's), or a receiver that cannot map it.",
       MPI_T_PVAR_CLASS_COUNTER, true, 0, &c.shm_device_staged_sent},
      {"ucx_device_packed_messages_sent",
       "Sends of GPU memory over a UCX without CUDA support, fed to UCX's fragments from pinned "
       "host chunks the device filled ahead of them (WEFT_GPU_UCX_PACK).",
       MPI_T_PVAR_CLASS_COUNTER, true, 0, &c.ucx_device_packed_sent},
      {"gpu_staged_chunks",
       "Chunks of GPU data copied between the device and pinned host memory by staging "
       "pipelines (WEFT_GPU_STAGING_CHUNK bytes each at most, WEFT_GPU_STAGING_DEPTH under way): "
       "messages through a UCX without CUDA support, and host copies the node's shared memory "
       "delivered into device buffers.",
       MPI_T_PVAR_CLASS_COUNTER, true, 0, &c.gpu_staged_chunks},
      {"rma_device_windows_mapped",
       "Windows in GPU memory of other processes of this node that this process mapped (CUDA "
       "IPC) to reach with the device's copies, one per window and member; the others are "
       "reached by messages.",
       MPI_T_PVAR_CLASS_COUNTER, true, 0, &c.rma_device_windows_mapped},
      {"shm_bytes_sent", "Payload bytes of every send through the node's shared memory.",
       MPI_T_PVAR_CLASS_COUNTER, true, 0, &c.shm_bytes_sent},
      {"shm_messages_received",
       "Messages received from ranks of this node (every receive completed by the shared-memory "
       "transport, collectives' and one-sided's included).",
       MPI_T_PVAR_CLASS_COUNTER, true, 0, &c.shm_messages_received},
      {"shm_bytes_received", "Bytes that arrived in those receives.", MPI_T_PVAR_CLASS_COUNTER,
       true, 0, &c.shm_bytes_received},
      {"ucx_messages_sent", "Messages sent through UCX (to other nodes and other jobs).",
       MPI_T_PVAR_CLASS_COUNTER, true, 0, &c.ucx_messages_sent},
      {"ucx_bytes_sent", "Payload bytes sent through UCX.", MPI_T_PVAR_CLASS_COUNTER, true, 0,
       &c.ucx_bytes_sent},
      {"ucx_messages_received", "Receives completed by UCX with a message.",
       MPI_T_PVAR_CLASS_COUNTER, true, 0, &c.ucx_messages_received},
      {"ucx_bytes_received", "Bytes that arrived in those receives.", MPI_T_PVAR_CLASS_COUNTER,
       true, 0, &c.ucx_bytes_received},
      {"ofi_messages_sent", "Messages sent through libfabric (WEFT_TRANSPORT=ofi).",
       MPI_T_PVAR_CLASS_COUNTER, true, 0, &c.ofi_messages_sent},
      {"ofi_bytes_sent", "Payload bytes sent through libfabric.", MPI_T_PVAR_CLASS_COUNTER, true, 0,
       &c.ofi_bytes_sent},
      {"ofi_messages_received", "Receives completed by libfabric with a message.",
       MPI_T_PVAR_CLASS_COUNTER, true, 0, &c.ofi_messages_received},
      {"ofi_bytes_received", "Bytes that arrived in those receives.", MPI_T_PVAR_CLASS_COUNTER,
       true, 0, &c.ofi_bytes_received},
      {"ofi_rma_writes",
       "One-sided writes libfabric carried (fi_writemsg: MPI_Put and the pieces of one).",
       MPI_T_PVAR_CLASS_COUNTER, true, 0, &c.ofi_rma_writes},
      {"ofi_rma_reads", "One-sided reads libfabric carried (fi_readmsg: MPI_Get).",
       MPI_T_PVAR_CLASS_COUNTER, true, 0, &c.ofi_rma_reads},
      {"ofi_atomics",
       "Atomics libfabric carried (fi_atomicmsg, fi_fetch_atomicmsg, fi_compare_atomicmsg: "
       "the accumulates, MPI_Fetch_and_op and MPI_Compare_and_swap it supports).",
       MPI_T_PVAR_CLASS_COUNTER, true, 0, &c.ofi_atomics},
      {"ofi_segmented_messages",
       "Messages sent through libfabric as pieces, being longer than the provider's "
       "max_msg_size or WEFT_OFI_MAX_MSG.",
       MPI_T_PVAR_CLASS_COUNTER, true, 0, &c.ofi_segmented_messages},
      {"unexpected_messages",
       "Messages from ranks of this node that arrived before a receive matched them and wait in "
       "Weft's queue now (UCX matches the messages of other nodes itself and is not counted).",
       MPI_T_PVAR_CLASS_LEVEL, true, 0, &c.unexpected.current, true},
      {"unexpected_messages_max", "The most messages unexpected_messages has held at once.",
       MPI_T_PVAR_CLASS_HIGHWATERMARK, true, 0, &c.unexpected.max, true},
      {"coll_reference_bytes_read",
       "Bytes this rank read from other ranks' memory for single-copy collectives (posts by "
       "reference in the communicator's node region), its part of shared reads included.",
       MPI_T_PVAR_CLASS_COUNTER, true, 1, &c.coll_reference_bytes_read},
      {"coll_reference_bytes_written",
       "Bytes this rank wrote into other ranks' buffers while it waited for them to read its "
       "post by reference (its part of their shared reads, WEFT_SHM_COLL_SHARED_READ_MIN).",
       MPI_T_PVAR_CLASS_COUNTER, true, 1, &c.coll_reference_bytes_written},
      {"coll_short_calls",
       "Blocking collectives (barrier, bcast, reduce, allreduce, allgather, alltoall, "
       "reduce_scatter_block) that ran on the short path through the communicator's node "
       "region, without a schedule.",
       MPI_T_PVAR_CLASS_COUNTER, true, 1, &c.coll_short_calls},
      {"coll_nccl_calls",
       "Blocking collectives on device buffers that ran through NCCL (WEFT_NCCL_LIBRARY) rather "
       "than one of Weft's algorithms.",
       MPI_T_PVAR_CLASS_COUNTER, true, 1, &c.coll_nccl_calls},
      {"p2p_short_sends",
       "Standard and ready sends written straight into the transport (a plain message to a rank "
       "of this node, with room in the ring and nothing queued before it): blocking ones "
       "without a request, nonblocking ones with a request complete at once; each is also "
       "counted in messages_sent.",
       MPI_T_PVAR_CLASS_COUNTER, true, 0, &c.p2p_short_sends},
      {"p2p_short_recvs",
       "Blocking receives of a plain message (a predefined type without gaps, into host "
       "memory) that waited on a completion of their own, without a request; each is also "
       "counted in messages_received.",
       MPI_T_PVAR_CLASS_COUNTER, true, 0, &c.p2p_short_recvs},
      {"wait_blocked_time",
       "Seconds waiting calls spent blocked on the transport's event fd (after spinning "
       "WEFT_SPIN_US), while the handle was started.",
       MPI_T_PVAR_CLASS_TIMER, false, 0, &c.blocked_ns},
  };
  for (int k = 0; k < coll::kNumCollKinds && k < kMaxCollKinds; ++k) {
    const auto kind = coll::CollKind(k);
    const auto algorithms = coll::algorithms_for(kind);
    for (size_t a = 0; a < algorithms.size() && a < size_t(kMaxAlgorithms); ++a)
      t.push_back(
          {std::string("coll_") + coll::coll_name(kind) + "_" + algorithms[a]->name + "_calls",
           std::string("Calls of ") + coll::coll_name(kind) +
               " (blocking, nonblocking "
               "or persistent start) that ran the " +
               algorithms[a]->name + " algorithm on an intracommunicator.",
           MPI_T_PVAR_CLASS_COUNTER, true, 1, &c.coll_calls[k][a]});
  }
  return t;
}

const std::vector<Pvar>& table() {
  static const std::vector<Pvar> t = build_table();
  return t;
}

std::set<MPI_T_pvar_session>& live_sessions() {
  static std::set<MPI_T_pvar_session> sessions;
  return sessions;
}

bool valid_index(int index) { return index >= 0 && index < pvar_count(); }

bool is_timer(const Pvar& p) { return p.var_class == MPI_T_PVAR_CLASS_TIMER; }

uint64_t now(const weft_t_pvar_handle* h) { return table()[h->index].counter->get(); }

uint64_t value(const weft_t_pvar_handle* h) {
  if (table()[h->index].readonly) return now(h);
  return h->accumulated + (h->started ? now(h) - h->base : 0);
}

// 0, or the error code when `handle` is no handle of `session`.
int check(MPI_T_pvar_session session, MPI_T_pvar_handle handle) {
  if (live_sessions().count(session) == 0) return MPI_T_ERR_INVALID_SESSION;
  for (MPI_T_pvar_handle h : session->handles)
    if (h == handle) return 0;
  return MPI_T_ERR_INVALID_HANDLE;
}

// Applies `op` to `handle`, or to every handle of the session that `applies` to for
// MPI_T_PVAR_ALL_HANDLES.
int for_handles(MPI_T_pvar_session session, MPI_T_pvar_handle handle,
                const std::function<bool(const Pvar&)>& applies,
                const std::function<void(weft_t_pvar_handle*)>& op, int refusal) {
  if (handle == MPI_T_PVAR_ALL_HANDLES) {
    if (live_sessions().count(session) == 0) return MPI_T_ERR_INVALID_SESSION;
    for (MPI_T_pvar_handle h : session->handles)
      if (applies(table()[h->index])) op(h);
    return MPI_SUCCESS;
  }
  if (int rc = check(session, handle)) return rc;
  if (!applies(table()[handle->index])) return refusal;
  op(handle);
  return MPI_SUCCESS;
}

}  // namespace

int pvar_count() { return int(table().size()); }

int pvar_category(int index) { return table()[index].category; }

int pvar_get_info(int index, char* name, int* name_len, int* verbosity, int* var_class,
                  MPI_Datatype* datatype, MPI_T_enum* enumtype, char* desc, int* desc_len,
                  int* bind, int* readonly, int* continuous, int* atomic) {
  if (!valid_index(index)) return MPI_T_ERR_INVALID_INDEX;
  const Pvar& p = table()[index];
  copy_string(p.name, name, name_len);
  copy_string(p.desc, desc, desc_len);
  if (verbosity) *verbosity = MPI_T_VERBOSITY_USER_BASIC;
  if (var_class) *var_class = p.var_class;
  if (datatype) *datatype = is_timer(p) ? MPI_DOUBLE : MPI_UNSIGNED_LONG_LONG;
  if (enumtype) *enumtype = MPI_T_ENUM_NULL;
  if (bind) *bind = MPI_T_BIND_NO_OBJECT;
  if (readonly) *readonly = p.readonly ? 1 : 0;
  if (continuous) *continuous = p.continuous ? 1 : 0;
  if (atomic) *atomic = 0;
  return MPI_SUCCESS;
}

int pvar_get_index(const char* name, int var_class, int* index) {
  if (name == nullptr || index == nullptr) return MPI_T_ERR_INVALID;
  for (int i = 0; i < pvar_count(); ++i)
    if (table()[i].name == name && table()[i].var_class == var_class) {
      *index = i;
      return MPI_SUCCESS;
    }
  return MPI_T_ERR_INVALID_NAME;
}

int session_create(MPI_T_pvar_session* session) {
  if (session == nullptr) return MPI_T_ERR_INVALID;
  *session = new weft_t_pvar_session;
  live_sessions().insert(*session);
  return MPI_SUCCESS;
}

int session_free(MPI_T_pvar_session* session) {
  if (session == nullptr || live_sessions().erase(*session) == 0) return MPI_T_ERR_INVALID_SESSION;
  for (MPI_T_pvar_handle h : (*session)->handles) delete h;
  delete *session;
  *session = MPI_T_PVAR_SESSION_NULL;
  return MPI_SUCCESS;
}

int pvar_handle_alloc(MPI_T_pvar_session session, int index, MPI_T_pvar_handle* handle,
                      int* count) {
  if (live_sessions().count(session) == 0) return MPI_T_ERR_INVALID_SESSION;
  if (!valid_index(index)) return MPI_T_ERR_INVALID_INDEX;
  if (handle == nullptr || count == nullptr) return MPI_T_ERR_INVALID;
  const bool continuous = table()[index].continuous;
  *handle = new weft_t_pvar_handle{index, continuous, table()[index].counter->get(), 0};
  session->handles.push_back(*handle);
  *count = 1;
  return MPI_SUCCESS;
}

int pvar_handle_free(MPI_T_pvar_session session, MPI_T_pvar_handle* handle) {
  if (handle == nullptr) return MPI_T_ERR_INVALID_HANDLE;
  if (int rc = check(session, *handle)) return rc;
  std::erase(session->handles, *handle);
  delete *handle;
  *handle = MPI_T_PVAR_HANDLE_NULL;
  return MPI_SUCCESS;
}

int pvar_start(MPI_T_pvar_session session, MPI_T_pvar_handle handle) {
  return for_handles(
      session, handle, [](const Pvar& p) { return !p.continuous; },
      [](weft_t_pvar_handle* h) {
        if (h->started) return;
        h->base = now(h);
        h->started = true;
      },
      MPI_T_ERR_PVAR_NO_STARTSTOP);
}

int pvar_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle) {
  return for_handles(
      session, handle, [](const Pvar& p) { return !p.continuous; },
      [](weft_t_pvar_handle* h) {
        h->accumulated = value(h);
        h->started = false;
      },
      MPI_T_ERR_PVAR_NO_STARTSTOP);
}

int pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void* buf) {
  if (handle == MPI_T_PVAR_ALL_HANDLES) return MPI_T_ERR_INVALID_HANDLE;
  if (int rc = check(session, handle)) return rc;
  if (buf == nullptr) return MPI_T_ERR_INVALID;
  const uint64_t v = value(handle);
  if (is_timer(table()[handle->index]))
    *static_cast<double*>(buf) = double(v) * 1e-9;
  else
    *static_cast<unsigned long long*>(buf) = v;
  return MPI_SUCCESS;
}

int pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle handle, const void* buf) {
  if (handle == MPI_T_PVAR_ALL_HANDLES) return MPI_T_ERR_INVALID_HANDLE;
  if (int rc = check(session, handle)) return rc;
  if (buf == nullptr) return MPI_T_ERR_INVALID;
  if (table()[handle->index].readonly) return MPI_T_ERR_PVAR_NO_WRITE;
  handle->accumulated = is_timer(table()[handle->index])
                            ? uint64_t(*static_cast<const double*>(buf) * 1e9)
                            : *static_cast<const unsigned long long*>(buf);
  handle->base = now(handle);
  return MPI_SUCCESS;
}

int pvar_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle) {
  return for_handles(
      session, handle, [](const Pvar& p) { return !p.readonly; },
      [](weft_t_pvar_handle* h) {
        h->accumulated = 0;
        h->base = now(h);
      },
      MPI_T_ERR_PVAR_NO_WRITE);
}

int pvar_readreset(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void* buf) {
  if (int rc = pvar_read(session, handle, buf)) return rc;
  return pvar_reset(session, handle);
}

}  // namespace weft::tools
