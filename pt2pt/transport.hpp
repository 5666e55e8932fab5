// The abstract tagged-message transport under MPI point-to-point: addresses, lazy connections,
// send/recv/probe/matched probe on 64-bit match bits (pt2pt/match_bits.hpp), progress and a
// wait fd; optionally one-sided access (RMA) to memory peers registered. Threading: called from
// one thread at a time (MPI_THREAD_SERIALIZED at most). Implementations: pt2pt/ucx_transport
// (any peer), pt2pt/shm/shm_transport (this node's ranks) and pt2pt/hybrid_transport (both).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/status.hpp"

namespace weft {

// Where a transport reports the outcome of one operation. Lives inside the MPI request,
// so starting an operation allocates nothing of ours.
struct Completion {
  bool done = false;
  bool cancelled = false;
  int error_class = 0;      // MPI_ERR_* (e.g. MPI_ERR_TRUNCATE), 0 on success
  uint64_t sender_bits = 0;  // match bits of the message received
  size_t bytes = 0;          // bytes received
  void* handle = nullptr;    // the transport's own request while in flight
  uint8_t route = 0;         // which part of a composite transport has it (pt2pt/hybrid_transport)
};

struct ProbeResult {
  uint64_t sender_bits = 0;
  size_t bytes = 0;
  void* message = nullptr;  // take_message only: the transport's handle of the message taken
  uint8_t route = 0;        // take_message only: as Completion::route
};

// The `peer` of a receive or probe whose source is MPI_ANY_SOURCE.
inline constexpr int kAnyPeer = -1;

// Opaque handles of the RMA part: this process's registered memory, a peer's unpacked key.
struct MemoryRegistration;
struct RemoteKey;

// The element types and operations of the transport's atomics (Transport::atomic).
enum class AtomicType : uint8_t { kInt8, kUint8, kInt16, kUint16, kInt32, kUint32, kInt64,
                                  kUint64, kFloat, kDouble };
inline constexpr int kAtomicTypes = 10;
enum class AtomicOp : uint8_t { kMin, kMax, kSum, kProd, kLor, kLand, kBor, kBand, kLxor, kBxor,
                                kRead, kWrite, kCompareSwap };
inline constexpr int kAtomicOps = 13;

// One atomic access of `count` elements at `address` in a peer's registered memory: each
// element combined with `operand` by `op` (kRead: none; kCompareSwap: replaced by `operand`
// where equal to `compare`, one element); `result`, when not null, receives the old elements.
struct AtomicAccess {
  AtomicOp op = AtomicOp::kSum;
  AtomicType type = AtomicType::kInt32;
  size_t count = 0;
  const void* operand = nullptr;
  const void* compare = nullptr;
  void* result = nullptr;
  uint64_t address = 0;
  RemoteKey* key = nullptr;
};

class Transport {
 public:
  virtual ~Transport() = default;
  virtual const char* name() const = 0;
  // This process's address, to publish through the Kvs.
  virtual std::vector<uint8_t> address() const = 0;
  virtual bool connected(int peer) const = 0;
  virtual Status connect(int peer, const std::vector<uint8_t>& address) = 0;
  // Starts a send to world rank `peer`; `sync` completes only once matched by a receive.
  virtual Status isend(int peer, const void* buf, size_t len, uint64_t bits, bool sync,
                       Completion* c) = 0;
  // A standard send that is over as soon as it is written, or false (nothing sent) where it
  // would have to wait or be queued: the short path of blocking sends (pt2pt/short_paths.hpp).
  virtual bool send_now(int /*peer*/, const void* /*buf*/, size_t /*len*/, uint64_t /*bits*/) {
    return false;
  }
  // Receives, probes and matched probes name the world rank of the sender the bits ask for in
  // `peer` (kAnyPeer for any), so that a transport made of several can tell which has it.
  virtual Status irecv(int peer, void* buf, size_t len, uint64_t bits, uint64_t mask,
                       Completion* c) = 0;
  // Looks for a matching unreceived message without receiving it.
  virtual bool iprobe(int peer, uint64_t bits, uint64_t mask, ProbeResult* out) = 0;
  // Matched probe: finds a matching unreceived message and takes it out of matching, so that no
  // receive can match it; out->message then must be passed to recv_message, exactly once.
  virtual bool take_message(int peer, uint64_t bits, uint64_t mask, ProbeResult* out) = 0;
  // Receives a message `taken` by take_message into `len` bytes at `buf`; the outcome arrives in
  // `c` as for irecv (truncation included). Such a receive cannot be cancelled.
  virtual Status recv_message(const ProbeResult& taken, void* buf, size_t len, Completion* c) = 0;
  // Cancels a pending receive; it then completes with `cancelled` set (or matched meanwhile).
  virtual void cancel(Completion* c) = 0;
  // Advances communication; returns the number of events processed.
  virtual unsigned progress() = 0;
  // Prepares to block: true if nothing is pending and waiting on wait_fd() is safe.
  virtual bool arm() = 0;
  virtual int wait_fd() const = 0;
  // Makes a wait on wait_fd() return; callable from any thread (MPI_Grequest_complete).
  virtual void wake() = 0;
  // Completes every started send at its destination (used before teardown).
  virtual Status flush() = 0;
  // Whether a contiguous device (GPU) buffer of `bytes` to or from `peer` may be passed as it
  // is; otherwise pt2pt stages it through host memory.
  virtual bool takes_device_memory(int /*peer*/, size_t /*bytes*/) const { return false; }
  // How device buffers travel through it, in words (MPIX_Query_cuda_path, weft_info).
  virtual std::string device_memory_path() const {
    return std::string(name()) + ": through host memory";
  }
  // Processes of another namespace (MPI_Comm_connect, MPI_Comm_spawn) may now send to this one.
  virtual void expect_other_namespaces() {}

  // RMA, where the transport has it (rma_capable()). register_memory makes [base, base+bytes)
  // accessible to peers and packs the key they need into `key`; unpack_key turns a connected
  // peer's packed key into a handle. put/get start a transfer of `len` bytes between `buf` and
  // `address` in the peer's memory and report its local completion (buffer reusable; for get,
  // data arrived) in `c`; flush_peer completes every earlier put/get to `peer` at the peer.
  virtual bool rma_capable() const { return false; }
  // Whether RMA to `peer` can start (else connect(peer, ...) first).
  virtual bool rma_connected(int peer) const { return connected(peer); }
  virtual Status register_memory(void* base, size_t bytes, MemoryRegistration** out,
                                 std::vector<uint8_t>* key);
  virtual void deregister_memory(MemoryRegistration*) {}
  virtual Status unpack_key(int peer, const std::vector<uint8_t>& key, RemoteKey** out);
  virtual void release_key(RemoteKey*) {}
  virtual Status put(int peer, const void* buf, size_t len, uint64_t address, RemoteKey* key,
                     Completion* c);
  virtual Status get(int peer, void* buf, size_t len, uint64_t address, RemoteKey* key,
                     Completion* c);
  virtual Status flush_peer(int peer, Completion* c);
  // Atomics, where the transport has them: whether it does `op` on `type` (with `result`:
  // fetching), and starting one; `c` completes once it is done at the peer (result arrived).
  virtual bool atomic_supported(AtomicType, AtomicOp, bool /*fetching*/) const { return false; }
  virtual Status atomic(int peer, const AtomicAccess& access, Completion* c);
};

}  // namespace weft
