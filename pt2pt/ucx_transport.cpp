// UCX implementation of Transport. Facts relied on (docs/platform-facts.md §3): a NULL return
// means completed in place, UCS_PTR_IS_ERR is a failure, anything else is a UCX request we free
// in its callback (which may run before the call returns); blocking waits need
// UCP_FEATURE_WAKEUP + ucp_worker_arm + poll on the worker's event fd; a matched probe is
// ucp_tag_probe_nb with remove=1, after which only ucp_tag_msg_recv_nbx can receive the message.
#include "pt2pt/ucx_transport.hpp"

#include <ucp/api/ucp.h>

#include <algorithm>
#include <cfenv>
#include <cstdlib>
#include <string>

#include "gpu/memory.hpp"
#include "mpi.h"
#include "pt2pt/match_bits.hpp"
#include "pt2pt/ucx_config.hpp"
#include "pt2pt/ucx_device_memory.hpp"
#include "runtime/tools/counters.hpp"

namespace weft {
namespace {

Status ucx_error(const char* what, ucs_status_t st) {
  return Status::error(MPI_ERR_OTHER, std::string(what) + " failed: " + ucs_status_string(st));
}

int error_class_of(ucs_status_t st) {
  switch (st) {
    case UCS_OK:
    case UCS_ERR_CANCELED:
      return MPI_SUCCESS;
    case UCS_ERR_MESSAGE_TRUNCATED:
      return MPI_ERR_TRUNCATE;
    default:
      return MPI_ERR_OTHER;
  }
}

void on_send_done(void* request, ucs_status_t st, void* user_data) {
  auto* c = static_cast<Completion*>(user_data);
  c->error_class = error_class_of(st);
  c->cancelled = (st == UCS_ERR_CANCELED);
  c->handle = nullptr;
  c->done = true;
  ucp_request_free(request);
}

void on_recv_done(void* request, ucs_status_t st, const ucp_tag_recv_info_t* info, void* user_data) {
  auto* c = static_cast<Completion*>(user_data);
  c->error_class = error_class_of(st);
  c->cancelled = (st == UCS_ERR_CANCELED);
  if (info != nullptr && !c->cancelled) {
    c->sender_bits = info->sender_tag;
    // irecv parks the buffer's capacity in `bytes` while the receive is in flight
    if (info->length < c->bytes) c->bytes = info->length;
    tools::g_counters.ucx_messages_received.add(1);
    tools::g_counters.ucx_bytes_received.add(c->bytes);
  }
  c->handle = nullptr;
  c->done = true;
  ucp_request_free(request);
}

class UcxTransport final : public Transport {
 public:
  ~UcxTransport() override {
    for (ucp_ep_h ep : eps_) {
      if (ep == nullptr) continue;
      ucp_request_param_t p{};
      p.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS;
      p.flags = UCP_EP_CLOSE_FLAG_FORCE;
      ucs_status_ptr_t r = ucp_ep_close_nbx(ep, &p);
      if (UCS_PTR_IS_PTR(r)) {
        while (ucp_request_check_status(r) == UCS_INPROGRESS) ucp_worker_progress(worker_);
        ucp_request_free(r);
      }
    }
    if (packs_device_memory_) ucp_dt_destroy(device_bytes_);
    if (address_ != nullptr) ucp_worker_release_address(worker_, address_);
    if (worker_ != nullptr) ucp_worker_destroy(worker_);
    if (context_ != nullptr) ucp_cleanup(context_);
  }

