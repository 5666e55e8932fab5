// Reduction operations: the predefined MPI_Op table, user operations (MPI_Op_create) and the
// Reduction a collective applies: inout[i] = in[i] op inout[i], `in` holding the lower ranks.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "mpi.h"
#include "runtime/status.hpp"

namespace weft {

class Datatype;

// A predefined kernel: inout[i] = in[i] op inout[i] for n elements.
using ReduceKernel = void (*)(const void* in, void* inout, size_t n);

// One reduction as a collective applies it: an operation bound to a datatype.
struct Reduction {
  ReduceKernel kernel = nullptr;         // predefined op on a predefined type, or
  MPI_User_function* user = nullptr;     // a user function (called in chunks of INT_MAX), or
  MPI_User_function_c* user_c = nullptr;  // a large-count one (MPI_Op_create_c), called once
  MPI_Op op = MPI_OP_NULL;               // which op (gpu/ picks its device kernel by it)
  MPI_Datatype datatype = MPI_DATATYPE_NULL;
  size_t elem_size = 0;                  // bytes of one element as the collective moves it
  bool commutative = true;
  // A user op on a non-contiguous derived type: the data moves packed, but the function expects
  // the type's layout, so apply() unpacks both operands, calls it and packs the result.
  std::shared_ptr<const Datatype> layout;

  void apply(const void* in, void* inout, size_t n) const;
};

// The kernel for a predefined op on a predefined type of `type_size` bytes, or nullptr where
// the standard does not define the op for the type (e.g. MPI_SUM on MPI_C_BOOL).
ReduceKernel predefined_kernel(MPI_Op op, MPI_Datatype type, size_t type_size);
// "MPI_SUM" for a predefined op, "user op 17" otherwise.
std::string op_name(MPI_Op op);

class OpTable {
 public:
  // Registers a user function, or a large-count one (MPI_Op_create_c); returns its handle.
  MPI_Op create(MPI_User_function* fn, bool commutative);
  MPI_Op create(MPI_User_function_c* fn, bool commutative);
  Status free(MPI_Op* op);
  // Fails with MPI_ERR_OP naming `arg` for MPI_OP_NULL, freed or unknown handles.
  Status commutative(MPI_Op op, const char* arg, bool* out) const;
  // Binds `op` to the predefined `type` (elements of `elem_size` bytes); MPI_ERR_OP if the op is
  // not defined for that type.
  Status bind(MPI_Op op, MPI_Datatype type, size_t elem_size, Reduction* out) const;
  // Binds `op` to any committed type: a predefined op to the one predefined type a derived type
  // is made of (MPI_ERR_OP when it is made of several), a user op to the type itself.
  Status bind(MPI_Op op, const Datatype& type, Reduction* out) const;

 private:
  struct UserOp {
    MPI_User_function* fn = nullptr;
    MPI_User_function_c* fn_c = nullptr;
    bool commutative = true;
    bool live = false;
  };
  const UserOp* find_user(MPI_Op op) const;
  MPI_Op add(const UserOp& op);
  std::vector<UserOp> user_;  // handle = kFirstUserOp + index
};

inline constexpr MPI_Op kFirstUserOp = 64;

}  // namespace weft
