// libfabric implementation of Transport. Facts relied on (docs/platform-facts.md §5): every post
// may return -FI_EAGAIN until the completion queue is read (rxm while it connects); a tagged
// receive ignores the bits set in `ignore` (UCX's mask inverted); FI_PEEK answers through the
// completion queue (found, or -FI_ENOMSG), FI_CLAIM receives the message peeked with the same
// context; fi_cancel ends a receive with -FI_ECANCELED; a CQ opened with FI_WAIT_FD may be
// polled once fi_trywait succeeded. libfabric has no synchronous send: one carries its sender
// and operation in the 8 bytes of remote CQ data, and the receiver answers with a zero-byte
// message on the transport's reserved context (pt2pt/match_bits.hpp kTransportContext).
// ofi_rxm 1.17 stops delivering a peer's messages after it truncated one of its eager messages
// (at most its buffer size, FI_OFI_RXM_BUFFER_SIZE, 16 KiB by default); larger ones truncate
// cleanly. A receive shorter than that buffer therefore lands in a bounce buffer of that size,
// kept in its pooled operation, and Weft truncates and copies it itself.
#include "pt2pt/ofi_transport.hpp"

#include <rdma/fabric.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_tagged.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

#include "mpi.h"
#include "pt2pt/match_bits.hpp"
#include "pt2pt/ofi_library.hpp"
#include "pt2pt/ofi_ops.hpp"
#include "pt2pt/ofi_provider.hpp"
#include "runtime/tools/counters.hpp"

namespace weft {
namespace {

using ofi::Op;

Status ofi_error(const std::string& what, long rc) {
  return Status::error(MPI_ERR_OTHER,
                       what + " failed: " + ofi::library()->strerror(int(std::labs(rc))));
}

// The acknowledgement of a synchronous send; its remote data is the sender's operation slot.
constexpr uint64_t kAckBits =
    match_bits::kInternalBit | (uint64_t{match_bits::kTransportContext} << match_bits::kContextShift);

// What one completion-queue entry, or error entry, says about its operation.
struct Outcome {
  int error = 0;  // positive FI_E* (the shm provider reports them negative)
  uint64_t flags = 0, data = 0, tag = 0;
  size_t len = 0;
};

struct PendingAck {
  int peer;
  uint32_t slot;
};

class OfiTransport final : public Transport {
 public:
  ~OfiTransport() override {
    for (fid* f : {ep_ ? &ep_->fid : nullptr, av_ ? &av_->fid : nullptr,
                   cq_ ? &cq_->fid : nullptr, domain_ ? &domain_->fid : nullptr,
                   fabric_ ? &fabric_->fid : nullptr}) {
      if (f != nullptr) fi_close(f);
    }
    if (info_ != nullptr) ofi::library()->freeinfo(info_);
    for (int fd : {epoll_fd_, wake_fd_})
      if (fd >= 0) close(fd);
  }

  Status init(const OfiOptions& o) {
    name_ = "ofi(" + o.provider + ")";
    rank_ = o.rank;
    address_of_ = o.address_of;
    WEFT_TRY(ofi::provider_info(o.provider, &info_));
    inject_size_ = info_->tx_attr->inject_size;
    max_msg_size_ = info_->ep_attr->max_msg_size;
    if (o.provider.ends_with("ofi_rxm")) {
      const char* size = std::getenv("FI_OFI_RXM_BUFFER_SIZE");
      bounce_below_ = size != nullptr ? size_t(std::atol(size)) : 16384;
    }
    long rc = ofi::library()->fabric(info_->fabric_attr, &fabric_, nullptr);
    if (rc == 0) rc = fi_domain(fabric_, info_, &domain_, nullptr);
    if (rc != 0) return ofi_error("fi_fabric/fi_domain (" + o.provider + ")", rc);
    fi_cq_attr cq{};
    cq.format = FI_CQ_FORMAT_TAGGED;
    cq.wait_obj = FI_WAIT_FD;
    if ((rc = fi_cq_open(domain_, &cq, &cq_, nullptr)) != 0)
      return ofi_error("fi_cq_open with a wait fd (" + o.provider + ")", rc);
    fi_av_attr av{};
    av.type = FI_AV_TABLE;
    if ((rc = fi_av_open(domain_, &av, &av_, nullptr)) != 0) return ofi_error("fi_av_open", rc);
    if ((rc = fi_endpoint(domain_, info_, &ep_, nullptr)) != 0) return ofi_error("fi_endpoint", rc);
    rc = fi_ep_bind(ep_, &cq_->fid, FI_TRANSMIT | FI_RECV);
    if (rc == 0) rc = fi_ep_bind(ep_, &av_->fid, 0);
    if (rc == 0) rc = fi_enable(ep_);
    if (rc != 0) return ofi_error("fi_ep_bind/fi_enable", rc);
    address_.resize(256);
    size_t len = address_.size();
    if ((rc = fi_getname(&ep_->fid, address_.data(), &len)) != 0) return ofi_error("fi_getname", rc);
    address_.resize(len);
    int cq_fd = -1;
    if ((rc = fi_control(&cq_->fid, FI_GETWAIT, &cq_fd)) != 0)
      return ofi_error("fi_control(FI_GETWAIT)", rc);
    wake_fd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    epoll_fd_ = epoll_create1(EPOLL_CLOEXEC);
    for (int fd : {cq_fd, wake_fd_}) {
      epoll_event e{};
      e.events = EPOLLIN;
      e.data.fd = fd;
      epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &e);
    }
    addrs_.assign(size_t(o.world_size), FI_ADDR_NOTAVAIL);
    return post_ack_recv();
  }

