// WEFT_* settings table and accessors (the man page and weft_info print this same table).
#include "runtime/config.hpp"

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

namespace weft {

namespace {
constexpr const char* kForceDoc =
    "Forces this collective's algorithm by name whenever it can take the call (the v-variants, "
    "nonblocking and persistent forms included); auto: the cost model chooses. nccl (bcast, "
    "reduce, allreduce, allgather, reduce_scatter, alltoall): NCCL for blocking calls on "
    "device buffers where it can run them, else the model's choice. "
    "`weft_info --coll NAME` lists the algorithms and explains the choice.";
}  // namespace

const std::vector<Setting>& settings() {
  static const std::vector<Setting> table = {
      {"WEFT_SPIN_US", "1000",
       "Microseconds a waiting call polls before it blocks on the transport's event fd.", true,
       true},
      {"WEFT_YIELD", "auto",
       "1: give the core away (sched_yield) between polls while spinning; 0: spin hard. "
       "auto: 1 when this node runs more ranks than it has cores."},
      {"WEFT_POLL_MS", "100",
       "Upper bound in milliseconds on one blocking sleep of the progress engine.", true, true},
      {"WEFT_SHM", "1",
       "1: ranks of one node exchange messages through a shared-memory segment of the job "
       "(eager copies through per-pair rings, single-copy by process_vm_readv for large "
       "messages); where the kernel refuses cross-memory attach between them the network "
       "transport carries them instead. 0: always the network transport (WEFT_TRANSPORT).",
       true, true},
      {"WEFT_TRANSPORT", "auto",
       "The network transport: ucx (UCX tag matching), ofi (libfabric tagged messages, "
       "provider from WEFT_OFI_PROVIDER) or auto: ofi where libfabric drives a fabric UCX does "
       "not (its cxi, opx, psm3, psm2 or efa provider) or where WEFT_OFI_PROVIDER names a "
       "provider, else ucx. weftrun --transport sets it; weft_info shows the choice."},
      {"WEFT_CUDA", "auto",
       "auto: accept CUDA device buffers when the CUDA driver (libcuda.so.1) loads and sees a "
       "device; 0: never look for it (every buffer is host memory)."},
      {"WEFT_NCCL_LIBRARY", "auto",
       "NCCL for collectives on device buffers, loaded at run time: auto looks for "
       "libnccl.so.2 on the loader's path, then in the CUDA toolkit's lib64 ($CUDA_HOME, "
       "$CUDA_PATH, /usr/local/cuda); a path loads that file; none: never use NCCL."},
      {"WEFT_GPU_MIRROR_LIMIT", "1048576",
       "Collectives on CUDA device buffers whose device data is at most this many bytes copy it "
       "to host memory whole, run on the host and copy the result back (three GPU copies in "
       "all); larger ones keep their scratch on the GPU, reduce there, and copy each message "
       "through pinned host memory.",
       true, true},
      {"WEFT_GPU_IPC", "1",
       "1: a message in CUDA device memory larger than WEFT_SHM_EAGER_LIMIT goes to a rank of "
       "the node as it is: the receiver maps the sender's allocation (CUDA IPC, kept mapped) and "
       "copies it straight into its buffer; 0: such messages go through host memory.",
       true, true},
      {"WEFT_GPU_UCX_PACK", "1",
       "Where UCX has no CUDA support: 1 feeds UCX's fragments of a message of at least 8 KiB "
       "in CUDA device memory from a staging pipeline (WEFT_GPU_STAGING_CHUNK) as UCX sends "
       "and receives them; 0 copies it whole to host memory first (and from it after), as "
       "smaller ones always are.",
       true, true},
      {"WEFT_GPU_STAGING_CHUNK", "1048576",
       "Staging pipelines move device data through pinned host memory in chunks of this many "
       "bytes, the GPU copying the next chunks while the CPU or the network works on one: "
       "messages through a UCX without CUDA support, and host copies the node's shared memory "
       "delivers into device buffers. At least 4096.",
       true, true},
      {"WEFT_GPU_STAGING_DEPTH", "4",
       "How many chunks of a staging pipeline are under way at once (1 to 64); 1 copies and "
       "transfers by turns.",
       true, true},
      {"WEFT_OFI_PROVIDER", "auto",
       "The libfabric provider of WEFT_TRANSPORT=ofi, as libfabric names it (e.g. "
       "tcp;ofi_rxm, sockets). auto: the first offered of cxi, opx, psm3, psm2, efa, "
       "verbs;ofi_rxm, tcp;ofi_rxm. shm is refused (its tag matching is defective in "
       "libfabric 1.17; WEFT_SHM covers a node's ranks)."},
      {"WEFT_OFI_MAX_MSG", "0",
       "The largest message in bytes libfabric carries whole; larger ones go as pieces of this "
       "size (and one-sided transfers as several). 0: the provider's max_msg_size. At least 64 "
       "bytes; for testing the segmentation of providers with a small maximum.",
       true, true},
      {"WEFT_SHM_EAGER_LIMIT", "8192",
       "Largest message in bytes that goes through the shared-memory rings (copied in by the "
       "sender, out by the receiver); larger ones are copied once, by the receiver, from the "
       "sender's buffer. Capped at half a ring.",
       true, true},
      {"WEFT_SHM_SPLIT_COPY_MIN", "65536",
       "Smallest message in bytes above the eager limit that sender and receiver copy "
       "together, in chunks each claims (the receiver reading, the sender writing), when "
       "both are in MPI at once; 0: the receiver always copies alone. Not used when ranks "
       "outnumber cores.",
       true, true},
      {"WEFT_SHM_SPLIT_STREAM_MIN", "1048576",
       "Smallest single-copy message that sender and receiver copy together when more "
       "messages from its sender already wait behind it (a stream): below it the receiver "
       "copies alone, keeping both buffers in its cache. At least WEFT_SHM_SPLIT_COPY_MIN.",
       true, true},
      {"WEFT_SHM_COLL", "1",
       "1: a communicator whose ranks all share this node's segment claims one of its "
       "regions at its first blocking collective, and small barriers, broadcasts, reductions "
       "and allgathers may go through it (the shm algorithms, chosen by the cost model); 0: "
       "collectives use messages only.",
       true, true},
      {"WEFT_SHM_COLL_BYTES", "16384",
       "Most bytes one rank posts in a communicator's region in one collective (larger calls "
       "use messages).",
       true, true},
      {"WEFT_SHM_COLL_SHARED_READ_MIN", "65536",
       "Smallest read of a whole post in bytes that a single-copy collective (bcast, "
       "allgather, allreduce) shares between reader and poster: the reader offers its buffer "
       "and both copy chunks, the poster writing them while it waits for its readers, so "
       "that its core copies too; 0: readers copy alone. Also used when ranks outnumber "
       "cores (it balances the copies over them).",
       true, true},
      {"WEFT_SHM_COLL_REGIONS", "16",
       "Regions in a node's segment: how many communicators at once can have one (the others "
       "use messages only).",
       true, true},
      {"WEFT_SHM_RING_BYTES", "auto",
       "Bytes of each ring between two ranks of a node (a power of two, 8 KiB to 256 KiB). "
       "auto: 32 MiB divided among the node's ranks squared, within those bounds.",
       true},
      {"WEFT_TUNING_FILE", "auto",
       "Collective cost-model parameters written by weft_tune. auto: "
       "$XDG_CONFIG_HOME/weft/tuning (or ~/.config/weft/tuning) if it exists, else built-in "
       "defaults."},
      {"WEFT_BARRIER_ALGORITHM", "auto", kForceDoc},
      {"WEFT_BCAST_ALGORITHM", "auto", kForceDoc},
      {"WEFT_REDUCE_ALGORITHM", "auto", kForceDoc},
      {"WEFT_ALLREDUCE_ALGORITHM", "auto", kForceDoc},
      {"WEFT_GATHER_ALGORITHM", "auto", kForceDoc},
      {"WEFT_SCATTER_ALGORITHM", "auto", kForceDoc},
      {"WEFT_ALLGATHER_ALGORITHM", "auto", kForceDoc},
      {"WEFT_REDUCE_SCATTER_ALGORITHM", "auto", kForceDoc},
      {"WEFT_ALLTOALL_ALGORITHM", "auto", kForceDoc},
      {"WEFT_SCAN_ALGORITHM", "auto", kForceDoc},
      {"WEFT_EXSCAN_ALGORITHM", "auto", kForceDoc},
      {"WEFT_NEIGHBOR_ALLGATHER_ALGORITHM", "auto", kForceDoc},
      {"WEFT_NEIGHBOR_ALLTOALL_ALGORITHM", "auto", kForceDoc},
      {"WEFT_NODE_MAP", "auto",
       "Which node each rank runs on, as the node-aware (hierarchical) collectives and the cost "
       "model see it. auto: the launcher's host names. Otherwise comma-separated node names for "
       "ranks 0, 1, 2, ... of MPI_COMM_WORLD, repeated when there are more ranks (a,b: round "
       "robin over two nodes; a,a,b,b: pairs), so that tests can run several nodes on one "
       "machine. Affects only collectives, not MPI_Comm_split_type or the transport."},
      {"WEFT_CHECK_COLLECTIVES", "0",
       "1: before each collective call (nonblocking and persistent ones at their start) the "
       "members of the communicator exchange a small description of their calls, and a "
       "mismatch (another collective, root, count or op) fails on every rank with "
       "MPI_ERR_OTHER naming both calls instead of hanging. Costs one small allgather per "
       "call (man weft_coll).",
       true, true},
      {"WEFT_RMA_PATH", "auto",
       "How one-sided operations reach a target's window memory. auto: by load/store where "
       "the library allocated it on this node (MPI_Win_allocate, _shared), by cross-memory "
       "attach (process_vm_readv/writev) to other processes' memory on this node; on other "
       "nodes, contiguous puts and gets by the transport's RMA (UCX ucp_put_nbx/ucp_get_nbx, "
       "not for dynamic windows) and everything else by messages that the target serves. "
       "transport: every target but the caller itself as if on another node (shared-memory "
       "windows excepted). messages: the same, but by messages only.",
       false},
      {"WEFT_ASYNC_PROGRESS", "auto",
       "auto: while a window's members exchange one-sided requests (targets on other nodes), "
       "a thread serves them whenever the application is outside MPI, so a target that "
       "computes does not hold its origins up; MPI calls then take turns with it through a "
       "lock. 0: no thread; requests are served only inside MPI calls.",
       false},
      {"WEFT_PROFILE", "off",
       "summary: at MPI_Finalize rank 0 prints a profile of the job to stderr (per MPI function "
       "calls, time and bytes with their spread over ranks, the busiest call sites, time in MPI "
       "per rank, the point-to-point communication matrix) and writes it as an HTML page "
       "(WEFT_PROFILE_HTML); trace: every rank's MPI calls as one Chrome/Perfetto trace file "
       "(WEFT_PROFILE_TRACE); summary,trace: both; off: neither. weftrun (also --profile[=KIND]) "
       "then loads the profiler, libweft_profile.so, into the ranks; under another launcher "
       "LD_PRELOAD it (man weft, PROFILING). Read by weftrun and the profiler, outside the "
       "library.",
       true, false, true},
      {"WEFT_PROFILE_HTML", "auto",
       "Where the profiler writes its HTML page. auto: weft-profile.JOB.html in rank 0's working "
       "directory, JOB being the Slurm job (and step) id, else weftrun's job number, else rank 0's "
       "process id; off: no page.",
       true, false, true},
      {"WEFT_PROFILE_TRACE", "auto",
       "Where WEFT_PROFILE=trace writes the trace (Chrome/Perfetto trace-event JSON). auto: "
       "weft-trace.JOB.json in rank 0's working directory (JOB as for WEFT_PROFILE_HTML).",
       true, false, true},
      {"WEFT_PROFILE_TRACE_EVENTS", "65536",
       "Events each rank keeps for the trace (32 bytes each, allocated at MPI_Init); later calls "
       "are counted as dropped, in the file's otherData.dropped_events.",
       true, true, true},
      {"WEFT_STATE_SIGNAL", "unset",
       "Set by weftrun and weftd: the signal on which a rank writes what it is blocked in to "
       "stderr for the hang report (weftrun --timeout, SIGUSR1 to weftrun). Unset: no handler.",
       true, false, true},
  };
  return table;
}

namespace {
struct Overrides {
  std::mutex mutex;
  std::map<std::string, std::string> values;
};
Overrides& overrides() {
  static Overrides o;
  return o;
}
}  // namespace

void set_setting(const char* name, const std::string& value) {
  Overrides& o = overrides();
  std::lock_guard<std::mutex> hold(o.mutex);
  o.values[name] = value;
}

std::string setting_value(const char* name) {
  {
    Overrides& o = overrides();
    std::lock_guard<std::mutex> hold(o.mutex);
    if (auto it = o.values.find(name); it != o.values.end()) return it->second;
  }
  if (const char* v = std::getenv(name)) return v;
  for (const Setting& s : settings())
    if (std::strcmp(s.name, name) == 0) return s.default_value;
  return {};
}

long setting_long(const char* name, long fallback) {
  const std::string v = setting_value(name);
  if (v.empty() || v == "auto") return fallback;
  char* end = nullptr;
  const long n = std::strtol(v.c_str(), &end, 10);
  return (end && *end == '\0') ? n : fallback;
}

}  // namespace weft
