// The libfabric transport's class, shared by its parts: setup and progress
// (pt2pt/ofi_transport.cpp), tagged messages (pt2pt/ofi_messages.cpp) and RMA and atomics
// (pt2pt/ofi_rma.cpp). Only those files include it; others use pt2pt/ofi_transport.hpp.
#pragma once
#include <rdma/fabric.h>
#include <rdma/fi_errno.h>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "pt2pt/ofi_ops.hpp"
#include "pt2pt/ofi_transport.hpp"

namespace weft::ofi {

// An MPI_ERR_OTHER naming the call that failed and libfabric's reason.
Status ofi_error(const std::string& what, long rc);

// What one completion-queue entry, or error entry, says about its operation.
struct Outcome {
  int error = 0;  // positive FI_E* (the shm provider reports them negative)
  uint64_t flags = 0, data = 0, tag = 0;
  size_t len = 0;
};

// In remote CQ data: the announcement of a segmented message (with its length), or a
// clear-to-send (pt2pt/ofi_segments.cpp); a synchronous send (with its sender and slot), or its
// acknowledgement (with the slot only).
inline constexpr uint64_t kSegmentedFlag = uint64_t{1} << 63;
inline constexpr uint64_t kSyncFlag = uint64_t{1} << 62;
// A segmented message's announcement: this header, then the sender's endpoint address.
inline constexpr size_t kAnnounceHeaderBytes = 16;
inline constexpr size_t kSmallestPiece = 64;  // WEFT_OFI_MAX_MSG's floor
// The whole length of the message a completion or probe reports, when it announces a segmented
// one (0 bytes is a length too); else none. A probe's (`peek`) has the remote data without the
// FI_REMOTE_CQ_DATA flag in ofi_rxm 1.17.
std::optional<size_t> segmented_length(const Outcome& o, bool peek = false);

// A zero-byte message on the acknowledgement bits still to send: a synchronous send's
// acknowledgement or a clear-to-send, by its remote data.
struct PendingAck {
  fi_addr_t dest;
  uint64_t data;
};

// The match bits and mask of a probe that found nothing.
struct ProbePattern {
  uint64_t bits, mask;
  bool operator==(const ProbePattern&) const = default;
};

class OfiTransport final : public Transport {
 public:
  ~OfiTransport() override;
  Status init(const OfiOptions& o);

  const char* name() const override { return name_.c_str(); }
  std::vector<uint8_t> address() const override { return address_; }
  bool connected(int peer) const override {
    return size_t(peer) < addrs_.size() && addrs_[size_t(peer)] != FI_ADDR_NOTAVAIL;
  }
  Status connect(int peer, const std::vector<uint8_t>& address) override;

  // Tagged messages (ofi_messages.cpp).
  Status isend(int peer, const void* buf, size_t len, uint64_t bits, bool sync,
               Completion* c) override;
  Status irecv(int, void* buf, size_t len, uint64_t bits, uint64_t mask, Completion* c) override;
  bool iprobe(int, uint64_t bits, uint64_t mask, ProbeResult* out) override {
    return probe(bits, mask, false, out);
  }
  bool take_message(int, uint64_t bits, uint64_t mask, ProbeResult* out) override {
    return probe(bits, mask, true, out);
  }
  Status recv_message(const ProbeResult& taken, void* buf, size_t len, Completion* c) override;
  void cancel(Completion* c) override;

  // Progress and waiting (ofi_transport.cpp).
  unsigned progress() override;
  bool arm() override;
  int wait_fd() const override { return epoll_fd_; }
  void wake() override;
  Status flush() override;
  bool takes_device_memory(int peer, size_t bytes) const override;
  std::string device_memory_path() const override;

  // RMA and atomics (ofi_rma.cpp), where the provider has FI_RMA (FI_ATOMIC).
  bool rma_capable() const override { return rma_; }
  Status register_memory(void* base, size_t bytes, MemoryRegistration** out,
                         std::vector<uint8_t>* key) override;
  void deregister_memory(MemoryRegistration* m) override;
  Status unpack_key(int peer, const std::vector<uint8_t>& key, RemoteKey** out) override;
  void release_key(RemoteKey* k) override;
  Status put(int peer, const void* buf, size_t len, uint64_t address, RemoteKey* key,
             Completion* c) override;
  Status get(int peer, void* buf, size_t len, uint64_t address, RemoteKey* key,
             Completion* c) override;
  Status flush_peer(int peer, Completion* c) override;
  bool atomic_supported(AtomicType type, AtomicOp op, bool fetching) const override;
  Status atomic(int peer, const AtomicAccess& access, Completion* c) override;

