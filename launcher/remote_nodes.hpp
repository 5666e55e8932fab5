// weftrun's side of the job's other nodes: one weftd per node, started through the launch agent
// (ssh by default) in parallel, connecting back over TCP and proving the job's secret (which it
// read from the agent's stdin, never from a command line, environment or file), then fed the
// JobSpec and relaying its ranks' starts, output, exits, aborts and fences. Everything runs on
// weftrun's main thread, in its poll loop.
#pragma once
#include <poll.h>
#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "launcher/job_spec.hpp"
#include "launcher/pmix_server.hpp"
#include "launcher/wire.hpp"

namespace weft::launcher {

class RemoteNodes {
 public:
  // What the daemons report, delivered from handle().
  class Events {
   public:
    virtual ~Events() = default;
    virtual void rank_started(int rank, pid_t pid) = 0;
    virtual void rank_output(int rank, int stream, const std::string& bytes) = 0;
    virtual void rank_exited(int rank, int wait_status) = 0;
    virtual void rank_aborted(int rank, int code, const std::string& message) = 0;
    virtual void fence_arrived(int node, uint32_t fence, const std::string& blob) = 0;
    // A node is lost (its weftd could not start, died or was never heard from): one line why.
    virtual void node_failed(int node, const std::string& why) = 0;
    // A rank of `node` called MPI_Comm_spawn or the name service (launcher/dynamic_calls.hpp);
    // answered with answer(node, ...) under the same id.
    virtual void spawn_called(int node, uint32_t id, const SpawnRequest& request) = 0;
    virtual void name_called(int node, uint32_t id, const NameRequest& request) = 0;
  };

  RemoteNodes();
  ~RemoteNodes();
  // Listens, then starts weftd through spec.launch_agent on the first level of the start-up
  // tree; every node but spec.launcher_node is expected to connect. `address` is ADDR[:PORT]
  // or "" to find one.
  std::string start(const JobSpec& spec, const std::string& address);
  void watch(std::vector<pollfd>* fds) const;
  void handle(Events* events);
  void send_fence(uint32_t fence, const std::string& all_blobs);
  // weftrun's stdin for rank 0 on another host: whether more may be queued now (its daemon is
  // connected and has less than a bound waiting), and a piece of it (empty: the end).
  bool stdin_room() const;
  void send_stdin(const std::string& bytes);
  void signal_ranks(int sig);
  // Sends an answer to a call of node `node`'s ranks (nothing if its daemon is gone).
  void answer(int node, MsgType type, const std::string& body);
  // The job is ending: daemons that have not connected yet will not be waited for (their ranks
  // never started), and no new connection is taken. Returns the nodes given up.
  std::vector<int> stop_accepting();
  // Every daemon has reported its ranks done, or has failed.
  bool all_done() const;
  // Tells every daemon to finish and waits up to `timeout_s` for them to exit.
  void shutdown(double timeout_s);
  bool empty() const { return nodes_.empty(); }

 private:
  struct Node;
  void accept_connections();
  void authenticate(size_t pending, const std::vector<Message>& messages);
  void node_messages(Node& node, const std::vector<Message>& messages, Events* events);
  void fail(Node& node, const std::string& why, Events* events);
  std::string daemon_args(int node) const;

  std::string secret_;
  std::string job_body_;
  int rank0_node_ = -1;
  int listen_fd_ = -1;
  std::string address_;  // as told to the daemons
  double connect_deadline_ = 0;
  std::vector<std::unique_ptr<Node>> nodes_;
  // Accepted connections that have not proved the secret yet.
  struct Pending {
    std::unique_ptr<Channel> channel;
    std::string nonce;
    std::string peer;
    double deadline;
  };
  std::vector<Pending> pending_;
};

}  // namespace weft::launcher
