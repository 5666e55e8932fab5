// The counters behind MPI_T performance variables, kept where the events happen (pt2pt starts,
// coll/select's choice, the blocking part of waits) and read by runtime/tools/pvars.cpp.
// Writers hold the call lock or are the only thread in the library, so an increment is a relaxed
// load and store (no locked instruction on the fast path); readers on any thread see whole values.
#pragma once
#include <atomic>
#include <cstdint>

namespace weft::tools {

struct Counter {
  std::atomic<uint64_t> value{0};
  void add(uint64_t n) {
    value.store(value.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
  }
  uint64_t get() const { return value.load(std::memory_order_relaxed); }
};

// A quantity that goes up and down (a queue's length) and the most it has been.
struct Level {
  Counter current;
  Counter max;
  void raise() {
    const uint64_t now = current.get() + 1;
    current.value.store(now, std::memory_order_relaxed);
    if (now > max.get()) max.value.store(now, std::memory_order_relaxed);
  }
  void lower() { current.value.store(current.get() - 1, std::memory_order_relaxed); }
};

// Room for the algorithms of one collective (coll/registry.cpp lists fewer).
inline constexpr int kMaxAlgorithms = 16;
inline constexpr int kMaxCollKinds = 32;

struct Counters {
  Counter messages_sent;         // MPI_Send/Isend/... started to a real rank (not MPI_PROC_NULL)
  Counter bytes_sent;            // their payload
  Counter messages_received;     // receives started (MPI_Recv/Irecv/Mrecv...)
  Counter bytes_received;        // bytes of the receive buffers posted (at most what arrives)
  Counter blocked_ns;            // nanoseconds waits spent blocked (after spinning)
  Counter shm_eager_sent;        // sends through the node's shared-memory rings
  Counter shm_single_copy_sent;  // sends the receiver copied from the sender's memory
  Counter shm_device_mapped_sent;  // GPU sends the receiver copied from a mapping (CUDA IPC)
  Counter shm_device_staged_sent;  // GPU sends the receiver read through a host copy
  Counter ucx_device_packed_sent;  // GPU sends fed to UCX through a staging pipeline
  Counter gpu_staged_chunks;       // chunks copied by staging pipelines (gpu/staging.hpp)
  Counter rma_device_windows_mapped;  // other members' device windows mapped here (CUDA IPC)
  // Per transport, every message (collectives' and one-sided's too): started sends, and
  // receives as they complete with what arrived.
  Counter shm_bytes_sent;
  Counter shm_messages_received, shm_bytes_received;
  Counter ucx_messages_sent, ucx_bytes_sent;
  Counter ucx_messages_received, ucx_bytes_received;
  Counter ofi_messages_sent, ofi_bytes_sent;
  Counter ofi_messages_received, ofi_bytes_received;
  // RMA through libfabric (pt2pt/ofi_rma.cpp): fi_writemsg, fi_readmsg and atomics started.
  Counter ofi_rma_writes, ofi_rma_reads, ofi_atomics;
  // Messages sent as pieces, being longer than libfabric carries whole (pt2pt/ofi_segments.cpp).
  Counter ofi_segmented_messages;
  // Messages from ranks of this node that arrived before their receive (Weft's own matching;
  // UCX matches the others itself and does not tell).
  Level unexpected;
  // Collective calls by algorithm: [CollKind][index in coll::algorithms_for(kind)].
  Counter coll_calls[kMaxCollKinds][kMaxAlgorithms];
  // Bytes of posts by reference in node regions (coll/node_region.hpp): read from the posters'
  // memory by this rank, and written by this rank, as a poster, into its readers' buffers.
  Counter coll_reference_bytes_read, coll_reference_bytes_written;
  // Blocking collectives that ran on their short path (coll/region_short.hpp).
  Counter coll_short_calls;
  // Blocking collectives that ran through NCCL (coll/nccl_path.hpp).
  Counter coll_nccl_calls;
  // Blocking sends written straight into the transport (pt2pt/short_paths.hpp).
  Counter p2p_short_sends;
  // Blocking receives that waited on a completion of their own (pt2pt/short_paths.hpp).
  Counter p2p_short_recvs;
};

inline Counters g_counters;

}  // namespace weft::tools
