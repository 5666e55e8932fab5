// Starting weftd on the other nodes, authenticating their connections and relaying their reports.
#include "launcher/remote_nodes.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "launcher/agent.hpp"
#include "launcher/dynamic_calls.hpp"
#include "launcher/exit_report.hpp"
#include "launcher/sha256.hpp"
#include "launcher/wakeup.hpp"

namespace weft::launcher {
namespace {

constexpr double kConnectTimeoutS = 30;  // a weftd that has not connected back by then is lost
constexpr double kHelloTimeoutS = 10;    // a connection that has not proved the secret by then

std::string random_hex(size_t bytes) {
  std::string raw(bytes, '\0');
  size_t got = 0;
  while (got < bytes) {
    const ssize_t n = getrandom(raw.data() + got, bytes - got, 0);
    if (n > 0) got += size_t(n);
  }
  static const char kHex[] = "0123456789abcdef";
  std::string hex;
  for (unsigned char c : raw) {
    hex.push_back(kHex[c >> 4]);
    hex.push_back(kHex[c & 15]);
  }
  return hex;
}

// The first IPv4 address of an interface that is up and not loopback; 127.0.0.1 if none.
std::string find_address() {
  ifaddrs* list = nullptr;
  std::string found = "127.0.0.1";
  if (getifaddrs(&list) != 0) return found;
  for (ifaddrs* i = list; i != nullptr; i = i->ifa_next) {
    if (i->ifa_addr == nullptr || i->ifa_addr->sa_family != AF_INET) continue;
    if (!(i->ifa_flags & IFF_UP) || (i->ifa_flags & IFF_LOOPBACK)) continue;
    char text[INET_ADDRSTRLEN];
    inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in*>(i->ifa_addr)->sin_addr, text, sizeof text);
    found = text;
    break;
  }
  freeifaddrs(list);
  return found;
}

}  // namespace

struct RemoteNodes::Node {
  int index = -1;
  std::string name;
  std::unique_ptr<Agent> agent;  // for the daemons weftrun starts itself (its tree children)
  std::unique_ptr<Channel> channel;
  bool done = false;
  bool failed = false;
};

RemoteNodes::RemoteNodes() = default;

RemoteNodes::~RemoteNodes() {
  for (auto& node : nodes_)
    if (node->channel) close(node->channel->fd());
  for (Pending& p : pending_) close(p.channel->fd());
  if (listen_fd_ >= 0) close(listen_fd_);
}

std::string RemoteNodes::start(const JobSpec& spec, const std::string& address) {
  secret_ = random_hex(32);
  job_body_ = encode_job_spec(spec);
  rank0_node_ = spec.node_of_rank[0];
  std::string host = address.substr(0, address.find(':'));
  int port = 0;
  if (address.find(':') != std::string::npos) port = std::atoi(address.c_str() + address.find(':') + 1);
  if (host.empty()) host = find_address();

  listen_fd_ = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (listen_fd_ < 0) return std::string("socket: ") + std::strerror(errno);
  const int on = 1;
  setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(uint16_t(port));
  addr.sin_addr.s_addr = htonl(INADDR_ANY);
  if (bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      listen(listen_fd_, 1024) != 0)
    return "cannot listen on port " + std::to_string(port) + ": " + std::strerror(errno);
  socklen_t len = sizeof addr;
  getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
  address_ = host + ":" + std::to_string(ntohs(addr.sin_port));
  connect_deadline_ = now_s() + kConnectTimeoutS;

  // Every other node's daemon connects here; weftrun starts the first level of the start-up
  // tree, each daemon the next (see JobSpec::tree_children).
  for (int index = 0; index < int(spec.nodes.size()); ++index) {
    if (index == spec.launcher_node) continue;
    auto node = std::make_unique<Node>();
    node->index = index;
    node->name = spec.nodes[size_t(index)];
    nodes_.push_back(std::move(node));
  }
  for (int index : spec.tree_children(-1)) {
    Node& node = *nodes_[size_t(std::find_if(nodes_.begin(), nodes_.end(), [&](const auto& n) {
                                  return n->index == index;
                                }) - nodes_.begin())];
    node.agent = std::make_unique<Agent>();
    if (std::string e = node.agent->start(spec.launch_agent, node.name, daemon_args(index), secret_);
        !e.empty())
      return "host " + node.name + ": " + e;
  }
  return {};
}

std::string RemoteNodes::daemon_args(int node) const {
  return "--connect " + address_ + " --node " + std::to_string(node);
}

