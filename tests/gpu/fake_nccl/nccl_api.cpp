// The fake libnccl.so.2: NCCL's entry points that Weft calls (gpu/nccl_library.hpp), for the
// processes of one machine over the fake CUDA driver. A communicator is a shared-memory segment
// its ranks map (comm_segment.hpp). Each call runs as a "kernel" on the caller's stream
// (weft_fake_cuda_launch): in the stream's order, holding that stream until every rank got
// there, the data read and written through the driver's host views of device memory. Ranks
// fold contributions in rank order, so every rank gets the same bits. Sends and receives must
// be grouped by every rank of the communicator at once (ncclGroupStart/End), as in Weft's
// all-to-all; at most one send and one receive per peer in a group.
// WEFT_FAKE_NCCL_REFUSE=all (or a rank) makes ncclCommInitRank refuse there, as NCCL refuses
// ranks that share a GPU.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "comm_segment.hpp"
#include "elements.hpp"

#define FAKE_NCCL_API extern "C" __attribute__((visibility("default")))

// The fake driver's hooks (tests/gpu/fake_driver/driver_api.cpp).
extern "C" int weft_fake_cuda_launch(void* stream, int (*fn)(void*), void* data);
extern "C" void* weft_fake_cuda_host_view(unsigned long long address, size_t bytes);

using namespace fake_nccl;

namespace {

constexpr int kVersion = 22800;  // "2.28.0"

unsigned char* view(const void* p, size_t bytes) {
  return static_cast<unsigned char*>(weft_fake_cuda_host_view(
      static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(p)), bytes));
}

// What a collective's kernel does.
enum class Kind { kAllReduce, kBroadcast, kReduce, kAllGather, kReduceScatter };
struct Collective {
  Comm* comm;
  Kind kind;
  const void* send;
  void* recv;
  size_t count;  // elements: the vector, or one rank's block
  int type, op, root;
};

// Marks the communicator failed; the stream's work fails too.
int failed(Comm& c, int error) {
  c.error.store(error);
  return 1;
}

int run_elementwise(Collective& k, size_t elem, const unsigned char* in, unsigned char* out) {
  Comm& c = *k.comm;
  const size_t per = kSlot / elem;
  const bool contributes = k.kind != Kind::kBroadcast || c.rank == k.root;
  const bool receives = k.kind == Kind::kAllReduce || c.rank == k.root;
  for (size_t first = 0; first < k.count; first += per) {
    const size_t n = std::min(per, k.count - first), bytes = n * elem;
    if (contributes) std::memcpy(c.slot(c.rank), in + first * elem, bytes);
    if (!c.barrier()) return failed(c, kSystemError);
    if (k.kind == Kind::kBroadcast) {
      std::memmove(out + first * elem, c.slot(k.root), bytes);
    } else if (receives) {
      unsigned char* to = out + first * elem;
      std::memcpy(to, c.slot(0), bytes);
      for (int r = 1; r < c.nranks; ++r) fake_nccl::fold(k.op, k.type, to, c.slot(r), n);
    }
    if (!c.barrier()) return failed(c, kSystemError);
  }
  return 0;
}

int run_allgather(Collective& k, size_t block, const unsigned char* in, unsigned char* out) {
  Comm& c = *k.comm;
  for (size_t first = 0; first < block; first += kSlot) {
    const size_t bytes = std::min(kSlot, block - first);
    std::memcpy(c.slot(c.rank), in + first, bytes);
    if (!c.barrier()) return failed(c, kSystemError);
    for (int r = 0; r < c.nranks; ++r)
      std::memmove(out + size_t(r) * block + first, c.slot(r), bytes);
    if (!c.barrier()) return failed(c, kSystemError);
  }
  return 0;
}

int run_reduce_scatter(Collective& k, size_t elem, const unsigned char* in, unsigned char* out) {
  Comm& c = *k.comm;
  const size_t per = kSlot / (size_t(c.nranks) * elem);
  for (size_t first = 0; first < k.count; first += per) {
    const size_t n = std::min(per, k.count - first), bytes = n * elem;
    for (int b = 0; b < c.nranks; ++b)
      std::memcpy(c.slot(c.rank) + size_t(b) * bytes, in + (size_t(b) * k.count + first) * elem,
                  bytes);
    if (!c.barrier()) return failed(c, kSystemError);
    unsigned char* to = out + first * elem;
    std::memcpy(to, c.slot(0) + size_t(c.rank) * bytes, bytes);
    for (int r = 1; r < c.nranks; ++r)
      fake_nccl::fold(k.op, k.type, to, c.slot(r) + size_t(c.rank) * bytes, n);
    if (!c.barrier()) return failed(c, kSystemError);
  }
  return 0;
}

