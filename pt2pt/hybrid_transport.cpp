// Routing between the node and network transports (pt2pt/hybrid_transport.hpp), and the
// receives from any source that both may match.
#include "pt2pt/hybrid_transport.hpp"

#include <sys/epoll.h>
#include <unistd.h>

#include <algorithm>

namespace weft {
namespace {

enum Route : uint8_t { kNet = 0, kNode = 1, kBoth = 2 };

// The network is polled on every pass once it may carry anything; before that (a job on one
// node that has met no other namespace) one pass in kIdleNetPolls, so that a peer's connection
// set-up still gets answered.
constexpr unsigned kIdleNetPolls = 16;

class HybridTransport;

// A receive from any source posted to both transports, each into its own completion; the
// user's completes from the one that got a message.
struct AnyRecv final : shm::MatchGuard {
  Transport* net = nullptr;
  Completion* user = nullptr;
  void* buf = nullptr;
  size_t len = 0;
  uint64_t bits = 0, mask = 0;
  Completion node_c, net_c;
  bool net_posted = false;
  bool cancelling = false;

  // The node transport may deliver only once the network's half is cancelled.
  bool claim() override {
    if (!net_posted) return true;
    if (!net_c.done) net->cancel(&net_c);
    return net_c.done && net_c.cancelled;
  }
};

class HybridTransport final : public Transport {
 public:
  HybridTransport(std::unique_ptr<Transport> net, std::unique_ptr<shm::ShmTransport> node,
                  bool spans_nodes)
      : net_(std::move(net)), node_(std::move(node)), net_busy_(spans_nodes) {
    name_ = std::string(node_->name()) + "+" + net_->name();
    epoll_fd_ = epoll_create1(EPOLL_CLOEXEC);
    for (int fd : {net_->wait_fd(), node_->wait_fd()}) {
      epoll_event e{};
      e.events = EPOLLIN;
      e.data.fd = fd;
      epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &e);
    }
  }
  ~HybridTransport() override {
    for (AnyRecv* a : any_) delete a;
    for (AnyRecv* a : spare_) delete a;
    if (epoll_fd_ >= 0) close(epoll_fd_);
  }

  const char* name() const override { return name_.c_str(); }
  std::vector<uint8_t> address() const override { return net_->address(); }
  bool connected(int peer) const override {
    return node_->reaches(peer) || net_->connected(peer);
  }
  Status connect(int peer, const std::vector<uint8_t>& address) override {
    net_busy_ = true;
    return net_->connect(peer, address);
  }

  bool send_now(int peer, const void* buf, size_t len, uint64_t bits) override {
    return node_->reaches(peer) && node_->send_now(peer, buf, len, bits);
  }
  Status isend(int peer, const void* buf, size_t len, uint64_t bits, bool sync,
               Completion* c) override {
    Transport& t = pick(peer, c);
    return t.isend(peer, buf, len, bits, sync, c);
  }

  Status irecv(int peer, void* buf, size_t len, uint64_t bits, uint64_t mask,
               Completion* c) override {
    if (peer != kAnyPeer) return pick(peer, c).irecv(peer, buf, len, bits, mask, c);
    if (net_busy_) return irecv_any(buf, len, bits, mask, c);
    c->route = kNode;  // no other node nor namespace can send to this rank
    return node_->irecv(peer, buf, len, bits, mask, c);
  }

  bool iprobe(int peer, uint64_t bits, uint64_t mask, ProbeResult* out) override {
    return find(peer, bits, mask, false, out);
  }
  bool take_message(int peer, uint64_t bits, uint64_t mask, ProbeResult* out) override {
    return find(peer, bits, mask, true, out);
  }
  Status recv_message(const ProbeResult& taken, void* buf, size_t len, Completion* c) override {
    c->route = taken.route;
    return part(taken.route).recv_message(taken, buf, len, c);
  }

  void cancel(Completion* c) override {
    if (c->route != kBoth) return part(c->route).cancel(c);
    auto* a = static_cast<AnyRecv*>(c->handle);
    if (a == nullptr || c->done) return;
    a->cancelling = true;
    node_->cancel(&a->node_c);
    if (!a->net_c.done) net_->cancel(&a->net_c);
    settle_any();
  }

  unsigned progress() override {
    unsigned n = node_->progress();
    if (net_busy_ || ++idle_passes_ % kIdleNetPolls == 0) n += net_->progress();
    if (!any_.empty()) settle_any();
    return n;
  }

  bool arm() override { return node_->arm() && net_->arm(); }
  int wait_fd() const override { return epoll_fd_; }
  void wake() override { net_->wake(); }
  Status flush() override {
    WEFT_TRY(node_->flush());
    return net_->flush();
  }
  void expect_other_namespaces() override { net_busy_ = true; }
  std::string device_memory_path() const override {
    return node_->device_memory_path() + "; " + net_->device_memory_path();
  }
  bool takes_device_memory(int peer, size_t bytes) const override {
    return node_->reaches(peer) ? node_->takes_device_memory(peer, bytes)
                                : net_->takes_device_memory(peer, bytes);
  }