 private:
  Op* take(Op::Kind kind, Completion* c) { return ops_.take(kind, c); }
  void give_back(Op* op) {
    if (op->device_mr != nullptr) fi_close(&op->device_mr->fid);
    op->device_mr = nullptr;
    ops_.give_back(op);
  }
  // The descriptor of `buf` for a send or receive (`access`): null for host memory, that of a
  // registration kept in `op` for a device buffer where the provider has FI_HMEM.
  Status descriptor(Op* op, const void* buf, size_t len, uint64_t access, void** desc);

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

  unsigned drain();
  // Reads completions until `answered` is set, and no further; returns how many it handled.
  unsigned read_until(const bool& answered);
  // One read of up to a batch of completions, handled; -FI_EAGAIN when there were none.
  ssize_t read_batch();
  void finish(Op* op, const Outcome& outcome);

  // Messages (ofi_messages.cpp).
  iovec receive_buffer(Op* op, void* buf, size_t len);
  Status post_ack_recv();
  bool probe(uint64_t bits, uint64_t mask, bool claim, ProbeResult* out);
  ssize_t peek(uint64_t bits, uint64_t mask, uint64_t flags, Op* op);
  bool missed_by_probes();
  void finish_probe(Op* op, const Outcome& outcome);
  void finish_ack(Op* op, const Outcome& outcome);
  void finish_recv(Op* op, const Outcome& outcome);
  void end_send(Op* op, int error);
  // The address vector's entry for world rank `peer`, connected on demand; FI_ADDR_NOTAVAIL
  // where it cannot be.
  fi_addr_t rank_address(int peer);
  // The address vector's entry for an endpoint address, inserted once.
  Status address_handle(const std::vector<uint8_t>& address, fi_addr_t* out);
  void acknowledge(fi_addr_t dest, uint64_t data);
  void send_acks();

  // Segmented messages (ofi_segments.cpp).
  Status send_segmented(int peer, const void* buf, size_t len, uint64_t bits, Completion* c);
  void clear_to_send(uint64_t data);
  void send_pieces();
  void end_segmented(Op* op);
  void begin_stream(Op* op, const Outcome& o);
  void post_stream_receives();
  void finish_piece(Op* piece, const Outcome& o);
  void end_stream(Op* op);

  // RMA (ofi_rma.cpp).
  void learn_rma(const fi_info& info);
  Op* take_rma(int peer, Completion* c);
  void finish_rma(Op* op, const Outcome& outcome);
  Status abandon(Op* op, const Status& why);
  template <typename StartPiece>
  Status in_pieces(size_t total, size_t most, Completion* c, StartPiece start);
  Status transfer(bool write, int peer, void* buf, size_t len, uint64_t address, RemoteKey* key,
                  Completion* c);

  std::string name_;
  int rank_ = 0;
  int job_size_ = 1;  // peers from here on are processes of other jobs (spawn, connect)
  std::function<Status(int, std::vector<uint8_t>*)> address_of_;
  fi_info* info_ = nullptr;
  fid_fabric* fabric_ = nullptr;
  fid_domain* domain_ = nullptr;
  fid_cq* cq_ = nullptr;
  fid_av* av_ = nullptr;
  fid_ep* ep_ = nullptr;
  size_t inject_size_ = 0;
  size_t piece_size_ = 0;  // the largest message carried whole: larger ones are segmented
  size_t bounce_below_ = 0;  // receives shorter than this go through a bounce buffer
  std::vector<uint8_t> address_;
  std::vector<fi_addr_t> addrs_;  // by world rank; FI_ADDR_NOTAVAIL until connected
  std::map<std::vector<uint8_t>, fi_addr_t> handles_;  // every endpoint address inserted
  int wake_fd_ = -1, epoll_fd_ = -1;
  int recheck_fd_ = -1;  // a timerfd: wakes a sleeper whose probes wait (arm())
  static constexpr long kFirstRecheckNs = 100 * 1000, kLastRecheckNs = 20 * 1000 * 1000;
  long recheck_ns_ = kFirstRecheckNs;
  OpPool ops_;
  std::vector<PendingAck> pending_acks_;
  bool ack_recv_missing_ = false;
  long sends_in_flight_ = 0;
  std::vector<Op*> ready_sends_;  // segmented sends cleared, their pieces still to send
  std::vector<Op*> starting_streams_;  // segmented receives with pieces to post and grant
  // Probes that found nothing since the last arm(), which looks for their messages again.
  std::vector<ProbePattern> missed_probes_;
  static constexpr size_t kMostMissedProbes = 64;

  bool hmem_ = false;          // FI_HMEM granted: device buffers registered and passed
  bool rma_ = false;           // FI_RMA granted
  bool virtual_addresses_ = false;  // FI_MR_VIRT_ADDR: a peer's address, else an offset
  uint64_t next_key_ = 1;      // requested keys, where the provider does not pick them
  // Elements one atomic may carry, by [type][op][fetching]; 0 where unsupported.
  size_t atomic_count_[kAtomicTypes][kAtomicOps][2] = {};
  std::vector<long> rma_in_flight_;  // by world rank
};

}  // namespace weft::ofi