  Status init(const UcxOptions& o) {
    ucp_config_t* config = nullptr;
    ucs_status_t st = ucp_config_read(nullptr, nullptr, &config);
    if (st != UCS_OK) return ucx_error("ucp_config_read", st);
    if (Status s = apply_ucx_defaults(config, o.oversubscribed); !s.ok()) {
      ucp_config_release(config);
      return s;
    }
    ucp_params_t params{};
    params.field_mask = UCP_PARAM_FIELD_FEATURES | UCP_PARAM_FIELD_TAG_SENDER_MASK |
                        UCP_PARAM_FIELD_ESTIMATED_NUM_EPS | UCP_PARAM_FIELD_ESTIMATED_NUM_PPN;
    params.features = UCP_FEATURE_TAG | UCP_FEATURE_RMA | UCP_FEATURE_WAKEUP;
    params.tag_sender_mask = match_bits::kSenderMask;
    params.estimated_num_eps = size_t(o.world_size);
    params.estimated_num_ppn = size_t(o.local_size);
    st = ucp_init(&params, config, &context_);
    ucp_config_release(config);
    if (st != UCS_OK) return ucx_error("ucp_init", st);
    ucp_context_attr_t attr{};
    attr.field_mask = UCP_ATTR_FIELD_MEMORY_TYPES;
    st = ucp_context_query(context_, &attr);
    if (st != UCS_OK) return ucx_error("ucp_context_query", st);
    cuda_memory_ = ucx_moves_cuda_memory(attr.memory_types);
    // Without CUDA in UCX, device memory goes through a staging pipeline
    // (pt2pt/ucx_device_memory.hpp) where device buffers can exist at all.
    if (!cuda_memory_ && o.pack_device_memory && gpu::device_memory() != nullptr) {
      staging_ = o.staging;
      st = make_device_bytes_datatype(&staging_, &device_bytes_);
      if (st != UCS_OK) return ucx_error("ucp_dt_create_generic", st);
      packs_device_memory_ = true;
    }

    ucp_worker_params_t wp{};
    wp.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE;
    wp.thread_mode = o.multi_threaded ? UCS_THREAD_MODE_SERIALIZED : UCS_THREAD_MODE_SINGLE;
    st = ucp_worker_create(context_, &wp, &worker_);
    if (st != UCS_OK) return ucx_error("ucp_worker_create", st);
    st = ucp_worker_get_address(worker_, &address_, &address_len_);
    if (st != UCS_OK) return ucx_error("ucp_worker_get_address", st);
    st = ucp_worker_get_efd(worker_, &efd_);
    if (st != UCS_OK) return ucx_error("ucp_worker_get_efd", st);
    eps_.assign(size_t(o.world_size), nullptr);
    return Status::success();
  }

  const char* name() const override { return "ucx"; }

  // Device buffers go to UCX as they are where it moves CUDA memory (GPUDirect RDMA, CUDA IPC
  // and its own staging pipeline underneath), whatever their size; else, from kPackMin bytes,
  // through Weft's staging pipeline (smaller ones pt2pt stages in one copy, and sends and
  // receives below that size never ask where their buffer lives).
  bool takes_device_memory(int, size_t bytes) const override {
    return cuda_memory_ || (packs_device_memory_ && bytes >= kPackMin);
  }
  std::string device_memory_path() const override {
    return "network (UCX): " + ucx_device_path(cuda_memory_, packs_device_memory_);
  }

  std::vector<uint8_t> address() const override {
    auto* p = reinterpret_cast<const uint8_t*>(address_);
    return {p, p + address_len_};
  }

  // Peers past the job's ranks are processes of other namespaces (runtime/world.hpp).
  bool connected(int peer) const override {
    return size_t(peer) < eps_.size() && eps_[size_t(peer)] != nullptr;
  }

  Status connect(int peer, const std::vector<uint8_t>& address) override {
    ucp_ep_params_t ep{};
    ep.field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS;
    ep.address = reinterpret_cast<const ucp_address_t*>(address.data());
    if (size_t(peer) >= eps_.size()) eps_.resize(size_t(peer) + 1, nullptr);
    // UCX's protocol selection divides by zero while it builds an endpoint's configuration
    // (ucp_proto_perf_envelope_make, UCX 1.13). The flags it raises are not the program's:
    // Fortran programs would report them at STOP. They are discarded here.
    std::fenv_t program_fenv;
    std::feholdexcept(&program_fenv);
    ucs_status_t st = ucp_ep_create(worker_, &ep, &eps_[size_t(peer)]);
    std::fesetenv(&program_fenv);
    if (st != UCS_OK) return ucx_error(("ucp_ep_create to rank " + std::to_string(peer)).c_str(), st);
    return Status::success();
  }

  Status isend(int peer, const void* buf, size_t len, uint64_t bits, bool sync,
               Completion* c) override {
    ucp_request_param_t p = send_param(c);
    if (packed_from_device(buf, len, &p)) tools::g_counters.ucx_device_packed_sent.add(1);
    ucp_ep_h ep = eps_[size_t(peer)];
    tools::g_counters.ucx_messages_sent.add(1);
    tools::g_counters.ucx_bytes_sent.add(len);
    ucs_status_ptr_t r = sync ? ucp_tag_send_sync_nbx(ep, buf, len, bits, &p)
                              : ucp_tag_send_nbx(ep, buf, len, bits, &p);
    return track(r, c, "ucp_tag_send_nbx");
  }