int run_collective(void* data) {
  std::unique_ptr<Collective> k(static_cast<Collective*>(data));
  Comm& c = *k->comm;
  const size_t elem = fake_nccl::element_size(k->type), n = size_t(c.nranks);
  size_t in_bytes = k->count * elem, out_bytes = k->count * elem;
  if (k->kind == Kind::kAllGather) out_bytes *= n;
  if (k->kind == Kind::kReduceScatter) in_bytes *= n;
  const bool reads = k->kind != Kind::kBroadcast || c.rank == k->root;
  const bool writes = (k->kind != Kind::kReduce || c.rank == k->root);
  const unsigned char* in = reads ? view(k->send, in_bytes) : nullptr;
  unsigned char* out = writes ? view(k->recv, out_bytes) : nullptr;
  if ((reads && in == nullptr) || (writes && out == nullptr)) return failed(c, kInvalidArgument);
  switch (k->kind) {
    case Kind::kAllGather:
      return run_allgather(*k, in_bytes, in, out);
    case Kind::kReduceScatter:
      return run_reduce_scatter(*k, elem, in, out);
    default:
      return run_elementwise(*k, elem, in, out);
  }
}

int launch_collective(Comm* comm, Kind kind, const void* send, void* recv, size_t count, int type,
                      int op, int root, void* stream) {
  if (comm == nullptr || fake_nccl::element_size(type) == 0 || op < 0 || op > 3 || root < 0 ||
      root >= comm->nranks)
    return kInvalidArgument;
  auto* k = new Collective{comm, kind, send, recv, count, type, op, root};
  if (count == 0) {
    delete k;
    return kSuccess;
  }
  if (weft_fake_cuda_launch(stream, run_collective, k) != 0) {
    delete k;
    return kInvalidUsage;
  }
  return kSuccess;
}

// Sends and receives of one group on one communicator and stream.
struct Transfer {
  bool send;
  int peer;
  void* buffer;
  size_t bytes;
};
struct Exchange {
  Comm* comm;
  std::vector<Transfer> transfers;
};

int run_exchange(void* data) {
  std::unique_ptr<Exchange> x(static_cast<Exchange*>(data));
  Comm& c = *x->comm;
  const size_t unit = c.pair_bytes();
  uint64_t rounds = 0;
  for (const Transfer& t : x->transfers) {
    if (view(t.buffer, t.bytes) == nullptr) return failed(c, kInvalidArgument);
    rounds = std::max<uint64_t>(rounds, (t.bytes + unit - 1) / unit);
  }
  c.header()->rounds[c.rank] = rounds;
  if (!c.barrier()) return failed(c, kSystemError);
  for (int r = 0; r < c.nranks; ++r) rounds = std::max(rounds, c.header()->rounds[r]);
  if (!c.barrier()) return failed(c, kSystemError);
  for (uint64_t round = 0; round < rounds; ++round) {
    const size_t first = size_t(round) * unit;
    for (const Transfer& t : x->transfers)
      if (t.send && first < t.bytes)
        std::memcpy(c.pair(c.rank, t.peer), view(t.buffer, t.bytes) + first,
                    std::min(unit, t.bytes - first));
    if (!c.barrier()) return failed(c, kSystemError);
    for (const Transfer& t : x->transfers)
      if (!t.send && first < t.bytes)
        std::memcpy(view(t.buffer, t.bytes) + first, c.pair(t.peer, c.rank),
                    std::min(unit, t.bytes - first));
    if (!c.barrier()) return failed(c, kSystemError);
  }
  return 0;
}

// The calling thread's open group (NCCL's groups are per thread): its transfers by
// communicator and stream, in the order called.
thread_local int group_depth = 0;
thread_local std::vector<std::pair<std::pair<Comm*, void*>, Transfer>> grouped;

int flush_group() {
  std::map<std::pair<Comm*, void*>, std::unique_ptr<Exchange>> exchanges;
  int result = kSuccess;
  for (auto& [key, t] : grouped) {
    auto& x = exchanges[key];
    if (!x) x.reset(new Exchange{key.first, {}});
    for (const Transfer& other : x->transfers)
      if (other.send == t.send && other.peer == t.peer) result = kInvalidUsage;
    x->transfers.push_back(t);
  }
  grouped.clear();
  if (result != kSuccess) return result;
  for (auto& [key, x] : exchanges) {
    Exchange* raw = x.release();
    if (weft_fake_cuda_launch(key.second, run_exchange, raw) != 0) {
      delete raw;
      return kInvalidUsage;
    }
  }
  return kSuccess;
}

