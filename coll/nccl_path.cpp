// The NCCL path of blocking collectives: per-communicator NCCL state, agreement among the ranks,
// and the run on a stream of the communicator's own.
#include "coll/nccl_path.hpp"

#include <cstdio>
#include <mutex>

#include "coll/device_mirror.hpp"
#include "coll/nccl_call.hpp"
#include "gpu/cuda_driver.hpp"
#include "gpu/memory.hpp"
#include "runtime/comm/create.hpp"
#include "runtime/config.hpp"
#include "runtime/tools/counters.hpp"
#include "runtime/world.hpp"

namespace weft::coll {
namespace {

// What the NCCL path needs of the CUDA driver: the context and a stream per communicator.
struct Driver {
  gpu::CudaDriver table;
  bool loaded = false;
  std::string why;
};

const Driver& driver() {
  static Driver d;
  static std::once_flag once;
  std::call_once(once, [] {
    int devices = 0;
    d.loaded = gpu::load_cuda_driver(&d.table, &devices, &d.why);
  });
  return d;
}

const gpu::NcclLibrary* library(std::string* why) {
  return gpu::nccl_library(setting_value("WEFT_NCCL_LIBRARY"), why);
}

// Logical AND over the ranks of `comm` of two facts, in Weft's own collective.
Status agree(Comm& comm, bool* first, bool* second) {
  uint64_t words[2] = {*first ? 1u : 0u, *second ? 1u : 0u};
  CallSpec spec = bitwise_and_call(words, 2);
  WEFT_TRY(run_blocking(comm, spec));
  *first = words[0] != 0;
  *second = words[1] != 0;
  return Status::success();
}

}  // namespace

// An MPI communicator's NCCL communicator and stream, or the reason NCCL cannot be used on it.
class NcclComm {
 public:
  ~NcclComm() {
    if (comm_ != nullptr) nccl_->comm_destroy(comm_);
    if (stream_ != nullptr) driver().table.stream_destroy(stream_);
  }
  bool usable() const { return comm_ != nullptr; }
  const std::string& why_not() const { return why_not_; }

  // Collective over `comm`, whose ranks all have NCCL and CUDA: rank 0's unique id reaches
  // everyone by Weft's broadcast, then every rank joins. Usable afterwards on every rank or on
  // none; an error only where Weft's own collectives fail.
  Status set_up(Comm& comm, const gpu::NcclLibrary& nccl);
  void refuse(const std::string& why) { why_not_ = why; }
  Status run(NcclCall call, int size);
  // Enqueues `call` on the application's `stream` and returns (no staging: `call` has none).
  Status start(const NcclCall& call, int size, gpu::CudaStreamHandle stream);

 private:
  // Makes the context this communicator was built in current; *previous: what was.
  gpu::CuResult enter(gpu::CuContext* previous);
  Status failed(const std::string& what, gpu::NcclResult r) const {
    return Status::error(MPI_ERR_OTHER, what + " failed: " + gpu::nccl_error_text(*nccl_, r));
  }

