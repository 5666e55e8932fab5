// The libfabric transport's RMA and atomics (pt2pt/ofi_transport_impl.hpp), where the provider
// grants FI_RMA (FI_ATOMIC): window memory registered with fi_mr_reg, its key and base address
// sent to the peers; puts and gets by fi_writemsg/fi_readmsg, atomics by fi_atomicmsg,
// fi_fetch_atomicmsg and fi_compare_atomicmsg for the types and operations fi_query_atomic
// admits. Writes and atomics ask for FI_DELIVERY_COMPLETE, so a completed operation is done in
// the target's memory and flush_peer only waits for those still in flight.
// Facts relied on (docs/platform-facts.md §5): without FI_MR_VIRT_ADDR in the domain's mr_mode
// (tcp;ofi_rxm grants none) a remote address is an offset into the region and the key is the
// one requested, unique in the domain.
#include <rdma/fi_atomic.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_rma.h>

#include <algorithm>
#include <cstring>

#include "mpi.h"
#include "pt2pt/ofi_transport_impl.hpp"
#include "runtime/tools/counters.hpp"

namespace weft {

// A peer's window: its key and where its registration starts.
struct RemoteKey {
  uint64_t key = 0;
  uint64_t base = 0;
};

namespace ofi {
namespace {

constexpr fi_datatype kFiTypes[kAtomicTypes] = {FI_INT8,  FI_UINT8,  FI_INT16, FI_UINT16, FI_INT32,
                                                FI_UINT32, FI_INT64, FI_UINT64, FI_FLOAT, FI_DOUBLE};
constexpr size_t kTypeBytes[kAtomicTypes] = {1, 1, 2, 2, 4, 4, 8, 8, 4, 8};
constexpr fi_op kFiOps[kAtomicOps] = {FI_MIN,  FI_MAX,  FI_SUM,  FI_PROD,        FI_LOR,
                                      FI_LAND, FI_BOR,  FI_BAND, FI_LXOR,        FI_BXOR,
                                      FI_ATOMIC_READ, FI_ATOMIC_WRITE, FI_CSWAP};

MemoryRegistration* as_registration(fid_mr* mr) { return reinterpret_cast<MemoryRegistration*>(mr); }

Status unsupported(const AtomicAccess& a) {
  return Status::error(MPI_ERR_UNSUPPORTED_OPERATION,
                       "atomic: the provider has no atomic operation " +
                           std::to_string(int(a.op)) + " on type " + std::to_string(int(a.type)));
}

}  // namespace

void OfiTransport::learn_rma(const fi_info& info) {
  rma_ = (info.caps & FI_RMA) != 0 && info.domain_attr->mr_key_size <= sizeof(uint64_t);
  virtual_addresses_ = (info.domain_attr->mr_mode & FI_MR_VIRT_ADDR) != 0;
  if (!rma_ || (info.caps & FI_ATOMIC) == 0) return;
  for (int t = 0; t < kAtomicTypes; ++t) {
    for (int o = 0; o < kAtomicOps; ++o) {
      for (int fetching = 0; fetching < 2; ++fetching) {
        const bool compare = kFiOps[o] == FI_CSWAP;
        if (compare && fetching == 0) continue;  // a compare-and-swap always returns the old one
        fi_atomic_attr attr{};
        const uint64_t flags = compare ? FI_COMPARE_ATOMIC : fetching ? FI_FETCH_ATOMIC : 0;
        if (fi_query_atomic(domain_, kFiTypes[t], kFiOps[o], &attr, flags) == 0 && attr.count > 0)
          atomic_count_[t][o][fetching] = attr.count;
      }
    }
  }
}

Status OfiTransport::register_memory(void* base, size_t bytes, MemoryRegistration** out,
                                     std::vector<uint8_t>* key) {
  fid_mr* mr = nullptr;
  const int rc = fi_mr_reg(domain_, base, bytes, FI_REMOTE_READ | FI_REMOTE_WRITE, 0, next_key_++,
                           0, &mr, nullptr);
  if (rc != 0) return ofi_error("fi_mr_reg of " + std::to_string(bytes) + " bytes", rc);
  const RemoteKey packed{fi_mr_key(mr), uint64_t(reinterpret_cast<uintptr_t>(base))};
  const auto* at = reinterpret_cast<const uint8_t*>(&packed);
  key->assign(at, at + sizeof packed);
  *out = as_registration(mr);
  return Status::success();
}

void OfiTransport::deregister_memory(MemoryRegistration* m) {
  (void)fi_close(&reinterpret_cast<fid_mr*>(m)->fid);
}

Status OfiTransport::unpack_key(int peer, const std::vector<uint8_t>& key, RemoteKey** out) {
  if (key.size() != sizeof(RemoteKey))
    return Status::error(MPI_ERR_OTHER, "unpack_key: rank " + std::to_string(peer) + "'s key has " +
                                            std::to_string(key.size()) + " bytes, not " +
                                            std::to_string(sizeof(RemoteKey)));
  *out = new RemoteKey;
  std::memcpy(*out, key.data(), sizeof(RemoteKey));
  return Status::success();
}

void OfiTransport::release_key(RemoteKey* k) { delete k; }

Op* OfiTransport::take_rma(int peer, Completion* c) {
  Op* op = take(Op::Kind::kRma, c);
  op->peer = peer;
  ++rma_in_flight_[size_t(peer)];
  return op;
}

void OfiTransport::finish_rma(Op* op, const Outcome& outcome) {
  --rma_in_flight_[size_t(op->peer)];
  op->c->error_class = outcome.error == 0 ? MPI_SUCCESS : MPI_ERR_OTHER;
  op->c->done = true;
  give_back(op);
}

// Starts `total` units as pieces of at most `most`: start(done, n, completion) starts one; each
// piece but the last is waited for, and `c` completes with the last.
template <typename StartPiece>
Status OfiTransport::in_pieces(size_t total, size_t most, Completion* c, StartPiece start) {
  for (size_t done = 0;;) {
    const size_t n = std::min(total - done, most);
    Completion one;
    Completion* into = done + n == total ? c : &one;
    WEFT_TRY(start(done, n, into));
    done += n;
    if (into == c) return Status::success();
    while (!one.done) drain();
    if (one.error_class != 0)
      return Status::error(one.error_class, name_ + ": an RMA operation failed at its target");
  }
}

// One fi_writemsg or fi_readmsg per piece of at most the largest message (WEFT_OFI_MAX_MSG).
Status OfiTransport::transfer(bool write, int peer, void* buf, size_t len, uint64_t address,
                              RemoteKey* key, Completion* c) {
  const uint64_t remote = virtual_addresses_ ? address : address - key->base;
  return in_pieces(len, piece_size_, c, [&](size_t done, size_t n, Completion* into) {
    Op* op = take_rma(peer, into);
    iovec iov{static_cast<char*>(buf) + done, n};
    fi_rma_iov at{remote + done, n, key->key};
    fi_msg_rma m{&iov, nullptr, 1, addrs_[size_t(peer)], &at, 1, &op->ctx, 0};
    const Status s =
        write ? post("fi_writemsg", [&] { return fi_writemsg(ep_, &m, FI_DELIVERY_COMPLETE); })
              : post("fi_readmsg", [&] { return fi_readmsg(ep_, &m, 0); });
    if (!s.ok()) return abandon(op, s);
    (write ? tools::g_counters.ofi_rma_writes : tools::g_counters.ofi_rma_reads).add(1);
    return s;
  });
}

Status OfiTransport::put(int peer, const void* buf, size_t len, uint64_t address, RemoteKey* key,
                         Completion* c) {
  return transfer(true, peer, const_cast<void*>(buf), len, address, key, c);
}

Status OfiTransport::get(int peer, void* buf, size_t len, uint64_t address, RemoteKey* key,
                         Completion* c) {
  return transfer(false, peer, buf, len, address, key, c);
}

Status OfiTransport::flush_peer(int peer, Completion* c) {
  while (rma_in_flight_[size_t(peer)] > 0) drain();
  c->done = true;
  return Status::success();
}

bool OfiTransport::atomic_supported(AtomicType type, AtomicOp op, bool fetching) const {
  return atomic_count_[int(type)][int(op)][fetching || op == AtomicOp::kCompareSwap ? 1 : 0] > 0;
}

// One atomic per piece of at most the elements the provider's takes at once.
Status OfiTransport::atomic(int peer, const AtomicAccess& a, Completion* c) {
  const bool fetching = a.result != nullptr;
  const size_t most = atomic_count_[int(a.type)][int(a.op)][fetching ? 1 : 0];
  if (most == 0 || (a.op == AtomicOp::kCompareSwap && !fetching)) return unsupported(a);
  const size_t elem = kTypeBytes[int(a.type)];
  const uint64_t remote = virtual_addresses_ ? a.address : a.address - a.key->base;
  return in_pieces(a.count, most, c, [&](size_t done, size_t n, Completion* into) {
    Op* op = take_rma(peer, into);
    // FI_ATOMIC_READ reads no operand, yet the message must name one of the right count.
    const void* operand = a.op == AtomicOp::kRead ? a.result : a.operand;
    fi_ioc in{const_cast<char*>(static_cast<const char*>(operand)) + done * elem, n};
    fi_rma_ioc at{remote + done * elem, n, a.key->key};
    fi_msg_atomic m{&in, nullptr, 1, addrs_[size_t(peer)], &at, 1,
                    kFiTypes[int(a.type)], kFiOps[int(a.op)], &op->ctx, 0};
    fi_ioc old{static_cast<char*>(a.result) + done * elem, n};
    fi_ioc compare{const_cast<void*>(a.compare), n};
    const Status s =
        !fetching ? post("fi_atomicmsg",
                         [&] { return fi_atomicmsg(ep_, &m, FI_DELIVERY_COMPLETE); })
        : a.op == AtomicOp::kCompareSwap
            ? post("fi_compare_atomicmsg",
                   [&] {
                     return fi_compare_atomicmsg(ep_, &m, &compare, nullptr, 1, &old, nullptr, 1,
                                                 0);
                   })
            : post("fi_fetch_atomicmsg",
                   [&] { return fi_fetch_atomicmsg(ep_, &m, &old, nullptr, 1, 0); });
    if (!s.ok()) return abandon(op, s);
    tools::g_counters.ofi_atomics.add(1);
    return s;
  });
}

// An operation libfabric refused: forgotten, with the refusal.
Status OfiTransport::abandon(Op* op, const Status& why) {
  --rma_in_flight_[size_t(op->peer)];
  give_back(op);
  return why;
}

}  // namespace ofi
}  // namespace weft