  const char* name() const override { return name_.c_str(); }
  std::vector<uint8_t> address() const override { return address_; }

  bool connected(int peer) const override {
    return size_t(peer) < addrs_.size() && addrs_[size_t(peer)] != FI_ADDR_NOTAVAIL;
  }

  Status connect(int peer, const std::vector<uint8_t>& address) override {
    if (size_t(peer) >= addrs_.size()) addrs_.resize(size_t(peer) + 1, FI_ADDR_NOTAVAIL);
    fi_addr_t a = FI_ADDR_NOTAVAIL;
    const int n = fi_av_insert(av_, address.data(), 1, &a, 0, nullptr);
    if (n != 1) return ofi_error("fi_av_insert of rank " + std::to_string(peer), n < 0 ? n : -FI_EINVAL);
    addrs_[size_t(peer)] = a;
    return Status::success();
  }

  Status isend(int peer, const void* buf, size_t len, uint64_t bits, bool sync,
               Completion* c) override {
    if (len > max_msg_size_) return too_long("isend", len);
    tools::g_counters.ofi_messages_sent.add(1);
    tools::g_counters.ofi_bytes_sent.add(len);
    const fi_addr_t dest = addrs_[size_t(peer)];
    if (!sync && len <= inject_size_) {
      WEFT_TRY(post("fi_tinject", [&] { return fi_tinject(ep_, buf, len, dest, bits); }));
      c->done = true;
      return Status::success();
    }
    Op* op = take(sync ? Op::Kind::kSyncSend : Op::Kind::kSend, c);
    const uint64_t data = (uint64_t(uint32_t(rank_)) << 32) | op->slot;
    Status s = sync ? post("fi_tsenddata", [&] {
      return fi_tsenddata(ep_, buf, len, nullptr, data, dest, bits, &op->ctx);
    })
                    : post("fi_tsend", [&] {
                        return fi_tsend(ep_, buf, len, nullptr, dest, bits, &op->ctx);
                      });
    if (!s.ok()) give_back(op);
    else ++sends_in_flight_;
    return s;
  }

  Status irecv(int, void* buf, size_t len, uint64_t bits, uint64_t mask, Completion* c) override {
    Op* op = take(Op::Kind::kRecv, c);
    c->handle = op;
    iovec iov = receive_buffer(op, buf, len);
    Status s = post("fi_trecv", [&] {
      return fi_trecv(ep_, iov.iov_base, iov.iov_len, nullptr, FI_ADDR_UNSPEC, bits, ~mask,
                      &op->ctx);
    });
    if (!s.ok()) {
      c->handle = nullptr;
      give_back(op);
    }
    return s;
  }

  bool iprobe(int, uint64_t bits, uint64_t mask, ProbeResult* out) override {
    return probe(bits, mask, false, out);
  }
  bool take_message(int, uint64_t bits, uint64_t mask, ProbeResult* out) override {
    return probe(bits, mask, true, out);
  }

  Status recv_message(const ProbeResult& taken, void* buf, size_t len, Completion* c) override {
    Op* op = static_cast<Op*>(taken.message);  // keeps the context FI_CLAIM needs again
    op->reset(Op::Kind::kRecv, c);
    iovec iov = receive_buffer(op, buf, len);
    fi_msg_tagged m{&iov, nullptr, 1, FI_ADDR_UNSPEC, taken.sender_bits, 0, &op->ctx, 0};
    return post("fi_trecvmsg(FI_CLAIM)", [&] { return fi_trecvmsg(ep_, &m, FI_CLAIM); });
  }