void RemoteNodes::watch(std::vector<pollfd>* fds) const {
  if (listen_fd_ >= 0) fds->push_back({listen_fd_, POLLIN, 0});
  for (const Pending& p : pending_) fds->push_back({p.channel->fd(), POLLIN, 0});
  for (const auto& node : nodes_) {
    if (node->agent && node->agent->err_fd() >= 0) fds->push_back({node->agent->err_fd(), POLLIN, 0});
    if (node->channel)
      fds->push_back({node->channel->fd(),
                      short(POLLIN | (node->channel->wants_write() ? POLLOUT : 0)), 0});
  }
}

void RemoteNodes::accept_connections() {
  for (;;) {
    sockaddr_in peer{};
    socklen_t len = sizeof peer;
    const int fd = accept4(listen_fd_, reinterpret_cast<sockaddr*>(&peer), &len,
                           SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) return;
    char text[INET_ADDRSTRLEN] = "?";
    inet_ntop(AF_INET, &peer.sin_addr, text, sizeof text);
    Pending p{std::make_unique<Channel>(fd), random_hex(16),
              std::string(text) + ":" + std::to_string(ntohs(peer.sin_port)),
              now_s() + kHelloTimeoutS};
    p.channel->send(MsgType::kChallenge, BodyWriter().str(p.nonce).bytes());
    p.channel->flush();
    pending_.push_back(std::move(p));
  }
}

void RemoteNodes::authenticate(size_t i, const std::vector<Message>& messages) {
  Pending& p = pending_[i];
  std::string why = "it sent something other than a hello";
  if (!messages.empty() && messages[0].type == MsgType::kHello) {
    BodyReader r(messages[0].body);
    const int index = r.i32();
    const std::string proof = r.str();
    Node* node = nullptr;
    for (auto& n : nodes_)
      if (n->index == index && !n->channel && !n->failed) node = n.get();
    if (!r.ok() || proof != to_hex(sha256(secret_ + p.nonce))) {
      why = "it did not prove the job's secret";
    } else if (node == nullptr) {
      why = "node " + std::to_string(index) + " is not waiting for a daemon";
    } else {
      node->channel = std::move(p.channel);
      node->channel->send(MsgType::kJob, job_body_);
      node->channel->flush();
      pending_.erase(pending_.begin() + long(i));
      return;
    }
  }
  std::fprintf(stderr, "weftrun: dropped a connection from %s: %s\n", p.peer.c_str(), why.c_str());
  close(p.channel->fd());
  pending_.erase(pending_.begin() + long(i));
}

void RemoteNodes::node_messages(Node& node, const std::vector<Message>& messages, Events* events) {
  for (const Message& m : messages) {
    BodyReader r(m.body);
    switch (m.type) {
      case MsgType::kStarted: {
        const int rank = r.i32();
        const int pid = r.i32();
        if (r.ok()) events->rank_started(rank, pid_t(pid));
        break;
      }
      case MsgType::kOutput: {
        const int rank = r.i32();
        const int stream = int(r.u32());
        const std::string bytes = r.str();
        if (r.ok()) events->rank_output(rank, stream, bytes);
        break;
      }
      case MsgType::kExit: {
        const int rank = r.i32();
        const int status = r.i32();
        if (r.ok()) events->rank_exited(rank, status);
        break;
      }
      case MsgType::kAbort: {
        const int rank = r.i32();
        const int code = r.i32();
        const std::string message = r.str();
        if (r.ok()) events->rank_aborted(rank, code, message);
        break;
      }
      case MsgType::kFenceUp: {
        const uint32_t fence = r.u32();
        const std::string blob = r.str();
        if (r.ok()) events->fence_arrived(node.index, fence, blob);
        break;
      }
      case MsgType::kDone:
        node.done = true;
        break;
      case MsgType::kError:
        fail(node, "host " + node.name + ": " + r.str(), events);
        break;
      case MsgType::kNodeFailed: {  // a daemon could not start one of its tree children
        const int child = r.i32();
        const std::string why = r.str();
        for (auto& n : nodes_)
          if (r.ok() && n->index == child && !n->channel) fail(*n, why, events);
        break;
      }
      case MsgType::kLog: {
        const std::string line = r.str();
        if (r.ok()) std::fprintf(stderr, "weftrun: %s\n", line.c_str());
        break;
      }
      case MsgType::kSpawnCall: {
        uint32_t id = 0;
        SpawnRequest request;
        if (decode_spawn_call(m.body, &id, &request)) events->spawn_called(node.index, id, request);
        break;
      }
      case MsgType::kNameCall: {
        uint32_t id = 0;
        NameRequest request;
        if (decode_name_call(m.body, &id, &request)) events->name_called(node.index, id, request);
        break;
      }
      default:
        break;
    }
  }
}

