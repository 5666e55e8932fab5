// The short paths of small blocking collectives through a communicator's node region
// (coll/region_short.hpp).
#include "coll/region_short.hpp"

#include <cstring>

#include "coll/algorithms/region_parts.hpp"
#include "coll/coll.hpp"
#include "coll/node_region.hpp"
#include "coll/region_runs.hpp"
#include "gpu/memory.hpp"
#include "runtime/call_lock.hpp"
#include "runtime/datatype/predefined.hpp"
#include "runtime/tools/events.hpp"
#include "runtime/wait_state.hpp"
#include "runtime/world.hpp"

namespace weft::coll {
namespace {

// A call that may take a short path: its communicator and what it holds of its region.
struct Short {
  Comm* comm = nullptr;
  RegionHold* hold = nullptr;
};

// The communicator behind `handle`, when its calls may take a short path now.
bool short_comm(MPI_Comm handle, Short* s) {
  World& w = world();
  if (call_lock::multiple() || w.check_collectives ||
      tools::event_wanted(tools::EventKind::kCollAlgorithm))
    return false;
  Comm* c = w.comms.find(handle);
  if (c == nullptr) return false;
  RegionHold* hold = c->region.held.get();
  if (hold == nullptr || hold->region == nullptr) return false;
  *s = {c, hold};
  return true;
}

// The host kernel of a predefined reduction op (not MPI_REPLACE or MPI_NO_OP) on `type`, whose
// elements have `elem` bytes; nullptr where there is none.
ReduceKernel kernel_of(MPI_Op op, MPI_Datatype type, size_t elem) {
  if (op < MPI_MAX || op > MPI_MAXLOC) return nullptr;
  return predefined_kernel(op, type, elem);
}

bool on_host(const void* a, const void* b) { return !gpu::on_device(a) && !gpu::on_device(b); }

// Whether the cost model gives this call to the region algorithm of `kind`. The model is asked
// only when the sizes, root or in-place use differ from the last call of the kind (describe()
// fills in what the C API would for the general path); a call that takes the short path is
// counted for MPI_T as the general path counts it.
template <typename Describe>
bool region_chosen(Short& s, CollKind kind, size_t bytes, int root, bool in_place,
                   Describe describe) {
  RegionChoice& c = s.hold->choices[size_t(kind)];
  if (!c.known || c.bytes != bytes || c.root != root || c.in_place != in_place) {
    CallSpec spec;
    spec.args.kind = kind;
    describe(spec.args);
    const Algorithm* a = choose(*s.comm, spec);
    c = {true, bytes, root, in_place, a->node_region && !a->by_reference, call_counter(*a)};
  }
  if (!c.region) return false;
  if (c.calls != nullptr) c.calls->add(1);
  tools::g_counters.coll_short_calls.add(1);
  return true;
}

// The call's number in the region, taken as the general path takes it (the one run of a
// blocking call: coll/coll.cpp run_blocking and CollOp::bind).
uint64_t take_call(Comm& c) {
  wait_state::note_collective(c, c.coll_seq + 1);
  return region_call_number(c.coll_seq++, 1);
}

// Runs a reduction by `kernel` on elements of `elem` bytes in which this rank makes `post` (of
// `mine`, or none) and, where it `folds`, folds `bytes` from `from` into every rank's post and
// writes the result to `out`.
Status run_fold(Short& s, const void* mine, void* out, Post post, size_t from, size_t bytes,
                bool folds, ReduceKernel kernel, size_t elem) {
  std::vector<unsigned char>& space = s.hold->fold_space;
  if (space.size() < 2 * bytes) space.resize(2 * s.hold->region->capacity());
  Fold f{*s.hold->region,
         take_call(*s.comm),
         s.comm->rank,
         s.comm->size,
         static_cast<const unsigned char*>(mine),
         post,
         from,
         bytes,
         folds,
         kernel,
         bytes / elem,
         space.data(),
         space.data() + bytes};
  Status outcome = run(f);
  if (folds && bytes > 0) std::memcpy(out, f.partial, bytes);
  return outcome;
}

// Runs this rank's arrival through the region with `bytes` of `data`, every rank's bytes
// gathered to `out` + rank·bytes (a barrier: none), taking the call's number as the general path
// does (Schedule::arrive).
Status run_arrival(Short& s, const void* data = nullptr, size_t bytes = 0, void* out = nullptr) {
  take_call(*s.comm);
  NodeRegion& region = *s.hold->region;
  Arrival a{region, region.next_arrival(), data, bytes, out};
  return run(a);
}

// An allreduce through the arrival lines (folds_arrivals): every rank's vector
// gathered, then folded in rank order, as coll/algorithms/region_parts.cpp fold_arrivals does.
Status run_arrival_fold(Short& s, const void* mine, void* out, size_t bytes, ReduceKernel kernel,
                        size_t elem) {
  std::vector<unsigned char>& space = s.hold->fold_space;
  const size_t p = size_t(s.comm->size);
  if (space.size() < p * bytes) space.resize(p * bytes);
  Status outcome = run_arrival(s, mine, bytes, space.data());
  if (!outcome.ok() || bytes == 0) return outcome;
  for (size_t r = 1; r < p; ++r)
    kernel(space.data() + (r - 1) * bytes, space.data() + r * bytes, bytes / elem);
  std::memcpy(out, space.data() + (p - 1) * bytes, bytes);
  return outcome;
}

}  // namespace

bool short_barrier(MPI_Comm comm, Status* out) {
  Short s;
  if (!short_comm(comm, &s) || !region_chosen(s, CollKind::kBarrier, 0, 0, false, [](CollArgs&) {}))
    return false;
  *out = run_arrival(s);
  return true;
}

bool short_bcast(void* buf, MPI_Count count, MPI_Datatype type, int root, MPI_Comm comm,
                 Status* out) {
  Short s;
  size_t bytes = 0, elem = 0;
  if (!short_comm(comm, &s) || !plain_bytes(count, type, &bytes, &elem) || root < 0 ||
      root >= s.comm->size || !plain_buffer(buf, bytes) || !on_host(buf, nullptr))
    return false;
  if (!region_chosen(s, CollKind::kBcast, bytes, root, false, [&](CollArgs& a) {
        a.root = root;
        a.bytes = bytes;
        a.elem_size = elem;
      }))
    return false;
  Moves m{*s.hold->region, take_call(*s.comm), s.comm->rank, s.comm->size};
  if (s.comm->rank == root) {
    m.post = {buf, bytes, s.comm->size - 1};
  }
  m.only = root;
  m.into = static_cast<unsigned char*>(buf);
  m.bytes = bytes;
  *out = run(m);
  return true;
}

bool short_reduce(const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype type, MPI_Op op,
                  int root, MPI_Comm comm, Status* out) {
  Short s;
  size_t bytes = 0, elem = 0;
  ReduceKernel kernel = nullptr;
  if (!short_comm(comm, &s) || !plain_bytes(count, type, &bytes, &elem) || root < 0 ||
      root >= s.comm->size || (kernel = kernel_of(op, type, elem)) == nullptr)
    return false;
  const bool is_root = s.comm->rank == root, in_place = sendbuf == MPI_IN_PLACE;
  const void* mine = in_place ? recvbuf : sendbuf;
  if ((in_place && !is_root) || !plain_buffer(mine, bytes) ||
      (is_root && (!plain_buffer(recvbuf, bytes) || sendbuf == recvbuf)) ||
      !on_host(mine, is_root ? recvbuf : nullptr))
    return false;
  if (!region_chosen(s, CollKind::kReduce, bytes, root, in_place, [&](CollArgs& a) {
        a.root = root;
        a.bytes = bytes;
        a.elem_size = elem;
        a.in_place = in_place;
      }))
    return false;
  *out =
      run_fold(s, mine, recvbuf, {mine, bytes, is_root ? 0 : 1}, 0, bytes, is_root, kernel, elem);
  return true;
}

bool short_allreduce(const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype type,
                     MPI_Op op, MPI_Comm comm, Status* out) {
  Short s;
  size_t bytes = 0, elem = 0;
  ReduceKernel kernel = nullptr;
  if (!short_comm(comm, &s) || !plain_bytes(count, type, &bytes, &elem) ||
      (kernel = kernel_of(op, type, elem)) == nullptr)
    return false;
  const bool in_place = sendbuf == MPI_IN_PLACE;
  const void* mine = in_place ? recvbuf : sendbuf;
  if (!plain_buffer(mine, bytes) || !plain_buffer(recvbuf, bytes) || sendbuf == recvbuf ||
      !on_host(mine, recvbuf))
    return false;
  if (!region_chosen(s, CollKind::kAllreduce, bytes, 0, in_place, [&](CollArgs& a) {
        a.bytes = bytes;
        a.elem_size = elem;
        a.in_place = in_place;
      }))
    return false;
  *out = folds_arrivals(bytes, s.comm->size)
             ? run_arrival_fold(s, mine, recvbuf, bytes, kernel, elem)
             : run_fold(s, mine, recvbuf, {mine, bytes, s.comm->size - 1}, 0, bytes, true, kernel,
                        elem);
  return true;
}

bool short_allgather(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                     MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, Status* out) {
  Short s;
  size_t block = 0, sent = 0, elem = 0;
  const bool in_place = sendbuf == MPI_IN_PLACE;
  if (!short_comm(comm, &s) || !plain_bytes(recvcount, recvtype, &block, &elem) ||
      (!in_place && (!plain_bytes(sendcount, sendtype, &sent, &elem) || sent != block ||
                     !plain_buffer(sendbuf, block))) ||
      !plain_buffer(recvbuf, block * size_t(s.comm->size)) ||
      !on_host(in_place ? nullptr : sendbuf, recvbuf))
    return false;
  const int size = s.comm->size;
  if (!region_chosen(s, CollKind::kAllgather, block, 0, in_place, [&](CollArgs& a) {
        for (int r = 0; r < size; ++r) a.blocks.push_back({size_t(r) * block, block});
      }))
    return false;
  auto* base = static_cast<unsigned char*>(recvbuf);
  unsigned char* own = base + size_t(s.comm->rank) * block;
  if (folds_arrivals(block, size)) {  // as gathers_arrivals decides for these blocks
    *out = run_arrival(s, in_place ? own : sendbuf, block, base);
    return true;
  }
  Moves m{*s.hold->region, take_call(*s.comm), s.comm->rank, size};
  m.post = {in_place ? own : sendbuf, block, size - 1};
  m.into = base;
  m.stride = block;
  m.bytes = block;
  if (!in_place && block > 0) std::memcpy(own, sendbuf, block);  // in place it is there
  *out = run(m);
  return true;
}

bool short_alltoall(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                    MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, Status* out) {
  Short s;
  size_t block = 0, sent = 0, elem = 0;
  if (!short_comm(comm, &s) || !plain_bytes(recvcount, recvtype, &block, &elem) ||
      !plain_bytes(sendcount, sendtype, &sent, &elem) || sent != block)
    return false;
  const int size = s.comm->size;
  const size_t all = block * size_t(size);
  if (!plain_buffer(sendbuf, all) || !plain_buffer(recvbuf, all) || !on_host(sendbuf, recvbuf) ||
      !region_chosen(s, CollKind::kAlltoall, block, 0, false, [&](CollArgs& a) {
        for (int r = 0; r < size; ++r) a.recv_blocks.push_back({size_t(r) * block, block});
        a.send_blocks = a.recv_blocks;
      }))
    return false;
  // Every rank posts its blocks as they lie, in rank order; each takes its own from the others.
  const size_t mine = size_t(s.comm->rank) * block;
  auto* base = static_cast<unsigned char*>(recvbuf);
  Moves m{*s.hold->region, take_call(*s.comm), s.comm->rank, size};
  m.post = {sendbuf, all, size - 1};
  m.into = base;
  m.stride = block;
  m.bytes = block;
  m.part = true;
  m.from = mine;
  if (block > 0) std::memcpy(base + mine, static_cast<const unsigned char*>(sendbuf) + mine, block);
  *out = run(m);
  return true;
}

bool short_reduce_scatter_block(const void* sendbuf, void* recvbuf, MPI_Count recvcount,
                                MPI_Datatype type, MPI_Op op, MPI_Comm comm, Status* out) {
  Short s;
  size_t block = 0, elem = 0;
  ReduceKernel kernel = nullptr;
  if (!short_comm(comm, &s) || !plain_bytes(recvcount, type, &block, &elem) ||
      (kernel = kernel_of(op, type, elem)) == nullptr)
    return false;
  const int size = s.comm->size;
  const size_t all = block * size_t(size);
  const bool in_place = sendbuf == MPI_IN_PLACE;
  const void* mine = in_place ? recvbuf : sendbuf;
  if (!plain_buffer(mine, all) || !plain_buffer(recvbuf, in_place ? all : block) ||
      sendbuf == recvbuf || !on_host(mine, recvbuf))
    return false;
  if (!region_chosen(s, CollKind::kReduceScatter, block, 0, in_place, [&](CollArgs& a) {
        for (int r = 0; r < size; ++r) a.blocks.push_back({size_t(r) * block, block});
        a.bytes = all;
        a.elem_size = elem;
        a.in_place = in_place;
      }))
    return false;
  // Every rank posts its whole vector; each folds its own block of everyone's.
  *out = run_fold(s, mine, recvbuf, {mine, all, size - 1}, size_t(s.comm->rank) * block, block,
                  true, kernel, elem);
  return true;
}

}  // namespace weft::coll