  const gpu::NcclLibrary* nccl_ = nullptr;
  gpu::NcclComm comm_ = nullptr;
  gpu::CuContext context_ = nullptr;
  gpu::CuStream stream_ = nullptr;
  std::string why_not_;
};

gpu::CuResult NcclComm::enter(gpu::CuContext* previous) {
  const gpu::CudaDriver& cu = driver().table;
  *previous = nullptr;
  gpu::CuResult e = cu.ctx_get_current(previous);
  if (e == gpu::kCuSuccess && *previous != context_) e = cu.ctx_set_current(context_);
  return e;
}

Status NcclComm::set_up(Comm& comm, const gpu::NcclLibrary& nccl) {
  nccl_ = &nccl;
  struct {
    gpu::NcclUniqueId id;
    uint64_t ok;
  } root{};
  if (comm.rank == 0) root.ok = nccl.get_unique_id(&root.id) == gpu::kNcclSuccess;
  WEFT_TRY(internal_bcast(comm, &root, sizeof root, 0));
  // The context current now (the first device's primary context if none is: the one CUDA's
  // runtime, and so NCCL, would use) is the one its stream and NCCL communicator live in.
  const gpu::CudaDriver& cu = driver().table;
  bool prepared = root.ok != 0;
  if (prepared && (cu.ctx_get_current(&context_) != gpu::kCuSuccess || context_ == nullptr)) {
    prepared = cu.primary_ctx_retain(&context_, 0) == gpu::kCuSuccess &&
               cu.ctx_set_current(context_) == gpu::kCuSuccess;
  }
  if (prepared) prepared = cu.stream_create(&stream_, 0) == gpu::kCuSuccess;  // 0: ordered
  // with the legacy default stream, where applications' plain kernel launches and copies go
  bool everyone = prepared;
  bool ignored = true;
  WEFT_TRY(agree(comm, &everyone, &ignored));
  gpu::NcclResult r = gpu::kNcclSuccess;
  if (everyone) r = nccl.comm_init_rank(&comm_, comm.size, root.id, comm.rank);
  bool joined = everyone && r == gpu::kNcclSuccess;
  WEFT_TRY(agree(comm, &joined, &ignored));
  if (joined) return Status::success();
  // Joined here but not elsewhere: nobody will use it. (A failed init leaves nothing to free.)
  if (r == gpu::kNcclSuccess && comm_ != nullptr) nccl.comm_abort(comm_);
  comm_ = nullptr;
  if (!root.ok) {
    why_not_ = "ncclGetUniqueId failed on rank 0";
  } else if (!everyone) {
    why_not_ = "no CUDA context or stream on some rank";
  } else {
    why_not_ = r != gpu::kNcclSuccess ? "ncclCommInitRank failed: " + gpu::nccl_error_text(nccl, r)
                                      : "ncclCommInitRank failed on another rank";
  }
  return Status::success();
}

Status NcclComm::run(NcclCall call, int size) {
  gpu::DeviceMemory* memory = gpu::device_memory();
  const gpu::CudaDriver& cu = driver().table;
  gpu::CuContext previous = nullptr;
  const gpu::CuResult entered = enter(&previous);
  if (entered != gpu::kCuSuccess)
    return Status::error(MPI_ERR_OTHER, "cuCtxSetCurrent failed: " + cuda_error_text(cu, entered));
  void* stage = nullptr;
  Status s;
  if (call.stage_bytes > 0) {  // in-place all-to-all: send from a copy
    stage = memory->allocate_device(call.stage_bytes);
    s = stage != nullptr ? memory->copy(stage, call.recv, call.stage_bytes)
                         : Status::error(MPI_ERR_NO_MEM,
                                         "no device memory for an in-place "
                                         "all-to-all's copy");
    call.send = stage;
  }
  if (s.ok()) {
    const gpu::NcclResult r = enqueue(*nccl_, comm_, call, size, stream_);
    if (r != gpu::kNcclSuccess) s = failed(std::string("NCCL ") + coll_name(call.kind), r);
  }
  if (s.ok()) {
    const gpu::CuResult e = cu.stream_synchronize(stream_);
    gpu::NcclResult async = gpu::kNcclSuccess;
    nccl_->comm_get_async_error(comm_, &async);
    if (async != gpu::kNcclSuccess)
      s = failed(std::string("NCCL ") + coll_name(call.kind), async);
    else if (e != gpu::kCuSuccess)
      s = Status::error(MPI_ERR_OTHER, "waiting for NCCL: " + cuda_error_text(cu, e));
  }
  if (s.ok() && call.result_bytes > 0)
    s = memory->copy(call.result_to, call.recv, call.result_bytes);
  if (stage != nullptr) memory->free_device(stage);
  if (previous != context_) cu.ctx_set_current(previous);
  return s;
}

Status NcclComm::start(const NcclCall& call, int size, gpu::CudaStreamHandle stream) {
  const gpu::CudaDriver& cu = driver().table;
  gpu::CuContext previous = nullptr;
  const gpu::CuResult entered = enter(&previous);
  if (entered != gpu::kCuSuccess)
    return Status::error(MPI_ERR_OTHER, "cuCtxSetCurrent failed: " + cuda_error_text(cu, entered));
  // A failure of an earlier call on a stream shows here first.
  gpu::NcclResult r = gpu::kNcclSuccess;
  nccl_->comm_get_async_error(comm_, &r);
  if (r == gpu::kNcclSuccess) r = enqueue(*nccl_, comm_, call, size, stream);
  if (previous != context_) cu.ctx_set_current(previous);
  return r == gpu::kNcclSuccess ? Status::success()
                                : failed(std::string("NCCL ") + coll_name(call.kind), r);
}

namespace {

// Set while this thread runs the collectives of an agreement or a set-up, which must not ask
// about NCCL themselves.
thread_local bool g_inside = false;
struct Inside {
  Inside() { g_inside = true; }
  ~Inside() { g_inside = false; }
};

// Makes `comm`'s NCCL state at its first call that could use NCCL, the same on every rank:
// set up where every rank is `ready`, else refused for `why` (or for another rank's lack).
Status settle(Comm& comm, const gpu::NcclLibrary* nccl, bool ready, const std::string& why) {
  auto state = std::make_shared<NcclComm>();
  if (ready) {
    WEFT_TRY(state->set_up(comm, *nccl));
  } else {
    state->refuse(nccl == nullptr ? why : "no NCCL on another rank");
  }
  comm.nccl.held = state;
  return Status::success();
}

// The library, or null with why not (also where the CUDA driver does not load).
const gpu::NcclLibrary* usable_library(std::string* why) {
  const gpu::NcclLibrary* nccl = library(why);
  if (nccl != nullptr && !driver().loaded) *why = driver().why;
  return driver().loaded ? nccl : nullptr;
}

}  // namespace

Status prepare_nccl(Comm& comm, bool* usable) {
  if (comm.nccl.held == nullptr) {
    Inside inside;
    std::string why;
    const gpu::NcclLibrary* nccl = usable_library(&why);
    bool ready = nccl != nullptr, everyone = true;
    WEFT_TRY(agree(comm, &everyone, &ready));
    WEFT_TRY(settle(comm, nccl, ready, why));
  }
  *usable = comm.nccl.held->usable();
  return Status::success();
}

Status start_nccl(Comm& comm, const NcclCall& call, void* stream) {
  WEFT_TRY(comm.nccl.held->start(call, comm.size, stream));
  tools::g_counters.coll_nccl_calls.add(1);
  return Status::success();
}

bool run_on_nccl(Comm& comm, CallSpec& spec, Status* status) {
  // Every rank of a job is taken to see the same: a CUDA driver with a device, or not.
  if (g_inside || gpu::usable_device_memory() == nullptr) return false;
  const NcclComm* known = comm.nccl.held.get();
  if (known != nullptr && !known->usable()) return false;
  const Selector& selector = world().selector;
  const bool forced = selector.nccl_forced(spec.args.kind);
  size_t bytes = 0;
  std::string why;
  if (!nccl_candidate(spec, &bytes, &why)) return false;
  const DevicePrediction p = predict_device_call(selector, spec.args, bytes, device_mirror_limit());
  if (!nccl_wanted(selector, spec.args.kind, p)) return false;
  Inside inside;
  const gpu::NcclLibrary* nccl = usable_library(&why);
  bool ready = nccl != nullptr;
  NcclCall call;
  std::string unfit;
  bool fits = nccl_form(spec, &call, &unfit);
  *status = agree(comm, &fits, &ready);
  if (!status->ok()) return true;
  if (known == nullptr && (!ready || fits)) {  // settled at the first call that could use it
    *status = settle(comm, nccl, ready, why);
    if (!status->ok()) return true;
  }
  const NcclComm* state = comm.nccl.held.get();
  if (state != nullptr && !state->usable()) {
    static std::once_flag said;
    if (forced && comm.rank == 0) {
      std::call_once(said, [&] {
        std::fprintf(stderr,
                     "weft: NCCL cannot be used on %s (%s); Weft's own algorithms run its "
                     "collectives\n",
                     comm.display_name().c_str(), state->why_not().c_str());
      });
    }
    return false;
  }
  if (state == nullptr || !fits) return false;
  *status = comm.nccl.held->run(call, comm.size);
  tools::g_counters.coll_nccl_calls.add(1);
  return true;
}

bool describe_nccl(std::string* text) {
  std::string why;
  const gpu::NcclLibrary* nccl = library(&why);
  *text = nccl != nullptr
              ? "NCCL " + gpu::nccl_version_text(nccl->version) + " (" + nccl->file + ")"
              : why;
  return nccl != nullptr;
}

}  // namespace weft::coll
