// weftd's connection to weftrun and its event loop over the node's ranks.
#include "launcher/daemon.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>

#include "launcher/agent.hpp"
#include "launcher/dynamic_calls.hpp"
#include "launcher/exit_report.hpp"
#include "launcher/node_session.hpp"
#include "launcher/sha256.hpp"
#include "launcher/wakeup.hpp"
#include "launcher/wire.hpp"

namespace weft::launcher {
namespace {

constexpr int kStartTimeoutMs = 30000;  // for the secret, the connection and the job
constexpr double kKillGraceS = 0.5;
constexpr double kDrainS = 1.0;

// One line from stdin (the secret), without the newline.
bool read_secret(std::string* out, std::string* error) {
  pollfd p{STDIN_FILENO, POLLIN, 0};
  char c;
  while (out->size() < 256) {
    if (poll(&p, 1, kStartTimeoutMs) <= 0) {
      *error = "no job secret on stdin";
      return false;
    }
    const ssize_t n = read(STDIN_FILENO, &c, 1);
    if (n <= 0) break;
    if (c == '\n') return true;
    out->push_back(c);
  }
  *error = "no job secret on stdin";
  return false;
}

int connect_to(const std::string& address, std::string* error) {
  const size_t colon = address.rfind(':');
  const std::string host = address.substr(0, colon), port = address.substr(colon + 1);
  addrinfo hints{};
  hints.ai_family = AF_INET;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (colon == std::string::npos || getaddrinfo(host.c_str(), port.c_str(), &hints, &found) != 0) {
    *error = "cannot resolve weftrun's address " + address;
    return -1;
  }
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  const int rc = connect(fd, found->ai_addr, found->ai_addrlen);
  freeaddrinfo(found);
  if (rc != 0) {
    *error = "cannot connect to weftrun at " + address + ": " + std::strerror(errno);
    close(fd);
    return -1;
  }
  fcntl(fd, F_SETFL, O_NONBLOCK);
  return fd;
}

// The node's job once connected: ranks, PMIx server, relaying.
class NodeJob {
 public:
  NodeJob(Channel* channel, JobSpec spec, int node, std::string connect, std::string secret)
      : channel_(channel), spec_(std::move(spec)), node_(node), connect_(std::move(connect)),
        secret_(std::move(secret)) {}
  // `early`: messages that came with the job (stdin for rank 0, say), handled once started.
  int run(const std::vector<Message>& early);

 private:
  void start_children();
  void watch_children();
  void wait_children();
  std::string start();
  void loop();
  void on_messages(const std::vector<Message>& messages);
  void stop_ranks(int sig);
  void send(MsgType type, const std::string& body) { channel_->send(type, body); }