  Status irecv(int, void* buf, size_t len, uint64_t bits, uint64_t mask,
               Completion* c) override {
    // Always through the callback: with the v2 protocols an in-place completion leaves
    // recv_info unfilled (seen with UCX 1.13.1), which would lose the sender and length.
    ucp_request_param_t p{};
    p.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA |
                     UCP_OP_ATTR_FLAG_NO_IMM_CMPL;
    p.cb.recv = on_recv_done;
    p.user_data = c;
    (void)packed_from_device(buf, len, &p);
    c->bytes = len;
    ucs_status_ptr_t r = ucp_tag_recv_nbx(worker_, buf, len, bits, mask, &p);
    if (UCS_PTR_IS_ERR(r)) return ucx_error("ucp_tag_recv_nbx", UCS_PTR_STATUS(r));
    if (!c->done) c->handle = r;  // the callback may already have run (and freed r)
    return Status::success();
  }

  bool iprobe(int, uint64_t bits, uint64_t mask, ProbeResult* out) override {
    return probe(bits, mask, false, out);
  }

  bool take_message(int, uint64_t bits, uint64_t mask, ProbeResult* out) override {
    return probe(bits, mask, true, out);
  }

  Status recv_message(const ProbeResult& taken, void* buf, size_t len, Completion* c) override {
    ucp_request_param_t p{};
    p.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA |
                     UCP_OP_ATTR_FLAG_NO_IMM_CMPL;
    p.cb.recv = on_recv_done;
    p.user_data = c;
    (void)packed_from_device(buf, len, &p);
    c->bytes = len;
    ucs_status_ptr_t r =
        ucp_tag_msg_recv_nbx(worker_, buf, len, static_cast<ucp_tag_message_h>(taken.message), &p);
    if (UCS_PTR_IS_ERR(r)) return ucx_error("ucp_tag_msg_recv_nbx", UCS_PTR_STATUS(r));
    if (r == nullptr && !c->done) {  // completed in place: the probe told sender and length
      c->sender_bits = taken.sender_bits;
      c->error_class = taken.bytes > len ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
      c->bytes = std::min(taken.bytes, len);
      c->done = true;
      tools::g_counters.ucx_messages_received.add(1);
      tools::g_counters.ucx_bytes_received.add(c->bytes);
    }
    // c->handle stays null: the message is matched already, so there is nothing to cancel.
    return Status::success();
  }

  void cancel(Completion* c) override {
    if (c->handle != nullptr) ucp_request_cancel(worker_, c->handle);
  }

  unsigned progress() override { return ucp_worker_progress(worker_); }

  bool arm() override { return ucp_worker_arm(worker_) == UCS_OK; }

  int wait_fd() const override { return efd_; }

  void wake() override { (void)ucp_worker_signal(worker_); }  // thread-safe in UCX

  Status flush() override {
    ucp_request_param_t p{};
    ucs_status_ptr_t r = ucp_worker_flush_nbx(worker_, &p);
    if (r == nullptr) return Status::success();
    if (UCS_PTR_IS_ERR(r)) return ucx_error("ucp_worker_flush_nbx", UCS_PTR_STATUS(r));
    ucs_status_t st;
    while ((st = ucp_request_check_status(r)) == UCS_INPROGRESS) ucp_worker_progress(worker_);
    ucp_request_free(r);
    return st == UCS_OK ? Status::success() : ucx_error("ucp_worker_flush", st);
  }

  // RMA (docs/platform-facts.md §3): ucp_mem_map + ucp_rkey_pack at the target,
  // ucp_ep_rkey_unpack at the origin; a put's or get's request completes locally,
  // ucp_ep_flush_nbx completes every earlier one at the peer.
  bool rma_capable() const override { return true; }

  Status register_memory(void* base, size_t bytes, MemoryRegistration** out,
                         std::vector<uint8_t>* key) override {
    ucp_mem_map_params_t mp{};
    mp.field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS | UCP_MEM_MAP_PARAM_FIELD_LENGTH;
    mp.address = base;
    mp.length = bytes;
    ucp_mem_h memh = nullptr;
    ucs_status_t st = ucp_mem_map(context_, &mp, &memh);
    if (st != UCS_OK) return ucx_error("ucp_mem_map", st);
    void* packed = nullptr;
    size_t packed_size = 0;
    st = ucp_rkey_pack(context_, memh, &packed, &packed_size);
    if (st != UCS_OK) {
      (void)ucp_mem_unmap(context_, memh);
      return ucx_error("ucp_rkey_pack", st);
    }
    auto* bytes_of = static_cast<const uint8_t*>(packed);
    key->assign(bytes_of, bytes_of + packed_size);
    ucp_rkey_buffer_release(packed);
    *out = reinterpret_cast<MemoryRegistration*>(memh);
    return Status::success();
  }

  void deregister_memory(MemoryRegistration* m) override {
    (void)ucp_mem_unmap(context_, reinterpret_cast<ucp_mem_h>(m));
  }

