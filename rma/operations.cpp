// Put, get and the accumulates (rma/operations.hpp): resolve the target span, move the origin
// side through a packed copy only when its datatype is not contiguous.
#include "rma/operations.hpp"

#include <memory>
#include <string>

#include "gpu/typed_copy.hpp"
#include "rma/access.hpp"
#include "rma/remote.hpp"
#include "rma/sync.hpp"
#include "runtime/datatype/predefined.hpp"
#include "runtime/world.hpp"

namespace weft::rma {
namespace {

// The target side resolved: where the data lands and how many bytes it spans.
struct Resolved {
  TargetSpan span;
  Run one;                // a contiguous target type: its single run
  std::vector<Run> many;  // any other
  size_t bytes = 0;
  int rank = 0;
  ptrdiff_t lo = 0, hi = 0;  // the runs' extent, from span.address
  // By messages though on this node: GPU memory attached to a dynamic window by another
  // process, which cross-memory attach cannot reach.
  bool by_messages = false;
};

// Whether [first, end) lies in a region of GPU memory `rank` attached, as learnt before.
bool in_known_device_region(const Window& w, int rank, uint64_t first, uint64_t end) {
  auto known = w.device_regions.find(rank);
  if (known == w.device_regions.end()) return false;
  for (const auto& [start, stop] : known->second)
    if (first >= start && end <= stop) return true;
  return false;
}

Status resolve(const Window& w, const TargetRef& t, Resolved* out) {
  if (t.rank < 0 || t.rank >= w.size)
    return Status::error(MPI_ERR_RANK, "invalid target_rank=" + std::to_string(t.rank) + " (" +
                                           w.display_name() + " has " + std::to_string(w.size) +
                                           " ranks)");
  WEFT_TRY(check_access(w, t.rank));
  const Target& target = w.targets[size_t(t.rank)];
  out->bytes = t.type->size() * t.count;
  if (t.type->is_contiguous(t.count)) {
    out->one = Run{t.type->true_lb(), out->bytes};
    out->span.runs = &out->one;
    out->span.run_count = out->bytes > 0 ? 1 : 0;
  } else {
    out->many = datatype_runs(*t.type, t.count);
    out->span.runs = out->many.data();
    out->span.run_count = out->many.size();
  }
  const bool dynamic = w.flavor == MPI_WIN_FLAVOR_DYNAMIC;
  const ptrdiff_t start = ptrdiff_t(t.disp) * ptrdiff_t(dynamic ? 1 : target.disp_unit);
  const auto [lo, hi] = span_bounds(out->span);
  if (!dynamic && out->span.run_count > 0) {
    if (start + lo < 0 || start + hi > ptrdiff_t(target.size))
      return Status::error(MPI_ERR_RMA_RANGE,
                           "target_disp=" + std::to_string(t.disp) + " with " +
                               std::to_string(t.count) + " x " + t.type->label() +
                               " reaches bytes [" + std::to_string(start + lo) + ", " +
                               std::to_string(start + hi) + ") of rank " + std::to_string(t.rank) +
                               "'s window of " + std::to_string(target.size) + " bytes");
  }
  out->span.target = &target;
  out->span.address = (dynamic ? 0 : target.base) + uint64_t(start);
  out->rank = t.rank;
  out->lo = lo;
  out->hi = hi;
  if (dynamic && out->span.run_count > 0) {
    const uint64_t first = out->span.address + uint64_t(lo), end = out->span.address + uint64_t(hi);
    uint64_t region_start = 0;
    const AttachedRegion* own =
        t.rank == w.rank ? attached_region(w, first, end - first, &region_start) : nullptr;
    if (own != nullptr && own->device) out->span.target = &w.own_device;
    out->by_messages = target.reach == Reach::kCma && in_known_device_region(w, t.rank, first, end);
  }
  return Status::success();
}

bool remote(const Resolved& r) { return r.by_messages || r.span.target->reach == Reach::kRemote; }

// Runs `by_messages` for a target reached by messages (remote), else `here` (memory,
// cross-memory attach). Where cross-memory attach finds no memory at an address of another
// process's dynamic window, asks that process whether GPU memory is attached there, and if so
// runs `by_messages` instead, remembering the region for later accesses.
template <typename Here, typename ByMessages>
Status here_or_by_messages(Window& w, Resolved& r, Here here, ByMessages by_messages) {
  if (remote(r)) return by_messages();
  const Status s = here();
  if (s.ok() || s.error_class != MPI_ERR_RMA_RANGE || w.flavor != MPI_WIN_FLAVOR_DYNAMIC ||
      r.span.target->reach != Reach::kCma || !w.remote.server)
    return s;
  const uint64_t first = r.span.address + uint64_t(r.lo), end = r.span.address + uint64_t(r.hi);
  RegionAnswer region;
  WEFT_TRY(remote_region(w, r.rank, first, &region));
  if (region.device == 0 || end > region.end) return s;
  w.device_regions[r.rank].emplace_back(region.start, region.end);
  r.by_messages = true;
  return by_messages();
}

Status check_sizes(const Typed& origin, const Resolved& r, const char* what) {
  const size_t bytes = origin.type->size() * origin.count;
  if (bytes == r.bytes) return Status::success();
  return Status::error(MPI_ERR_TYPE, std::string(what) + " holds " + std::to_string(bytes) +
                                         " bytes of data and the target side " +
                                         std::to_string(r.bytes) +
                                         " (their type signatures must match)");
}

// Whether a buffer the calls below read or write can be used as it is: contiguous host memory.
bool direct(const Typed& o) {
  return o.type->is_contiguous(o.count) && !gpu::typed_on_device(o.buf, o.count, *o.type);
}

// The origin's data as packed bytes in *out: the buffer itself when direct, else a packed copy
// (also of device memory).
Status packed_origin(const Typed& o, std::unique_ptr<unsigned char[]>* hold,
                     const unsigned char** out) {
  if (direct(o)) {
    *out = static_cast<const unsigned char*>(o.type->data_start(o.buf));
    return Status::success();
  }
  hold->reset(new unsigned char[o.type->size() * o.count]);
  *out = hold->get();
  return gpu::pack_typed(o.buf, o.count, *o.type, hold->get());
}

// The reduction an accumulate applies at the target: a predefined op on the target's one
// predefined type, which the origin must share.
Status bind_op(const Typed& origin, const TargetRef& t, MPI_Op op, Reduction* red, Combine* how) {
  how->op = op;
  if (op == MPI_REPLACE || op == MPI_NO_OP) {
    how->replace = op == MPI_REPLACE;
    how->no_op = op == MPI_NO_OP;
  } else if (op >= kFirstUserOp) {
    return Status::error(MPI_ERR_OP, "invalid op=" + op_name(op) +
                                         " (one-sided accumulates take predefined operations "
                                         "only, MPI 4.1 §12.3.4)");
  } else {
    WEFT_TRY(world().ops.bind(op, *t.type, red));
    how->reduction = red;
  }
  const MPI_Datatype basic = t.type->basic_type();
  how->basic = basic;
  if (t.count > 0 && basic == MPI_DATATYPE_NULL)
    return Status::error(MPI_ERR_TYPE, std::string("invalid target_datatype=") + t.type->label() +
                                           " (accumulates need a type made of one predefined "
                                           "type)");
  if (origin.count > 0 && origin.type->basic_type() != basic)
    return Status::error(MPI_ERR_TYPE, std::string("origin_datatype=") + origin.type->label() +
                                           " and target_datatype=" + t.type->label() +
                                           " are not made of the same predefined type");
  return Status::success();
}

// Gathered result bytes into the result buffer.
Status deliver(const Typed& result, const unsigned char* packed) {
  return gpu::unpack_typed(packed, result.count, result.count * result.type->size(), *result.type,
                           const_cast<void*>(result.buf));
}

}  // namespace

Status put(Window& w, const Typed& origin, const TargetRef& target) {
  if (target.rank == MPI_PROC_NULL) return Status::success();
  Resolved r;
  WEFT_TRY(resolve(w, target, &r));
  WEFT_TRY(check_sizes(origin, r, "the origin buffer"));
  std::unique_ptr<unsigned char[]> hold;
  const unsigned char* packed = nullptr;
  WEFT_TRY(packed_origin(origin, &hold, &packed));
  return here_or_by_messages(
      w, r, [&] { return write_runs(r.span, packed); },
      [&] { return remote_put(w, r.span, packed); });
}

Status get(Window& w, const Typed& origin, const TargetRef& target) {
  if (target.rank == MPI_PROC_NULL) return Status::success();
  Resolved r;
  WEFT_TRY(resolve(w, target, &r));
  WEFT_TRY(check_sizes(origin, r, "the origin buffer"));
  auto read = [&](unsigned char* into) {
    return here_or_by_messages(
        w, r, [&] { return read_runs(r.span, into); }, [&] { return remote_get(w, r.span, into); });
  };
  if (direct(origin)) return read(static_cast<unsigned char*>(origin.type->data_start(origin.buf)));
  std::unique_ptr<unsigned char[]> packed(new unsigned char[r.bytes]);
  WEFT_TRY(read(packed.get()));
  return deliver(origin, packed.get());
}

namespace {

// MPI_Accumulate, and with `result` MPI_Get_accumulate: the target's old contents, when asked
// for, arrive in `result` before `op` combines the origin into the target.
Status combine_at(Window& w, const Typed& origin, const Typed* result, const TargetRef& target,
                  MPI_Op op) {
  if (target.rank == MPI_PROC_NULL) return Status::success();
  Reduction red;
  Combine how;
  WEFT_TRY(bind_op(origin, target, op, &red, &how));
  Resolved r;
  WEFT_TRY(resolve(w, target, &r));
  if (!how.no_op) {
    WEFT_TRY(check_sizes(origin, r, "the origin buffer"));
  } else if (result == nullptr) {
    return Status::success();  // an accumulate of MPI_NO_OP changes nothing
  }
  std::unique_ptr<unsigned char[]> hold, old;
  const unsigned char* in = nullptr;
  if (!how.no_op) WEFT_TRY(packed_origin(origin, &hold, &in));
  unsigned char* into = nullptr;
  if (result != nullptr) {
    WEFT_TRY(check_sizes(*result, r, "the result buffer"));
    if (direct(*result)) {
      into = static_cast<unsigned char*>(result->type->data_start(result->buf));
    } else {
      old.reset(new unsigned char[r.bytes]);
      into = old.get();
    }
  }
  WEFT_TRY(here_or_by_messages(
      w, r, [&] { return accumulate_runs(r.span, in, how, into); },
      [&] { return remote_accumulate(w, r.span, in, how, into); }));
  return old != nullptr ? deliver(*result, old.get()) : Status::success();
}

}  // namespace

Status accumulate(Window& w, const Typed& origin, const TargetRef& target, MPI_Op op) {
  return combine_at(w, origin, nullptr, target, op);
}

Status get_accumulate(Window& w, const Typed& origin, const Typed& result, const TargetRef& target,
                      MPI_Op op) {
  return combine_at(w, origin, &result, target, op);
}

Status compare_and_swap(Window& w, const void* value, const void* compare, void* result,
                        const Datatype* type, int rank, MPI_Aint disp) {
  if (rank == MPI_PROC_NULL) return Status::success();
  Resolved r;
  WEFT_TRY(resolve(w, TargetRef{rank, disp, 1, type}, &r));
  return here_or_by_messages(
      w, r, [&] { return rma::compare_and_swap(r.span, value, compare, result, type->size()); },
      [&] { return remote_compare_and_swap(w, r.span, value, compare, result, *type); });
}

void remember_fetch_op(Window& w, MPI_Op op, MPI_Datatype type) {
  if (op == w.fetch_op.op && type == w.fetch_op.type) return;
  if (op == MPI_REPLACE || op == MPI_NO_OP || op >= kFirstUserOp || !is_predefined_type(type))
    return;
  Reduction reduction;
  if (!world().ops.bind(op, type, predefined_type(type).size, &reduction).ok()) return;
  w.fetch_op.op = op;
  w.fetch_op.type = type;
  w.fetch_op.reduction = reduction;
}

}  // namespace weft::rma
