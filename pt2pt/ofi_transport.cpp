// libfabric implementation of Transport: setup, progress and waiting; its messages are in
// pt2pt/ofi_messages.cpp, its RMA in pt2pt/ofi_rma.cpp. Facts relied on (docs/platform-facts.md
// §5): every post may return -FI_EAGAIN until the completion queue is read (rxm while it
// connects); a CQ opened with FI_WAIT_FD may be polled once fi_trywait succeeded.
#include "pt2pt/ofi_transport.hpp"

#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>

#include "mpi.h"
#include "pt2pt/ofi_library.hpp"
#include "pt2pt/ofi_provider.hpp"
#include "pt2pt/ofi_transport_impl.hpp"
#include "runtime/config.hpp"

namespace weft {
namespace ofi {

Status ofi_error(const std::string& what, long rc) {
  return Status::error(MPI_ERR_OTHER,
                       what + " failed: " + ofi::library()->strerror(int(std::labs(rc))));
}

OfiTransport::~OfiTransport() {
  for (fid* f : {ep_ ? &ep_->fid : nullptr, av_ ? &av_->fid : nullptr, cq_ ? &cq_->fid : nullptr,
                 domain_ ? &domain_->fid : nullptr, fabric_ ? &fabric_->fid : nullptr}) {
    if (f != nullptr) fi_close(f);
  }
  if (info_ != nullptr) ofi::library()->freeinfo(info_);
  for (int fd : {epoll_fd_, wake_fd_, recheck_fd_})
    if (fd >= 0) close(fd);
}

Status OfiTransport::init(const OfiOptions& o) {
  name_ = "ofi(" + o.provider + ")";
  rank_ = o.rank;
  job_size_ = o.world_size;
  address_of_ = o.address_of;
  WEFT_TRY(ofi::provider_info(o.provider, &info_));
  inject_size_ = info_->tx_attr->inject_size;
  piece_size_ = info_->ep_attr->max_msg_size;
  if (const long most = setting_long("WEFT_OFI_MAX_MSG", 0); most > 0)
    piece_size_ = std::min(piece_size_, std::max(size_t(most), kSmallestPiece));
  if (o.provider.ends_with("ofi_rxm")) {
    const char* size = std::getenv("FI_OFI_RXM_BUFFER_SIZE");
    bounce_below_ = size != nullptr ? size_t(std::atol(size)) : 16384;
  }
  long rc = ofi::library()->fabric(info_->fabric_attr, &fabric_, nullptr);
  if (rc == 0) rc = fi_domain(fabric_, info_, &domain_, nullptr);
  if (rc != 0) return ofi_error("fi_fabric/fi_domain (" + o.provider + ")", rc);
  learn_rma(*info_);
  hmem_ = (info_->caps & FI_HMEM) != 0;
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
  // A receive shorter than a segmented message's announcement takes it whole in a bounce buffer.
  bounce_below_ = std::max(bounce_below_, kAnnounceHeaderBytes + address_.size());
  int cq_fd = -1;
  if ((rc = fi_control(&cq_->fid, FI_GETWAIT, &cq_fd)) != 0)
    return ofi_error("fi_control(FI_GETWAIT)", rc);
  wake_fd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  recheck_fd_ = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
  epoll_fd_ = epoll_create1(EPOLL_CLOEXEC);
  for (int fd : {cq_fd, wake_fd_, recheck_fd_}) {
    epoll_event e{};
    e.events = EPOLLIN;
    e.data.fd = fd;
    epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &e);
  }
  addrs_.assign(size_t(o.world_size), FI_ADDR_NOTAVAIL);
  rma_in_flight_.assign(size_t(o.world_size), 0);
  return post_ack_recv();
}

Status OfiTransport::connect(int peer, const std::vector<uint8_t>& address) {
  if (size_t(peer) >= addrs_.size()) {
    addrs_.resize(size_t(peer) + 1, FI_ADDR_NOTAVAIL);
    rma_in_flight_.resize(size_t(peer) + 1, 0);
  }
  return address_handle(address, &addrs_[size_t(peer)]);
}

// Inserted once per address, whichever rank or announcement names it: a process of another job
// (spawn, connect) is known by a rank of this process's numbering and announces itself by its
// address.
Status OfiTransport::address_handle(const std::vector<uint8_t>& address, fi_addr_t* out) {
  if (const auto known = handles_.find(address); known != handles_.end()) {
    *out = known->second;
    return Status::success();
  }
  fi_addr_t a = FI_ADDR_NOTAVAIL;
  const int n = fi_av_insert(av_, address.data(), 1, &a, 0, nullptr);
  if (n != 1) return ofi_error("fi_av_insert", n < 0 ? n : -FI_EINVAL);
  handles_.emplace(address, a);
  *out = a;
  return Status::success();
}

unsigned OfiTransport::progress() {
  unsigned n = drain();
  if (!starting_streams_.empty()) post_stream_receives();
  if (!ready_sends_.empty()) send_pieces();
  if (!pending_acks_.empty()) send_acks();
  if (ack_recv_missing_) (void)post_ack_recv();
  return n;
}

// Besides the completion queue, a sleeper must not miss a message a probe looks for: ofi_rxm
// gives none a completion (missed_by_probes), and tcp 1.17 can hold one it has read from the
// socket, so that fi_trywait succeeds and nothing wakes the sleeper (docs/platform-facts.md
// §5.11). While probes wait, a timer therefore wakes the sleeper to look again: first after
// kFirstRecheckNs, twice as long after each recheck that found nothing, at most kLastRecheckNs.
bool OfiTransport::arm() {
  if (!pending_acks_.empty() || ack_recv_missing_ || !starting_streams_.empty() ||
      !ready_sends_.empty())
    return false;
  uint64_t count = 0;
  if (read(wake_fd_, &count, sizeof count) == ssize_t(sizeof count)) return false;
  const bool rechecked = read(recheck_fd_, &count, sizeof count) == ssize_t(sizeof count);
  const bool probing = !missed_probes_.empty();
  if (missed_by_probes()) {
    recheck_ns_ = kFirstRecheckNs;
    return false;
  }
  fid* f = &cq_->fid;
  if (fi_trywait(fabric_, &f, 1) != FI_SUCCESS) return false;
  recheck_ns_ = rechecked ? std::min(2 * recheck_ns_, kLastRecheckNs) : kFirstRecheckNs;
  itimerspec t{};
  if (probing) t.it_value = {recheck_ns_ / 1000000000L, recheck_ns_ % 1000000000L};
  timerfd_settime(recheck_fd_, 0, &t, nullptr);
  return true;
}

void OfiTransport::wake() {
  const uint64_t one = 1;
  (void)!write(wake_fd_, &one, sizeof one);
}

Status OfiTransport::flush() {
  while (sends_in_flight_ > 0 || !pending_acks_.empty()) progress();
  return Status::success();
}

unsigned OfiTransport::drain() {
  unsigned n = 0;
  for (ssize_t got; (got = read_batch()) > 0;) n += unsigned(got);
  return n;
}

unsigned OfiTransport::read_until(const bool& answered) {
  unsigned n = 0;
  while (!answered) {
    const ssize_t got = read_batch();
    if (got > 0) n += unsigned(got);
  }
  return n;
}

ssize_t OfiTransport::read_batch() {
  fi_cq_tagged_entry e[16];
  const ssize_t got = fi_cq_read(cq_, e, 16);
  if (got > 0) {
    for (ssize_t i = 0; i < got; ++i)
      finish(static_cast<Op*>(e[i].op_context), {0, e[i].flags, e[i].data, e[i].tag, e[i].len});
    return got;
  }
  if (got != -FI_EAVAIL) return -FI_EAGAIN;
  fi_cq_err_entry err{};
  if (fi_cq_readerr(cq_, &err, 0) <= 0) return -FI_EAGAIN;
  finish(static_cast<Op*>(err.op_context),
         {std::abs(err.err), err.flags, err.data, err.tag, err.len});
  return 1;
}

void OfiTransport::finish(Op* op, const Outcome& outcome) {
  switch (op->kind) {
    case Op::Kind::kProbe:
      return finish_probe(op, outcome);
    case Op::Kind::kAck:
      return finish_ack(op, outcome);
    case Op::Kind::kSend:
    case Op::Kind::kSyncSend:
      op->sent = true;
      --sends_in_flight_;
      return end_send(op, outcome.error);
    case Op::Kind::kRecv:
      return finish_recv(op, outcome);
    case Op::Kind::kRma:
      return finish_rma(op, outcome);
    case Op::Kind::kSegmented:  // its announcement went out
      op->sent = true;
      if (outcome.error != 0) op->error = outcome.error;
      return end_segmented(op);
    case Op::Kind::kPiece:
      return finish_piece(op, outcome);
  }
}

}  // namespace ofi

Status make_ofi_transport(const OfiOptions& options, std::unique_ptr<Transport>* out) {
  auto t = std::make_unique<ofi::OfiTransport>();
  WEFT_TRY(t->init(options));
  *out = std::move(t);
  return Status::success();
}

}  // namespace weft
