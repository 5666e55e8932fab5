// Transport between the ranks of one node through the node segment (pt2pt/shm/segment.hpp):
// messages up to the eager limit travel inside a ring record (one copy in, one out); larger ones
// are single-copy, the receiver reading the sender's buffer with process_vm_readv once matched
// (rendezvous), then acknowledging, or both copying parts of it (pt2pt/shm/split_copy.hpp).
// Matching is Weft's own (pt2pt/shm/matching.hpp).
// Threading: one thread at a time, like every Transport.
#pragma once
#include <deque>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "pt2pt/shm/doorbell.hpp"
#include "pt2pt/shm/matching.hpp"
#include "pt2pt/shm/segment.hpp"
#include "pt2pt/transport.hpp"

namespace weft::shm {

struct ShmOptions {
  std::string name;             // the segment's name (pt2pt/shm/segment_name.hpp)
  int rank = 0;                 // this process's world rank
  std::vector<int> local_peers;  // world ranks on this node, ascending, this one included
  size_t eager_limit = 0;       // largest message sent inside a record
  size_t split_copy_min = 0;    // smallest single-copy message sender and receiver copy
                                // together (pt2pt/shm/split_copy.hpp); 0: never
  size_t split_stream_min = 0;  // the same for a message that more from its sender follow
};

class ShmTransport final : public Transport {
 public:
  // The segment's size per ring for `local_size` ranks, unless `ring_bytes` (non-zero) says.
  static size_t ring_bytes_for(int local_size, size_t ring_bytes);
  // After the start-up fence: maps the segment the node's first rank created. *out stays empty
  // (with success) where the node has no segment or the kernel refuses cross-memory attach
  // between its ranks: then the network transport carries the node's messages too.
  static Status attach(const ShmOptions& options, std::unique_ptr<ShmTransport>* out);

  // Whether world rank `peer` is reached through this transport.
  bool reaches(int peer) const {
    return size_t(peer) < local_of_.size() && local_of_[size_t(peer)] >= 0;
  }
  size_t eager_limit() const { return eager_limit_; }
  // The node segment, and the index among the node's ranks of world rank `peer` (reaches it).
  Segment& segment() const { return *segment_; }
  int local_index(int peer) const { return local_of_[size_t(peer)]; }
  int local_index() const { return me_; }
  // After publishing something the local ranks `locals` may sleep waiting for (not in a
  // ring): rings the doorbell of each that sleeps, this rank's own excepted. The one fence
  // pairs with the sleepers' flag stores in arm(), so either a sleeper sees what was published
  // before it sleeps or its flag is seen here.
  void wake_after_publishing(std::span<const int> locals);
  // irecv whose delivery first asks `guard` (nullptr: none).
  Status irecv_guarded(void* buf, size_t len, uint64_t bits, uint64_t mask, Completion* c,
                       MatchGuard* guard);

  const char* name() const override { return "shm"; }
  std::vector<uint8_t> address() const override { return {}; }
  bool connected(int peer) const override { return reaches(peer); }
  Status connect(int peer, const std::vector<uint8_t>& address) override;
  bool send_now(int peer, const void* buf, size_t len, uint64_t bits) override;
  Status isend(int peer, const void* buf, size_t len, uint64_t bits, bool sync,
               Completion* c) override;
  Status irecv(int peer, void* buf, size_t len, uint64_t bits, uint64_t mask,
               Completion* c) override {
    (void)peer;
    return irecv_guarded(buf, len, bits, mask, c, nullptr);
  }
  bool iprobe(int peer, uint64_t bits, uint64_t mask, ProbeResult* out) override;
  bool take_message(int peer, uint64_t bits, uint64_t mask, ProbeResult* out) override;
  Status recv_message(const ProbeResult& taken, void* buf, size_t len, Completion* c) override;
  // Cancels a posted receive, or a send that waits for its receiver (synchronous or single
  // copy) if that receiver has not matched it yet; an eager standard send is complete already.
  void cancel(Completion* c) override;
  unsigned progress() override;
  bool arm() override;
  int wait_fd() const override { return doorbell_.fd(); }
  void wake() override;
  Status flush() override;

 private:
  // A record that found its ring full, sent in order once there is room.
  struct Pending {
    RecordKind kind;
    uint16_t flags;
    uint64_t bits, bytes, cookie;
    const void* payload;   // eager: the message; rendezvous: nullptr (address in `address`)
    uint64_t address;
    Completion* complete_when_written;  // a standard eager send, done once in the ring
  };

  ShmTransport() = default;
  bool write(int to, const Pending& p);
  Status send_record(int to, const Pending& p);
  void ring_if_sleeping(int to);
  void on_record(int from, RecordHeader* h);
  Unexpected* find_unexpected(uint64_t bits, uint64_t mask);
  bool find_message(uint64_t bits, uint64_t mask, bool take, ProbeResult* out);
  // Hands a message to a receive: copies it (eager) or reads it from the sender
  // (rendezvous), acknowledges it where the sender waits, and completes `c`.
  // `receive_waited`: the receive was posted before the message came (so the message is the
  // record on_record holds of its sender's ring).
  void deliver(const Arrival& m, void* buf, size_t capacity, Completion* c, bool receive_waited);
  unsigned send_pending();
  // The receiver's side of a sender's kCancel: drops the unexpected message `cookie` of `from`.
  bool withdraw(int from, uint64_t cookie);
  // A send that waited for local rank `to` is over: received, or withdrawn (`cancelled`).
  void finish_send(int to, Completion* c, bool cancelled);

  // A send that waits for its receiver keeps the receiver's local index in its handle, tagged
  // so that cancel() tells it from a receive's PostedRecv.
  static void* waiting_send_handle(int to) {
    return reinterpret_cast<void*>((uintptr_t(to) << 1) | 1);
  }
  static bool is_send_handle(const void* h) { return (reinterpret_cast<uintptr_t>(h) & 1) != 0; }
  static int send_handle_peer(const void* h) { return int(reinterpret_cast<uintptr_t>(h) >> 1); }

  std::unique_ptr<Segment> segment_;
  Doorbell doorbell_;
  int me_ = 0;                   // local index
  std::vector<int> local_of_;    // world rank -> local index, -1 off this node
  std::vector<RingWriter> out_;  // to each local rank
  std::vector<RingReader> in_;   // from each local rank
  std::vector<std::deque<Pending>> pending_;
  // Sends to each local rank that wait for it (synchronous or single-copy). A single-copy
  // message from a rank that also waits for us is an exchange: both cores already copy, so it
  // is not split (sharing the two copies made a 1 MiB exchange 15% slower).
  std::vector<uint32_t> waiting_sends_;
  size_t pending_count_ = 0;
  size_t eager_limit_ = 0;
  size_t split_copy_min_ = 0;
  // In a stream, the receiver copying alone keeps both buffers in its cache and waits for
  // nobody: faster below about the cache's size (windowed bandwidth at 64-512 KiB: 23-30 GB/s
  // alone, 17-28 split; at 1-4 MiB 11-19 alone, 17-29 split).
  size_t split_stream_min_ = 0;
  bool armed_ = false;
  bool backstop_set_ = false;  // since the last activity (pt2pt/shm/doorbell.hpp)
  Queue<PostedRecv> posted_;
  Queue<Unexpected> unexpected_;
};

}  // namespace weft::shm
