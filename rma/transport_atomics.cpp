// The transport's atomics for one-sided accumulates (rma/transport_atomics.hpp).
#include "rma/transport_atomics.hpp"

#include "runtime/comm/create.hpp"
#include "runtime/datatype/predefined.hpp"
#include "runtime/world.hpp"

namespace weft::rma {
namespace {

constexpr AtomicOp kArithmetic[] = {AtomicOp::kMin, AtomicOp::kMax, AtomicOp::kSum,
                                    AtomicOp::kProd, AtomicOp::kWrite};
constexpr AtomicOp kLogicalAndBitwise[] = {AtomicOp::kLand, AtomicOp::kLor, AtomicOp::kLxor,
                                           AtomicOp::kBand, AtomicOp::kBor, AtomicOp::kBxor};

bool is_integer(AtomicType t) { return t != AtomicType::kFloat && t != AtomicType::kDouble; }

int rank_of(const Window& w, const Target* t) { return int(t - w.targets.data()); }

// Starts one atomic and waits until it is done at the target.
Status run_atomic(Window& w, const Target& t, const AtomicAccess& access) {
  Completion c;
  WEFT_TRY(world().transport->atomic(t.world_rank, access, &c));
  world().progress.wait_until([&] { return c.done; });
  if (c.error_class != 0)
    return Status::error(c.error_class, "an atomic on rank " + std::to_string(rank_of(w, &t)) +
                                            " of " + w.display_name() +
                                            " failed in the transport");
  return Status::success();
}

}  // namespace

bool atomic_type_of(MPI_Datatype basic, AtomicType* out) {
  if (!is_predefined_type(basic)) return false;
  const PredefinedType& p = predefined_type(basic);
  if (p.pair || p.nfields != 1) return false;
  const ScalarField& f = p.fields[0];
  const auto by_size = [&](AtomicType one, int width_log2) {
    *out = AtomicType(int(one) + 2 * width_log2);
    return true;
  };
  const int width_log2 = f.native == 1 ? 0 : f.native == 2 ? 1 : f.native == 4 ? 2 : 3;
  switch (f.kind) {
    case ScalarKind::kSigned:
      return f.native <= 8 && by_size(AtomicType::kInt8, width_log2);
    case ScalarKind::kUnsigned:
      return f.native <= 8 && by_size(AtomicType::kUint8, width_log2);
    case ScalarKind::kFloat:
      if (f.native != 4 && f.native != 8) return false;
      *out = f.native == 4 ? AtomicType::kFloat : AtomicType::kDouble;
      return true;
    default:
      return false;
  }
}

bool atomic_op_of(MPI_Op op, AtomicOp* out) {
  const std::pair<MPI_Op, AtomicOp> table[] = {
      {MPI_MIN, AtomicOp::kMin},   {MPI_MAX, AtomicOp::kMax},     {MPI_SUM, AtomicOp::kSum},
      {MPI_PROD, AtomicOp::kProd}, {MPI_LAND, AtomicOp::kLand},   {MPI_LOR, AtomicOp::kLor},
      {MPI_LXOR, AtomicOp::kLxor}, {MPI_BAND, AtomicOp::kBand},   {MPI_BOR, AtomicOp::kBor},
      {MPI_BXOR, AtomicOp::kBxor}, {MPI_REPLACE, AtomicOp::kWrite}, {MPI_NO_OP, AtomicOp::kRead}};
  for (const auto& [mpi, transport] : table) {
    if (mpi != op) continue;
    *out = transport;
    return true;
  }
  return false;
}

bool transport_covers(const Transport& transport, AtomicType type) {
  const auto both = [&](AtomicOp op) {
    return transport.atomic_supported(type, op, false) && transport.atomic_supported(type, op, true);
  };
  for (AtomicOp op : kArithmetic)
    if (!both(op)) return false;
  if (!transport.atomic_supported(type, AtomicOp::kRead, true)) return false;
  if (!is_integer(type)) return true;
  for (AtomicOp op : kLogicalAndBitwise)
    if (!both(op)) return false;
  return transport.atomic_supported(type, AtomicOp::kCompareSwap, true);
}

uint32_t covered_types(const Transport& transport) {
  uint32_t types = 0;
  for (int t = 0; t < kAtomicTypes; ++t)
    if (transport_covers(transport, AtomicType(t))) types |= 1u << t;
  return types;
}

Status agree_transport_atomics(Window& w, Comm& wc) {
  bool reachable = w.registration != nullptr;
  for (const Target& t : w.targets) reachable = reachable && t.key != nullptr;
  uint32_t mine = reachable ? covered_types(*world().transport) : 0;
  std::vector<uint32_t> all(size_t(wc.size));
  WEFT_TRY(internal_allgather(wc, &mine, sizeof mine, all.data()));
  uint32_t agreed = ~0u;
  for (uint32_t types : all) agreed &= types;
  w.atomic_types = agreed;
  if (agreed != 0) w.targets[size_t(wc.rank)].reach = Reach::kRemote;
  return Status::success();
}

bool by_transport_atomics(const Window& w, const TargetSpan& span, MPI_Datatype basic) {
  AtomicType type;
  return w.atomic_types != 0 && span.target->key != nullptr && atomic_type_of(basic, &type) &&
         (w.atomic_types & (1u << int(type))) != 0;
}

Status transport_accumulate(Window& w, const TargetSpan& span, const unsigned char* packed,
                            const Combine& how, unsigned char* old) {
  AtomicAccess a;
  if (!atomic_op_of(how.op, &a.op) || !atomic_type_of(how.basic, &a.type))
    return Status::error(MPI_ERR_INTERN, "transport_accumulate: no atomic for this accumulate");
  const size_t elem = predefined_type(how.basic).size;
  a.key = span.target->key;
  size_t offset = 0;  // in the packed data
  for (const Run& run : span) {
    a.count = run.bytes / elem;
    a.address = span.address + uint64_t(run.offset);
    a.operand = packed != nullptr ? packed + offset : nullptr;
    a.result = old != nullptr ? old + offset : nullptr;
    WEFT_TRY(run_atomic(w, *span.target, a));
    offset += run.bytes;
  }
  return Status::success();
}

Status transport_compare_and_swap(Window& w, const TargetSpan& span, const void* value,
                                  const void* compare, void* old, MPI_Datatype basic) {
  AtomicAccess a;
  a.op = AtomicOp::kCompareSwap;
  if (!atomic_type_of(basic, &a.type))
    return Status::error(MPI_ERR_INTERN, "transport_compare_and_swap: no atomic for this type");
  a.count = 1;
  a.operand = value;
  a.compare = compare;
  a.result = old;
  a.address = span.address;
  a.key = span.target->key;
  return run_atomic(w, *span.target, a);
}

}  // namespace weft::rma