  Channel* channel_;
  JobSpec spec_;
  int node_;
  std::string connect_, secret_;
  // The daemons this one starts in the start-up tree, by node.
  std::vector<std::pair<int, std::unique_ptr<Agent>>> children_;
  int wake_[2] = {-1, -1};
  NodeSession session_;
  PmixServer& server_ = session_.server();
  LocalRanks& ranks_ = session_.ranks();
  std::map<uint32_t, void*> fences_;  // this node's fences awaiting every node's data
  uint32_t next_fence_ = 0;
  // Spawn and name calls of this node's ranks, forwarded to weftrun: PMIx's handle by call id.
  std::map<uint32_t, void*> calls_;
  uint32_t next_call_ = 0;
  double kill_at_ = 0;
  bool finished_ = false;  // weftrun said shutdown, or is gone
  bool done_sent_ = false;
};

void NodeJob::start_children() {
  for (int child : spec_.tree_children(node_)) {
    auto agent = std::make_unique<Agent>();
    const std::string host = spec_.nodes[size_t(child)];
    const std::string e = agent->start(spec_.launch_agent, host,
                                       "--connect " + connect_ + " --node " + std::to_string(child),
                                       secret_);
    if (!e.empty()) {
      send(MsgType::kNodeFailed, BodyWriter().i32(child).str("host " + host + ": " + e).bytes());
      continue;
    }
    children_.emplace_back(child, std::move(agent));
  }
}

// A child's agent that ends badly before its daemon connected is a start failure; weftrun,
// which knows whether the daemon connected, decides.
void NodeJob::watch_children() {
  for (auto& [child, agent] : children_) {
    agent->read_err();
    int status = 0;
    if (!agent->reap(&status) || (WIFEXITED(status) && WEXITSTATUS(status) == 0)) continue;
    const std::string said = agent->last_line();
    send(MsgType::kNodeFailed,
         BodyWriter()
             .i32(child)
             .str("host " + spec_.nodes[size_t(child)] + ": could not start weftd (" +
                  (said.empty() ? "the launch agent " + describe_status(status) : said) + ")")
             .bytes());
  }
}

// Before exiting: children's agents (an ssh each) end when their daemons do; a parent that left
// first would cut its children's sessions while they clean up.
void NodeJob::wait_children() {
  const double deadline = now_s() + 5.0;
  for (auto& [child, agent] : children_) {
    int status = 0;
    while (agent->running() && !agent->reap(&status)) {
      if (now_s() > deadline) {
        agent->kill_group();
        break;
      }
      usleep(10000);
    }
  }
}

std::string NodeJob::start() {
  start_children();
  if (std::string e = open_wakeup(wake_, {SIGCHLD, SIGINT, SIGTERM, SIGHUP}); !e.empty()) return e;
  ranks_.set_log(
      [this](const std::string& line) { send(MsgType::kLog, BodyWriter().str(line).bytes()); });
  std::string e = session_.start(spec_, node_, wake_[1], /*dynamic=*/true);
  for (int r : spec_.ranks_on(node_)) {
    if (ranks_.pid_of(r) > 0) send(MsgType::kStarted, BodyWriter().i32(r).i32(ranks_.pid_of(r)).bytes());
  }
  return e;
}

void NodeJob::stop_ranks(int sig) {
  ranks_.signal_all(sig);
  const bool ending = sig == SIGTERM || sig == SIGINT || sig == SIGHUP;
  if (ending && kill_at_ == 0) kill_at_ = now_s() + kKillGraceS;
}

void NodeJob::on_messages(const std::vector<Message>& messages) {
  for (const Message& m : messages) {
    BodyReader r(m.body);
    if (m.type == MsgType::kFenceDown) {
      const uint32_t fence = r.u32();
      const std::string all = r.str();
      auto it = fences_.find(fence);
      if (r.ok() && it != fences_.end()) {
        server_.complete_fence(it->second, all);
        fences_.erase(it);
      }
    } else if (m.type == MsgType::kKill) {
      stop_ranks(r.i32());
    } else if (m.type == MsgType::kShutdown) {
      finished_ = true;
    } else if (m.type == MsgType::kStdin) {
      if (m.body.empty()) ranks_.end_stdin();
      else ranks_.give_stdin(m.body.data(), m.body.size());
    } else if (m.type == MsgType::kSpawnAnswer) {
      uint32_t id = 0;
      std::string nspace;
      bool ok = false;
      if (decode_spawn_answer(m.body, &id, &nspace, &ok) && calls_.count(id))
        server_.complete_spawn(calls_[id], nspace, ok);
      calls_.erase(id);
    } else if (m.type == MsgType::kNameAnswer) {
      uint32_t id = 0;
      NameOutcome outcome = NameOutcome::kNotFound;
      Found found;
      if (decode_name_answer(m.body, &id, &outcome, &found) && calls_.count(id))
        server_.complete_names(calls_[id], outcome, found);
      calls_.erase(id);
    }
  }
}

void NodeJob::loop() {
  double drain_until = 0;
  const auto output = [this](int rank, int stream, const char* data, size_t len) {
    if (len > 0)
      send(MsgType::kOutput, BodyWriter().i32(rank).u32(uint32_t(stream)).str(std::string(data, len)).bytes());
  };
  while (!finished_) {
    const double now = now_s();
    if (kill_at_ > 0 && now >= kill_at_) {
      ranks_.signal_all(SIGKILL);
      kill_at_ = -1;
    }
    if (!done_sent_ && ranks_.running() == 0) {
      if (drain_until == 0) drain_until = now + kDrainS;
      if (!ranks_.output_open() || now >= drain_until) {
        ranks_.close_outputs(output);
        send(MsgType::kDone, "");
        done_sent_ = true;
      }
    }
    std::vector<pollfd> fds{{wake_[0], POLLIN, 0},
                            {channel_->fd(), short(POLLIN | (channel_->wants_write() ? POLLOUT : 0)), 0}};
    ranks_.watch(&fds);
    for (const auto& child : children_)
      if (child.second->err_fd() >= 0) fds.push_back({child.second->err_fd(), POLLIN, 0});
    if (poll(fds.data(), fds.size(), 100) < 0 && errno != EINTR) break;
    char bytes[64];
    ssize_t n;
    while ((n = read(wake_[0], bytes, sizeof bytes)) > 0) {
      for (ssize_t i = 0; i < n; ++i) {
        if (bytes[i] == SIGTERM || bytes[i] == SIGINT || bytes[i] == SIGHUP) {
          stop_ranks(SIGTERM);
          finished_ = true;
        }
      }
    }
    ranks_.handle(fds, output);
    watch_children();
    ranks_.reap([this](int rank, pid_t, int status) {
      send(MsgType::kExit, BodyWriter().i32(rank).i32(status).bytes());
    });
    for (const AbortEvent& a : server_.take_aborts())
      send(MsgType::kAbort, BodyWriter().i32(a.rank).i32(a.code).str(a.message).bytes());
    for (const PendingFence& f : server_.take_fences()) {
      fences_[next_fence_] = f.handle;
      send(MsgType::kFenceUp, BodyWriter().u32(next_fence_++).str(f.blob).bytes());
    }
    for (const SpawnRequest& c : server_.take_spawns()) {
      calls_[next_call_] = c.handle;
      send(MsgType::kSpawnCall, encode_spawn_call(next_call_++, c));
    }
    for (const NameRequest& c : server_.take_names()) {
      calls_[next_call_] = c.handle;
      send(MsgType::kNameCall, encode_name_call(next_call_++, c));
    }
    std::vector<Message> messages;
    const bool open = channel_->receive(&messages) && channel_->flush();
    on_messages(messages);
    if (!open) {  // weftrun is gone: nothing of the job may stay
      stop_ranks(SIGKILL);
      finished_ = true;
    }
  }
}

int NodeJob::run(const std::vector<Message>& early) {
  std::string error = start();
  if (error.empty()) on_messages(early);
  if (!error.empty()) {
    std::fprintf(stderr, "weftd: %s\n", error.c_str());
    send(MsgType::kError, BodyWriter().str(error).bytes());
    channel_->flush_blocking(2000);
    stop_ranks(SIGKILL);
  } else {
    loop();
  }
  session_.finish();
  channel_->flush_blocking(2000);
  wait_children();
  return error.empty() ? 0 : 1;
}

}  // namespace

bool parse_daemon_args(int argc, char** argv, DaemonOptions* out, std::string* error) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (i + 1 >= argc) {
      *error = "option " + arg + " needs a value";
      return false;
    }
    if (arg == "--connect") {
      out->connect = argv[++i];
    } else if (arg == "--node") {
      out->node = std::atoi(argv[++i]);
    } else {
      *error = "unknown option '" + arg + "'";
      return false;
    }
  }
  if (out->connect.empty() || out->node < 0) {
    *error = "usage: weftd --connect ADDR:PORT --node N";
    return false;
  }
  return true;
}