void RemoteNodes::fail(Node& node, const std::string& why, Events* events) {
  if (node.failed || node.done) return;
  node.failed = true;
  if (node.agent) node.agent->kill_group();
  events->node_failed(node.index, why);
}

void RemoteNodes::handle(Events* events) {
  if (listen_fd_ >= 0) accept_connections();
  const double now = now_s();
  for (size_t i = pending_.size(); i-- > 0;) {
    std::vector<Message> messages;
    const bool open = pending_[i].channel->receive(&messages);
    if (!messages.empty() || !open || now > pending_[i].deadline) authenticate(i, messages);
  }
  for (auto& n : nodes_) {
    Node& node = *n;
    if (node.agent) node.agent->read_err();
    if (node.channel) {
      std::vector<Message> messages;
      const bool open = node.channel->receive(&messages) && node.channel->flush();
      node_messages(node, messages, events);
      if (!open) {
        close(node.channel->fd());
        node.channel.reset();
        if (!node.done) {
          fail(node, "host " + node.name + ": lost the connection to its weftd (" +
                         (node.agent && !node.agent->last_line().empty()
                              ? node.agent->last_line()
                              : std::string("it exited or was killed")) + ")",
               events);
        }
      }
    }
    int status = 0;
    if (node.agent && node.agent->reap(&status) && !node.channel && !node.done) {
      const std::string said = node.agent->last_line();
      fail(node, "host " + node.name + ": could not start weftd (" +
                     (said.empty() ? "the launch agent " + describe_status(status) : said) + ")",
           events);
    }
    if (!node.channel && !node.done && !node.failed && now > connect_deadline_) {
      fail(node, "host " + node.name + ": weftd did not connect back to " + address_ + " within " +
                     std::to_string(int(kConnectTimeoutS)) + " s",
           events);
    }
  }
}

void RemoteNodes::send_fence(uint32_t fence, const std::string& all_blobs) {
  const std::string body = BodyWriter().u32(fence).str(all_blobs).bytes();
  for (auto& node : nodes_) {
    if (!node->channel) continue;
    node->channel->send(MsgType::kFenceDown, body);
    node->channel->flush();
  }
}

bool RemoteNodes::stdin_room() const {
  constexpr size_t kStdinQueued = 1 << 20;  // bytes waiting for the daemon before reading stops
  for (const auto& node : nodes_)
    if (node->index == rank0_node_) return node->channel && node->channel->queued() < kStdinQueued;
  return false;
}

void RemoteNodes::send_stdin(const std::string& bytes) {
  for (auto& node : nodes_) {
    if (node->index != rank0_node_ || !node->channel) continue;
    node->channel->send(MsgType::kStdin, bytes);
    node->channel->flush();
  }
}

void RemoteNodes::signal_ranks(int sig) {
  const std::string body = BodyWriter().i32(sig).bytes();
  for (auto& node : nodes_) {
    if (!node->channel) continue;
    node->channel->send(MsgType::kKill, body);
    node->channel->flush();
  }
}

void RemoteNodes::answer(int node, MsgType type, const std::string& body) {
  for (auto& n : nodes_)
    if (n->index == node && n->channel) n->channel->send(type, body);
}

std::vector<int> RemoteNodes::stop_accepting() {
  if (listen_fd_ >= 0) close(listen_fd_);
  listen_fd_ = -1;
  for (Pending& p : pending_) close(p.channel->fd());
  pending_.clear();
  std::vector<int> given_up;
  for (auto& node : nodes_) {
    if (node->channel || node->done || node->failed) continue;
    node->failed = true;  // nothing of it runs: no line about it
    if (node->agent) node->agent->kill_group();
    given_up.push_back(node->index);
  }
  return given_up;
}

bool RemoteNodes::all_done() const {
  for (const auto& node : nodes_)
    if (!node->done && !node->failed) return false;
  return true;
}

void RemoteNodes::shutdown(double timeout_s) {
  for (auto& node : nodes_) {
    if (!node->channel) continue;
    node->channel->send(MsgType::kShutdown, "");
    node->channel->flush_blocking(int(timeout_s * 1000));
  }
  const double deadline = now_s() + timeout_s;
  for (auto& node : nodes_) {
    int status = 0;
    while (node->agent && node->agent->running() && !node->agent->reap(&status)) {
      if (now_s() > deadline) {
        node->agent->kill_group();
        break;
      }
      usleep(10000);
    }
  }
}

}  // namespace weft::launcher
