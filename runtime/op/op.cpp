// The MPI_Op table: predefined operations and user operations, and binding an op to a datatype.
#include "runtime/op/op.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <vector>

#include "runtime/datatype/datatype.hpp"

namespace weft {
namespace {

constexpr const char* kPredefinedNames[] = {
    "MPI_OP_NULL", "MPI_MAX",  "MPI_MIN", "MPI_SUM",  "MPI_PROD",   "MPI_LAND",    "MPI_BAND",
    "MPI_LOR",     "MPI_BOR",  "MPI_LXOR", "MPI_BXOR", "MPI_MINLOC", "MPI_MAXLOC", "MPI_REPLACE",
    "MPI_NO_OP"};
constexpr MPI_Op kLastPredefined = MPI_NO_OP;

bool is_predefined(MPI_Op op) { return op > MPI_OP_NULL && op <= kLastPredefined; }

Status bad_op(MPI_Op op, const char* arg) {
  return Status::error(MPI_ERR_OP, std::string("invalid operation ") + arg + "=" +
                                       (op == MPI_OP_NULL ? "MPI_OP_NULL" : std::to_string(op)));
}

// Calls the user function of `r` once on `n` elements laid out as the function expects them.
void call_user(const Reduction& r, void* in, void* inout, size_t n) {
  MPI_Datatype handle = r.datatype;
  if (r.user_c != nullptr) {
    MPI_Count len = MPI_Count(n);
    r.user_c(in, inout, &len, &handle);
  } else {
    int len = int(n);
    r.user(in, inout, &len, &handle);
  }
}

// A user op on a non-contiguous type: the operands unpacked into the type's layout for it.
void apply_in_layout(const Reduction& r, const void* in, void* inout, size_t n) {
  const Datatype& t = *r.layout;
  const size_t span = size_t(t.true_extent()) + (n > 0 ? n - 1 : 0) * size_t(t.extent());
  std::vector<unsigned char> a(span), b(span);
  // Element i's data starts at base + i * extent + true_lb: the base lies true_lb before it.
  auto base = [&](std::vector<unsigned char>& v) {
    return reinterpret_cast<void*>(reinterpret_cast<uintptr_t>(v.data()) - uintptr_t(t.true_lb()));
  };
  void* in_base = base(a);
  void* inout_base = base(b);
  t.unpack(in, n, in_base);
  t.unpack(inout, n, inout_base);
  call_user(r, in_base, inout_base, n);
  t.pack(inout_base, n, inout);
}

}  // namespace

void Reduction::apply(const void* in, void* inout, size_t n) const {
  if (kernel != nullptr) {
    kernel(in, inout, n);
    return;
  }
  // An int user function takes at most INT_MAX elements at a time; a large-count one all.
  auto* a = static_cast<unsigned char*>(const_cast<void*>(in));
  auto* b = static_cast<unsigned char*>(inout);
  const size_t chunk = user_c != nullptr ? n : size_t(INT_MAX);
  while (n > 0) {
    const size_t len = std::min(n, chunk);
    if (layout != nullptr) {
      apply_in_layout(*this, a, b, len);
    } else {
      call_user(*this, a, b, len);
    }
    a += len * elem_size;
    b += len * elem_size;
    n -= len;
  }
}

std::string op_name(MPI_Op op) {
  if (op >= 0 && op <= kLastPredefined) return kPredefinedNames[op];
  return "user op " + std::to_string(op);
}

MPI_Op OpTable::create(MPI_User_function* fn, bool commutative) {
  return add(UserOp{fn, nullptr, commutative, true});
}

MPI_Op OpTable::create(MPI_User_function_c* fn, bool commutative) {
  return add(UserOp{nullptr, fn, commutative, true});
}

MPI_Op OpTable::add(const UserOp& op) {
  for (size_t i = 0; i < user_.size(); ++i) {
    if (!user_[i].live) {
      user_[i] = op;
      return kFirstUserOp + MPI_Op(i);
    }
  }
  user_.push_back(op);
  return kFirstUserOp + MPI_Op(user_.size() - 1);
}

const OpTable::UserOp* OpTable::find_user(MPI_Op op) const {
  if (op < kFirstUserOp || size_t(op - kFirstUserOp) >= user_.size()) return nullptr;
  const UserOp& u = user_[size_t(op - kFirstUserOp)];
  return u.live ? &u : nullptr;
}

Status OpTable::free(MPI_Op* op) {
  if (is_predefined(*op)) {
    return Status::error(MPI_ERR_OP, "cannot free the predefined operation " + op_name(*op));
  }
  if (find_user(*op) == nullptr) return bad_op(*op, "op");
  user_[size_t(*op - kFirstUserOp)].live = false;
  *op = MPI_OP_NULL;
  return Status::success();
}

Status OpTable::commutative(MPI_Op op, const char* arg, bool* out) const {
  if (is_predefined(op)) {
    // f(a, b) = b and f(a, b) = a depend on the order of the operands.
    *out = op != MPI_REPLACE && op != MPI_NO_OP;
    return Status::success();
  }
  const UserOp* u = find_user(op);
  if (u == nullptr) return bad_op(op, arg);
  *out = u->commutative;
  return Status::success();
}

Status OpTable::bind(MPI_Op op, MPI_Datatype type, size_t elem_size, Reduction* out) const {
  if (is_predefined(op)) {
    const ReduceKernel kernel = predefined_kernel(op, type, elem_size);
    if (kernel == nullptr) {
      const Datatype* t = nullptr;  // any type has a name here, MPI_DOUBLE_INT's gaps included
      const std::string type_name =
          find_datatype(type, "datatype", &t).ok() ? t->label() : std::to_string(type);
      return Status::error(MPI_ERR_OP, op_name(op) + " is not defined for datatype " + type_name);
    }
    out->kernel = kernel;
    out->user = nullptr;
    out->user_c = nullptr;
    out->commutative = op != MPI_REPLACE && op != MPI_NO_OP;
  } else {
    const UserOp* u = find_user(op);
    if (u == nullptr) return bad_op(op, "op");
    out->kernel = nullptr;
    out->user = u->fn;
    out->user_c = u->fn_c;
    out->commutative = u->commutative;
  }
  out->op = op;
  out->datatype = type;
  out->elem_size = elem_size;
  out->layout = nullptr;
  return Status::success();
}

Status OpTable::bind(MPI_Op op, const Datatype& type, Reduction* out) const {
  // A predefined op works on packed data; so does a user op on a contiguous predefined type. A
  // user op on a pair type with padding (MPI_DOUBLE_INT) takes the layout path below.
  if (type.is_predefined() && (is_predefined(op) || type.is_contiguous())) {
    return bind(op, type.handle(), type.size(), out);
  }
  if (is_predefined(op)) {
    const Datatype* basic = nullptr;
    if (type.basic_type() == MPI_DATATYPE_NULL ||
        !find_datatype(type.basic_type(), "datatype", &basic).ok()) {
      return Status::error(MPI_ERR_OP, op_name(op) + " is not defined for datatype " +
                                           type.label() +
                                           " (its elements are not all of one predefined type)");
    }
    return bind(op, basic->handle(), basic->size(), out);
  }
  Reduction r;
  WEFT_TRY(commutative(op, "op", &r.commutative));
  r.op = op;
  r.user = find_user(op)->fn;
  r.user_c = find_user(op)->fn_c;
  r.datatype = type.handle();
  r.elem_size = type.size();
  if (!type.is_contiguous()) r.layout = type.share();
  *out = r;
  return Status::success();
}

}  // namespace weft