  bool rma_capable() const override { return net_->rma_capable(); }
  bool rma_connected(int peer) const override { return net_->connected(peer); }
  Status register_memory(void* base, size_t bytes, MemoryRegistration** out,
                         std::vector<uint8_t>* key) override {
    net_busy_ = true;  // peers' RMA may need this process to progress the network (rxm)
    return net_->register_memory(base, bytes, out, key);
  }
  void deregister_memory(MemoryRegistration* m) override { net_->deregister_memory(m); }
  Status unpack_key(int peer, const std::vector<uint8_t>& key, RemoteKey** out) override {
    return net_->unpack_key(peer, key, out);
  }
  void release_key(RemoteKey* k) override { net_->release_key(k); }
  Status put(int peer, const void* buf, size_t len, uint64_t address, RemoteKey* key,
             Completion* c) override {
    net_busy_ = true;
    return net_->put(peer, buf, len, address, key, c);
  }
  Status get(int peer, void* buf, size_t len, uint64_t address, RemoteKey* key,
             Completion* c) override {
    net_busy_ = true;
    return net_->get(peer, buf, len, address, key, c);
  }
  Status flush_peer(int peer, Completion* c) override { return net_->flush_peer(peer, c); }
  bool atomic_supported(AtomicType type, AtomicOp op, bool fetching) const override {
    return net_->atomic_supported(type, op, fetching);
  }
  Status atomic(int peer, const AtomicAccess& access, Completion* c) override {
    net_busy_ = true;
    return net_->atomic(peer, access, c);
  }

 private:
  Transport& part(uint8_t route) {
    return route == kNode ? static_cast<Transport&>(*node_) : *net_;
  }
  // The transport of world rank `peer`, recorded in `c`.
  Transport& pick(int peer, Completion* c) {
    if (node_->reaches(peer)) {
      c->route = kNode;
      return *node_;
    }
    c->route = kNet;
    net_busy_ = true;
    return *net_;
  }

  bool find(int peer, uint64_t bits, uint64_t mask, bool take, ProbeResult* out) {
    auto look = [&](Transport& t, uint8_t route) {
      out->route = route;
      return take ? t.take_message(peer, bits, mask, out) : t.iprobe(peer, bits, mask, out);
    };
    if (peer != kAnyPeer) return node_->reaches(peer) ? look(*node_, kNode) : look(*net_, kNet);
    return look(*node_, kNode) || (net_busy_ && look(*net_, kNet));
  }

  Status irecv_any(void* buf, size_t len, uint64_t bits, uint64_t mask, Completion* c) {
    AnyRecv* a = spare_.empty() ? new AnyRecv() : spare_.back();
    if (!spare_.empty()) spare_.pop_back();
    *a = AnyRecv{};
    a->net = net_.get();
    a->user = c;
    a->buf = buf;
    a->len = len;
    a->bits = bits;
    a->mask = mask;
    c->route = kBoth;
    c->handle = a;
    any_.push_back(a);
    WEFT_TRY(node_->irecv_guarded(buf, len, bits, mask, &a->node_c, a));
    if (!a->node_c.done) {
      WEFT_TRY(net_->irecv(kAnyPeer, buf, len, bits, mask, &a->net_c));
      a->net_posted = true;
    }
    settle_any();
    return Status::success();
  }

  // Completes the receives from any source whose outcome is known.
  void settle_any() {
    std::erase_if(any_, [this](AnyRecv* a) {
      if (!settle(a)) return false;
      spare_.push_back(a);
      return true;
    });
  }

  bool settle(AnyRecv* a) {
    const Completion* got = nullptr;
    if (a->node_c.done && !a->node_c.cancelled) {
      got = &a->node_c;
    } else if (a->net_c.done && !a->net_c.cancelled) {
      node_->cancel(&a->node_c);  // still posted there unless the node side saw it was taken
      got = &a->net_c;
    } else if (a->net_posted && a->net_c.done && a->node_c.handle == nullptr && !a->node_c.done &&
               !a->cancelling) {
      // The network half was cancelled late, after the node side had to let its message go:
      // post the node half again, alone.
      a->net_posted = false;
      (void)node_->irecv_guarded(a->buf, a->len, a->bits, a->mask, &a->node_c, a);
      return false;
    } else if (a->cancelling && (a->node_c.done || a->node_c.handle == nullptr) &&
               (!a->net_posted || a->net_c.done)) {
      a->user->cancelled = true;
      a->user->handle = nullptr;
      a->user->done = true;
      return true;
    } else {
      return false;
    }
    Completion* u = a->user;
    u->sender_bits = got->sender_bits;
    u->bytes = got->bytes;
    u->error_class = got->error_class;
    u->handle = nullptr;
    u->done = true;
    return true;
  }

  std::unique_ptr<Transport> net_;
  std::unique_ptr<shm::ShmTransport> node_;
  std::string name_;
  int epoll_fd_ = -1;
  bool net_busy_ = false;
  unsigned idle_passes_ = 0;
  std::vector<AnyRecv*> any_;
  std::vector<AnyRecv*> spare_;
};

}  // namespace

std::unique_ptr<Transport> make_hybrid_transport(std::unique_ptr<Transport> net,
                                                 std::unique_ptr<shm::ShmTransport> node,
                                                 bool spans_nodes) {
  return std::make_unique<HybridTransport>(std::move(net), std::move(node), spans_nodes);
}

}  // namespace weft