int add_transfer(Comm* comm, bool send, void* buffer, size_t count, int type, int peer,
                 void* stream) {
  if (comm == nullptr || fake_nccl::element_size(type) == 0 || peer < 0 || peer >= comm->nranks)
    return kInvalidArgument;
  grouped.push_back({{comm, stream}, {send, peer, buffer, count * fake_nccl::element_size(type)}});
  return group_depth == 0 ? flush_group() : kSuccess;
}

bool refuses(int rank) {
  const char* refuse = std::getenv("WEFT_FAKE_NCCL_REFUSE");
  if (refuse == nullptr || *refuse == '\0') return false;
  return std::strcmp(refuse, "all") == 0 || std::atoi(refuse) == rank;
}

}  // namespace

using ncclComm_t = Comm*;

FAKE_NCCL_API int ncclGetVersion(int* version) {
  if (version == nullptr) return kInvalidArgument;
  *version = kVersion;
  return kSuccess;
}

FAKE_NCCL_API const char* ncclGetErrorString(int result) {
  switch (result) {
    case kSuccess:
      return "no error";
    case kSystemError:
      return "unhandled system error (fake NCCL: a rank did not arrive)";
    case kInternalError:
      return "internal error";
    case kInvalidArgument:
      return "invalid argument";
    case kInvalidUsage:
      return "invalid usage";
    default:
      return "unknown result code";
  }
}

FAKE_NCCL_API int ncclGetUniqueId(UniqueId* id) {
  if (id == nullptr) return kInvalidArgument;
  make_unique_id(id);
  return kSuccess;
}

FAKE_NCCL_API int ncclCommInitRank(ncclComm_t* out, int nranks, UniqueId id, int rank) {
  if (out == nullptr || nranks < 1 || nranks > kMaxRanks || rank < 0 || rank >= nranks ||
      !valid(id))
    return kInvalidArgument;
  bool all = false;
  Comm* comm = join(id, nranks, rank, &all);
  if (comm == nullptr) return kSystemError;
  if (!all || refuses(rank)) {
    leave(comm);
    return all ? kInvalidUsage : kSystemError;
  }
  *out = comm;
  return kSuccess;
}

FAKE_NCCL_API int ncclCommDestroy(ncclComm_t comm) {
  leave(comm);
  return kSuccess;
}

FAKE_NCCL_API int ncclCommAbort(ncclComm_t comm) {
  leave(comm);
  return kSuccess;
}

FAKE_NCCL_API int ncclCommGetAsyncError(ncclComm_t comm, int* error) {
  if (comm == nullptr || error == nullptr) return kInvalidArgument;
  *error = comm->error.load();
  return kSuccess;
}

FAKE_NCCL_API int ncclAllReduce(const void* send, void* recv, size_t count, int type, int op,
                                ncclComm_t comm, void* stream) {
  return launch_collective(comm, Kind::kAllReduce, send, recv, count, type, op, 0, stream);
}

FAKE_NCCL_API int ncclBroadcast(const void* send, void* recv, size_t count, int type, int root,
                                ncclComm_t comm, void* stream) {
  return launch_collective(comm, Kind::kBroadcast, send, recv, count, type, 0, root, stream);
}

FAKE_NCCL_API int ncclReduce(const void* send, void* recv, size_t count, int type, int op, int root,
                             ncclComm_t comm, void* stream) {
  return launch_collective(comm, Kind::kReduce, send, recv, count, type, op, root, stream);
}

FAKE_NCCL_API int ncclAllGather(const void* send, void* recv, size_t send_count, int type,
                                ncclComm_t comm, void* stream) {
  return launch_collective(comm, Kind::kAllGather, send, recv, send_count, type, 0, 0, stream);
}

FAKE_NCCL_API int ncclReduceScatter(const void* send, void* recv, size_t recv_count, int type,
                                    int op, ncclComm_t comm, void* stream) {
  return launch_collective(comm, Kind::kReduceScatter, send, recv, recv_count, type, op, 0, stream);
}

FAKE_NCCL_API int ncclSend(const void* buffer, size_t count, int type, int peer, ncclComm_t comm,
                           void* stream) {
  return add_transfer(comm, true, const_cast<void*>(buffer), count, type, peer, stream);
}

FAKE_NCCL_API int ncclRecv(void* buffer, size_t count, int type, int peer, ncclComm_t comm,
                           void* stream) {
  return add_transfer(comm, false, buffer, count, type, peer, stream);
}

FAKE_NCCL_API int ncclGroupStart() {
  ++group_depth;
  return kSuccess;
}

FAKE_NCCL_API int ncclGroupEnd() {
  if (group_depth == 0) return kInvalidUsage;
  return --group_depth == 0 ? flush_group() : kSuccess;
}