  // The outcome arrives as a completion-queue entry, read at once so that the caller (the hybrid
  // transport's receive from any source) sees it as soon as possible.
  void cancel(Completion* c) override {
    if (c->handle == nullptr) return;
    (void)fi_cancel(&ep_->fid, &static_cast<Op*>(c->handle)->ctx);
    drain();
  }

  unsigned progress() override {
    unsigned n = drain();
    if (!pending_acks_.empty()) send_acks();
    if (ack_recv_missing_) (void)post_ack_recv();
    return n;
  }

  bool arm() override {
    if (!pending_acks_.empty() || ack_recv_missing_) return false;
    uint64_t woken = 0;
    if (read(wake_fd_, &woken, sizeof woken) == ssize_t(sizeof woken)) return false;
    fid* f = &cq_->fid;
    return fi_trywait(fabric_, &f, 1) == FI_SUCCESS;
  }

  int wait_fd() const override { return epoll_fd_; }

  void wake() override {
    const uint64_t one = 1;
    (void)!write(wake_fd_, &one, sizeof one);
  }

  Status flush() override {
    while (sends_in_flight_ > 0 || !pending_acks_.empty()) progress();
    return Status::success();
  }

 private:
  Op* take(Op::Kind kind, Completion* c) { return ops_.take(kind, c); }

  // Where a receive of `len` bytes at `buf` is posted: the buffer itself, or the Op's bounce
  // buffer when the provider cannot truncate an eager message safely.
  iovec receive_buffer(Op* op, void* buf, size_t len) {
    op->capacity = len;
    if (len >= bounce_below_) return {buf, len};
    op->bounce.resize(bounce_below_);
    op->user_buf = buf;
    return {op->bounce.data(), bounce_below_};
  }
  void give_back(Op* op) { ops_.give_back(op); }

  Status too_long(const char* what, size_t len) const {
    return Status::error(MPI_ERR_COUNT, std::string(what) + ": a message of " +
                                            std::to_string(len) + " bytes exceeds " + name_ +
                                            "'s largest (" + std::to_string(max_msg_size_) + ")");
  }

  // Starts an operation, reading the completion queue while the provider answers -FI_EAGAIN.
  template <typename Start>
  Status post(const char* what, Start start) {
    for (;;) {
      const ssize_t rc = start();
      if (rc == 0) return Status::success();
      if (rc != -FI_EAGAIN) return ofi_error(what, rc);
      drain();
    }
  }

  // The standing receive for acknowledgements of this process's synchronous sends.
  Status post_ack_recv() {
    Op* op = take(Op::Kind::kAck, nullptr);
    const ssize_t rc = fi_trecv(ep_, nullptr, 0, nullptr, FI_ADDR_UNSPEC, kAckBits, 0, &op->ctx);
    ack_recv_missing_ = rc == -FI_EAGAIN;
    if (rc == 0) return Status::success();
    give_back(op);
    return ack_recv_missing_ ? Status::success() : ofi_error("fi_trecv (acknowledgements)", rc);
  }

  bool probe(uint64_t bits, uint64_t mask, bool claim, ProbeResult* out) {
    drain();
    Op* op = take(Op::Kind::kProbe, nullptr);
    fi_msg_tagged m{nullptr, nullptr, 0, FI_ADDR_UNSPEC, bits, ~mask, &op->ctx, 0};
    const uint64_t flags = FI_PEEK | (claim ? FI_CLAIM : 0);
    if (!post("fi_trecvmsg(FI_PEEK)", [&] { return fi_trecvmsg(ep_, &m, flags); }).ok()) {
      give_back(op);
      return false;
    }
    while (!op->probed) drain();
    const bool found = op->found;
    if (found) {
      out->sender_bits = op->tag;
      out->bytes = op->len;
      out->message = claim ? op : nullptr;
    }
    if (!found || !claim) give_back(op);
    return found;
  }

  unsigned drain() {
    unsigned n = 0;
    fi_cq_tagged_entry e[16];
    for (;;) {
      const ssize_t got = fi_cq_read(cq_, e, 16);
      if (got > 0) {
        for (ssize_t i = 0; i < got; ++i)
          finish(static_cast<Op*>(e[i].op_context), {0, e[i].flags, e[i].data, e[i].tag, e[i].len});
        n += unsigned(got);
      } else if (got == -FI_EAVAIL) {
        fi_cq_err_entry err{};
        if (fi_cq_readerr(cq_, &err, 0) <= 0) break;
        finish(static_cast<Op*>(err.op_context),
               {std::abs(err.err), err.flags, err.data, err.tag, err.len});
        ++n;
      } else {
        break;
      }
    }
    return n;
  }

