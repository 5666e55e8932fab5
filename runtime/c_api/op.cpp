// Reduction operations: MPI_Op_create(_c), MPI_Op_free, MPI_Op_commutative and MPI_Reduce_local
// (and its large-count form MPI_Reduce_local_c).
#include <vector>

#include "gpu/typed_copy.hpp"
#include "runtime/c_api/coll_call.hpp"

using weft::Status;
using weft::world;
namespace capi = weft::capi;

namespace {

// MPI_Reduce_local and MPI_Reduce_local_c.
int reduce_local(const char* fn, const void* inbuf, void* inoutbuf, MPI_Count count,
                 MPI_Datatype datatype, MPI_Op op) {
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_CHECK(MPI_COMM_WORLD, fn, capi::check_count(count, "count"));
  const weft::Datatype* t = nullptr;
  WEFT_CHECK(MPI_COMM_WORLD, fn, weft::find_committed_datatype(datatype, "datatype", &t));
  WEFT_CHECK(MPI_COMM_WORLD, fn, capi::check_coll_buffer(inbuf, size_t(count), t, "inbuf", false));
  WEFT_CHECK(MPI_COMM_WORLD, fn,
             capi::check_coll_buffer(inoutbuf, size_t(count), t, "inoutbuf", false));
  weft::Reduction r;
  WEFT_CHECK(MPI_COMM_WORLD, fn, world().ops.bind(op, *t, &r));
  const size_t bytes = size_t(count) * t->size();
  const bool in_device = weft::gpu::typed_on_device(inbuf, size_t(count), *t);
  const bool inout_device = weft::gpu::typed_on_device(inoutbuf, size_t(count), *t);
  if (t->is_contiguous(size_t(count)) && !in_device && !inout_device) {
    r.apply(t->data_start(inbuf), t->data_start(inoutbuf), bytes / r.elem_size);
    return MPI_SUCCESS;
  }
  weft::gpu::DeviceMemory* gpu = weft::gpu::device_memory();
  if (t->is_contiguous(size_t(count)) && in_device && inout_device && gpu->can_reduce(r)) {
    return capi::report(
        MPI_COMM_WORLD, fn,
        gpu->reduce(r, t->data_start(inbuf), t->data_start(inoutbuf), bytes / r.elem_size));
  }
  // Reductions run on the packed data, as in the collectives (host copies of device data).
  std::vector<unsigned char> in(bytes), inout(bytes);
  WEFT_CHECK(MPI_COMM_WORLD, fn, weft::gpu::pack_typed(inbuf, size_t(count), *t, in.data()));
  WEFT_CHECK(MPI_COMM_WORLD, fn, weft::gpu::pack_typed(inoutbuf, size_t(count), *t, inout.data()));
  r.apply(in.data(), inout.data(), bytes / r.elem_size);
  WEFT_CHECK(MPI_COMM_WORLD, fn,
             weft::gpu::unpack_typed(inout.data(), size_t(count), bytes, *t, inoutbuf));
  return MPI_SUCCESS;
}

// MPI_Op_create and MPI_Op_create_c (whose function takes an MPI_Count length).
template <typename UserFunction>
int op_create(const char* fn, UserFunction* user_fn, int commute, MPI_Op* op) {
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_CHECK(MPI_COMM_WORLD, fn,
             capi::check_not_null(reinterpret_cast<const void*>(user_fn), "user_fn"));
  WEFT_CHECK(MPI_COMM_WORLD, fn, capi::check_not_null(op, "op"));
  *op = world().ops.create(user_fn, commute != 0);
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int PMPI_Op_create(MPI_User_function* user_fn, int commute, MPI_Op* op) {
  return op_create("MPI_Op_create", user_fn, commute, op);
}
int PMPI_Op_create_c(MPI_User_function_c* user_fn, int commute, MPI_Op* op) {
  return op_create("MPI_Op_create_c", user_fn, commute, op);
}

int PMPI_Op_free(MPI_Op* op) {
  constexpr const char* fn = "MPI_Op_free";
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_CHECK(MPI_COMM_WORLD, fn, capi::check_not_null(op, "op"));
  return capi::report(MPI_COMM_WORLD, fn, world().ops.free(op));
}

int PMPI_Op_commutative(MPI_Op op, int* commute) {
  constexpr const char* fn = "MPI_Op_commutative";
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_CHECK(MPI_COMM_WORLD, fn, capi::check_not_null(commute, "commute"));
  bool commutative = true;
  WEFT_CHECK(MPI_COMM_WORLD, fn, world().ops.commutative(op, "op", &commutative));
  *commute = commutative ? 1 : 0;
  return MPI_SUCCESS;
}

int PMPI_Reduce_local(const void* inbuf, void* inoutbuf, int count, MPI_Datatype datatype,
                      MPI_Op op) {
  return reduce_local("MPI_Reduce_local", inbuf, inoutbuf, count, datatype, op);
}
int PMPI_Reduce_local_c(const void* inbuf, void* inoutbuf, MPI_Count count, MPI_Datatype datatype,
                        MPI_Op op) {
  return reduce_local("MPI_Reduce_local_c", inbuf, inoutbuf, count, datatype, op);
}

}  // extern "C"

// The profiling interface: each MPI_X is a weak alias of PMPI_X (runtime/c_api/guard.hpp).
WEFT_MPI_ALIAS(MPI_Op_create)
WEFT_MPI_ALIAS(MPI_Op_create_c)
WEFT_MPI_ALIAS(MPI_Op_free)
WEFT_MPI_ALIAS(MPI_Op_commutative)
WEFT_MPI_ALIAS(MPI_Reduce_local)
WEFT_MPI_ALIAS(MPI_Reduce_local_c)
