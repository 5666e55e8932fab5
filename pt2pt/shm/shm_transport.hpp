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
#include <unordered_map>
#include <vector>

#include "gpu/ipc_cache.hpp"
#include "gpu/staging.hpp"
#include "pt2pt/shm/device_offer.hpp"
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
  // Messages larger than eager_limit may be in GPU memory: the receiver maps the sender's
  // allocation (CUDA IPC) and copies from it (pt2pt/shm/device_messages.cpp).
  bool device_ipc = false;
  // How host data bound for a device buffer goes there (gpu/staging.hpp).
  gpu::StagingShape staging;
};

// How GPU messages go between ranks of a node, in words (ShmTransport::device_memory_path,
// weft_info): with CUDA IPC (`ipc`), those larger than `eager_limit` (in words: "8192 bytes")
// are mapped by the receiver.
std::string device_path_text(bool ipc, const std::string& eager_limit);

class ShmTransport final : public Transport {
 public:
  // The segment's size per ring for `local_size` ranks, unless `ring_bytes` (non-zero) says.
  static size_t ring_bytes_for(int local_size, size_t ring_bytes);
  // After the start-up fence: maps the segment the node's first rank created. *out stays empty
  // (with success) where the node has no segment or the kernel refuses cross-memory attach
  // between its ranks: then the network transport carries the node's messages too.
  static Status attach(const ShmOptions& options, std::unique_ptr<ShmTransport>* out);
  ~ShmTransport() override;

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
  // Large messages in GPU memory (device_ipc): sent and received as they are.
  bool takes_device_memory(int peer, size_t bytes) const override {
    return device_ipc_ && reaches(peer) && bytes > eager_limit_;
  }
  std::string device_memory_path() const override;

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
  // GPU messages (pt2pt/shm/device_messages.cpp). A send of device memory: offered to map
  // (kDeviceRendezvous), or through a host copy where it cannot be shared.
  Status send_device(int to, const void* buf, size_t len, uint64_t bits, uint64_t cookie);
  // The receiver's copy of a kDeviceRendezvous into `buf`: false where the sender's memory
  // cannot be mapped here (then the sender is asked for a host copy), else *ok says how the
  // copy went.
  bool read_device(const Arrival& m, void* buf, size_t n, bool* ok);
  // Copies the host bytes [address, +n) of local rank `from` into `buf` (host or device).
  bool read_host(int from, uint64_t address, void* buf, size_t n, bool to_device);
  // The sender's answer to kDeviceRefused: a host copy of the send `cookie`, offered as
  // kStagedCopy.
  void offer_staged_copy(int to, uint64_t cookie);
  // The receiver's side of kStagedCopy: reads it into the receive that waited for it.
  void receive_staged_copy(int from, RecordHeader* h);
  // Whether a receive into `buf` of `capacity` bytes is one into GPU memory.
  bool device_receive(const void* buf, size_t capacity) const;
  struct DeviceSend;
  // Makes the host copy of a device send; false where the copy fails.
  static bool stage(DeviceSend& s);
  // Completes receive `c` of a message of `bytes` (matched by `bits`) into `capacity` bytes.
  static void complete_recv(Completion* c, uint64_t bits, uint64_t bytes, size_t capacity,
                            bool ok);

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

  // GPU messages. A send of device memory (by cookie) keeps what its record points at, and the
  // host copy made of it where the receiver cannot map it.
  struct DeviceSend {
    const void* buf = nullptr;
    size_t len = 0;
    DeviceOffer offer;
    std::unique_ptr<unsigned char[]> staged;
  };
  // A receive matched to a kDeviceRendezvous it could not map: it waits for the kStagedCopy.
  struct AwaitedCopy {
    int from;
    uint64_t cookie, bits, bytes;
    void* buf;
    size_t capacity;
    Completion* c;
  };
  bool device_ipc_ = false;
  gpu::StagingShape staging_;
  std::unordered_map<uint64_t, DeviceSend> device_sends_;
  std::vector<AwaitedCopy> awaited_copies_;
  std::vector<char> cannot_map_ours_;  // per local rank: it refused a device offer of ours
  gpu::IpcCache ipc_cache_;
};

}  // namespace weft::shm