  void finish(Op* op, const Outcome& outcome) {
    switch (op->kind) {
      case Op::Kind::kProbe:
        op->probed = true;
        op->found = outcome.error == 0;
        op->tag = outcome.tag;
        op->len = outcome.len;
        return;
      case Op::Kind::kAck:
        give_back(op);
        if (Op* s = ops_.at(outcome.data);
            outcome.error == 0 && s != nullptr && s->kind == Op::Kind::kSyncSend) {
          s->acked = true;
          end_send(s, 0);
        }
        if (outcome.error != FI_ECANCELED) (void)post_ack_recv();
        return;
      case Op::Kind::kSend:
      case Op::Kind::kSyncSend:
        op->sent = true;
        --sends_in_flight_;
        end_send(op, outcome.error);
        return;
      case Op::Kind::kRecv:
        break;
    }
    Completion* c = op->c;
    const size_t capacity = op->capacity;
    Outcome o = outcome;
    if (op->user_buf != nullptr && (o.error == 0 || o.error == FI_ETRUNC)) {
      // Bounced: the message is at most the bounce buffer's size unless the provider truncated.
      const size_t arrived = o.error == FI_ETRUNC ? op->bounce.size() : o.len;
      std::memcpy(op->user_buf, op->bounce.data(), std::min(arrived, capacity));
      if (arrived > capacity) o.error = FI_ETRUNC;
    }
    give_back(op);
    c->handle = nullptr;
    c->cancelled = o.error == FI_ECANCELED;
    c->error_class = o.error == 0 || c->cancelled ? MPI_SUCCESS
                     : o.error == FI_ETRUNC       ? MPI_ERR_TRUNCATE
                                                  : MPI_ERR_OTHER;
    if (!c->cancelled) {
      c->sender_bits = o.tag;
      // A truncated receive filled its buffer (rxm reports len 0 in the error entry).
      c->bytes = o.error == FI_ETRUNC ? capacity : o.len;
      tools::g_counters.ofi_messages_received.add(1);
      tools::g_counters.ofi_bytes_received.add(c->bytes);
      if ((o.flags & FI_REMOTE_CQ_DATA) != 0) acknowledge(int(o.data >> 32), uint32_t(o.data));
    }
    c->done = true;
  }

  // A send is done once sent and, when synchronous, acknowledged (or when it failed).
  void end_send(Op* op, int error) {
    if (error == 0 && (!op->sent || (op->kind == Op::Kind::kSyncSend && !op->acked))) return;
    op->c->error_class = error == 0 ? MPI_SUCCESS : MPI_ERR_OTHER;
    op->c->done = true;
    give_back(op);
  }

  void acknowledge(int peer, uint32_t slot) {
    if (!connected(peer)) {
      std::vector<uint8_t> address;
      if (!address_of_ || !address_of_(peer, &address).ok() || !connect(peer, address).ok()) return;
    }
    pending_acks_.push_back({peer, slot});
    send_acks();
  }

  void send_acks() {
    size_t sent = 0;
    for (; sent < pending_acks_.size(); ++sent) {
      const PendingAck& a = pending_acks_[sent];
      if (fi_tinjectdata(ep_, nullptr, 0, a.slot, addrs_[size_t(a.peer)], kAckBits) == -FI_EAGAIN)
        break;
    }
    pending_acks_.erase(pending_acks_.begin(), pending_acks_.begin() + long(sent));
  }

  std::string name_;
  int rank_ = 0;
  std::function<Status(int, std::vector<uint8_t>*)> address_of_;
  fi_info* info_ = nullptr;
  fid_fabric* fabric_ = nullptr;
  fid_domain* domain_ = nullptr;
  fid_cq* cq_ = nullptr;
  fid_av* av_ = nullptr;
  fid_ep* ep_ = nullptr;
  size_t inject_size_ = 0, max_msg_size_ = 0;
  size_t bounce_below_ = 0;  // receives shorter than this go through a bounce buffer
  std::vector<uint8_t> address_;
  std::vector<fi_addr_t> addrs_;  // by world rank; FI_ADDR_NOTAVAIL until connected
  int wake_fd_ = -1, epoll_fd_ = -1;
  ofi::OpPool ops_;
  std::vector<PendingAck> pending_acks_;
  bool ack_recv_missing_ = false;
  long sends_in_flight_ = 0;
};

}  // namespace

Status make_ofi_transport(const OfiOptions& options, std::unique_ptr<Transport>* out) {
  auto t = std::make_unique<OfiTransport>();
  WEFT_TRY(t->init(options));
  *out = std::move(t);
  return Status::success();
}

}  // namespace weft