int run_daemon(const DaemonOptions& options) {
  std::string secret, error;
  if (!read_secret(&secret, &error)) {
    std::fprintf(stderr, "weftd: %s\n", error.c_str());
    return 1;
  }
  const int fd = connect_to(options.connect, &error);
  if (fd < 0) {
    std::fprintf(stderr, "weftd: %s\n", error.c_str());
    return 1;
  }
  Channel channel(fd);
  std::vector<Message> messages;
  if (!channel.receive_blocking(&messages, kStartTimeoutMs) ||
      messages[0].type != MsgType::kChallenge) {
    std::fprintf(stderr, "weftd: weftrun at %s sent no challenge\n", options.connect.c_str());
    return 1;
  }
  const std::string nonce = BodyReader(messages[0].body).str();
  channel.send(MsgType::kHello,
               BodyWriter().i32(options.node).str(to_hex(sha256(secret + nonce))).bytes());
  messages.clear();
  JobSpec spec;
  if (!channel.flush_blocking(kStartTimeoutMs) ||
      !channel.receive_blocking(&messages, kStartTimeoutMs) || messages[0].type != MsgType::kJob ||
      !decode_job_spec(messages[0].body, &spec) || size_t(options.node) >= spec.nodes.size()) {
    std::fprintf(stderr, "weftd: weftrun at %s did not accept this daemon or sent no job\n",
                 options.connect.c_str());
    return 1;
  }
  NodeJob job(&channel, std::move(spec), options.node, options.connect, secret);
  const int code = job.run(std::vector<Message>(messages.begin() + 1, messages.end()));
  close(fd);
  return code;
}

}  // namespace weft::launcher