  Status unpack_key(int peer, const std::vector<uint8_t>& key, RemoteKey** out) override {
    ucp_rkey_h rkey = nullptr;
    ucs_status_t st = ucp_ep_rkey_unpack(eps_[size_t(peer)], key.data(), &rkey);
    if (st != UCS_OK) return ucx_error("ucp_ep_rkey_unpack", st);
    *out = reinterpret_cast<RemoteKey*>(rkey);
    return Status::success();
  }

  void release_key(RemoteKey* k) override { ucp_rkey_destroy(reinterpret_cast<ucp_rkey_h>(k)); }

  Status put(int peer, const void* buf, size_t len, uint64_t address, RemoteKey* key,
             Completion* c) override {
    ucp_request_param_t p = send_param(c);
    return track(ucp_put_nbx(eps_[size_t(peer)], buf, len, address,
                             reinterpret_cast<ucp_rkey_h>(key), &p),
                 c, "ucp_put_nbx");
  }

  Status get(int peer, void* buf, size_t len, uint64_t address, RemoteKey* key,
             Completion* c) override {
    ucp_request_param_t p = send_param(c);
    return track(ucp_get_nbx(eps_[size_t(peer)], buf, len, address,
                             reinterpret_cast<ucp_rkey_h>(key), &p),
                 c, "ucp_get_nbx");
  }

  Status flush_peer(int peer, Completion* c) override {
    ucp_request_param_t p = send_param(c);
    return track(ucp_ep_flush_nbx(eps_[size_t(peer)], &p), c, "ucp_ep_flush_nbx");
  }

 private:
  // Makes `p` move `len` bytes at `buf` with the device-bytes datatype where they are device
  // memory this UCX cannot reach itself; true if so.
  bool packed_from_device(const void* buf, size_t len, ucp_request_param_t* p) const {
    if (!packs_device_memory_ || len < kPackMin || !gpu::on_device(buf)) return false;
    p->op_attr_mask |= UCP_OP_ATTR_FIELD_DATATYPE;
    p->datatype = device_bytes_;
    return true;
  }

  static ucp_request_param_t send_param(Completion* c) {
    ucp_request_param_t p{};
    p.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA;
    p.cb.send = on_send_done;
    p.user_data = c;
    return p;
  }

  // What an operation's start returned: done in place, failed, or a request whose callback
  // (on_send_done) completes `c`.
  static Status track(ucs_status_ptr_t r, Completion* c, const char* what) {
    if (r == nullptr) {
      c->done = true;
    } else if (UCS_PTR_IS_ERR(r)) {
      return ucx_error(what, UCS_PTR_STATUS(r));
    } else if (!c->done) {  // the callback may already have run (and freed r) inside the call
      c->handle = r;
    }
    return Status::success();
  }

  // Looks for a matching unexpected message, progressing once if none is there yet; `remove`
  // takes it out of matching (matched probe).
  bool probe(uint64_t bits, uint64_t mask, bool remove, ProbeResult* out) {
    ucp_tag_recv_info_t info{};
    ucp_tag_message_h msg = ucp_tag_probe_nb(worker_, bits, mask, remove ? 1 : 0, &info);
    if (msg == nullptr) {
      ucp_worker_progress(worker_);
      msg = ucp_tag_probe_nb(worker_, bits, mask, remove ? 1 : 0, &info);
    }
    if (msg == nullptr) return false;
    out->sender_bits = info.sender_tag;
    out->bytes = info.length;
    out->message = remove ? msg : nullptr;
    return true;
  }

  ucp_context_h context_ = nullptr;
  ucp_worker_h worker_ = nullptr;
  ucp_address_t* address_ = nullptr;
  size_t address_len_ = 0;
  int efd_ = -1;
  std::vector<ucp_ep_h> eps_;
  // The smallest device message packed for UCX: as the node transport's eager limit, below which
  // one staging copy costs no more than the fragments' copies.
  static constexpr size_t kPackMin = 8192;
  bool cuda_memory_ = false;  // this UCX moves CUDA device memory (ucx_moves_cuda_memory)
  bool packs_device_memory_ = false;  // device_bytes_ exists (pt2pt/ucx_device_memory.hpp)
  ucp_datatype_t device_bytes_ = 0;
  gpu::StagingShape staging_;  // its chunks
};

}  // namespace

Status make_ucx_transport(const UcxOptions& options, std::unique_ptr<Transport>* out) {
  auto t = std::make_unique<UcxTransport>();
  WEFT_TRY(t->init(options));
  *out = std::move(t);
  return Status::success();
}

}  // namespace weft
