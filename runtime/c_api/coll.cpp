// Collective chapter, barrier and broadcast, each in its blocking, nonblocking (MPI_I*) and
// persistent (MPI_*_init) form (gather and scatter: coll_rooted.cpp).
#include <algorithm>

#include "runtime/c_api/coll_call.hpp"

using weft::Status;
using weft::coll::CallSpec;
using weft::coll::CollKind;
namespace capi = weft::capi;
using capi::Form;

namespace {

int barrier(const char* fn, MPI_Comm comm, Form form, MPI_Request* request) {
  WEFT_REQUIRE_RUNNING(fn);
  if (Status s; form == Form::kBlocking && weft::coll::short_barrier(comm, &s))
    return capi::report(comm, fn, s);
  weft::Comm* c = nullptr;
  WEFT_CHECK(comm, fn, capi::collective_comm(comm, &c));
  CallSpec spec;
  spec.args.kind = CollKind::kBarrier;
  return capi::launch(fn, comm, *c, spec, form, request);
}

int bcast(const char* fn, void* buffer, MPI_Count count, MPI_Datatype type, int root, MPI_Comm comm,
          Form form, MPI_Request* request) {
  WEFT_REQUIRE_RUNNING(fn);
  if (Status s;
      form == Form::kBlocking && weft::coll::short_bcast(buffer, count, type, root, comm, &s))
    return capi::report(comm, fn, s);
  weft::Comm* c = nullptr;
  WEFT_CHECK(comm, fn, capi::collective_comm(comm, &c));
  WEFT_CHECK(comm, fn, capi::check_root(*c, root));
  if (capi::sits_out(*c, root))
    return capi::launch_idle(fn, comm, *c, CollKind::kBcast, form, request);
  const weft::Datatype* t = nullptr;
  WEFT_CHECK(comm, fn,
             capi::check_typed(buffer, count, type, "buffer", "count", "datatype", false, &t));
  CallSpec spec;
  capi::describe(spec, count, t, MPI_OP_NULL, false);
  spec.args.kind = CollKind::kBcast;
  spec.args.root = root;
  spec.args.bytes = size_t(count) * t->size();
  spec.args.elem_size = std::max<size_t>(t->size(), 1);
  spec.binding.recv = capi::place_single(buffer, count, t, &spec.recv_typed);
  return capi::launch(fn, comm, *c, spec, form, request);
}

}  // namespace

extern "C" {

int PMPI_Barrier(MPI_Comm comm) { return barrier("MPI_Barrier", comm, Form::kBlocking, nullptr); }
int PMPI_Ibarrier(MPI_Comm comm, MPI_Request* request) {
  return barrier("MPI_Ibarrier", comm, Form::kNonblocking, request);
}
int PMPI_Barrier_init(MPI_Comm comm, MPI_Info, MPI_Request* request) {
  return barrier("MPI_Barrier_init", comm, Form::kPersistent, request);
}

int PMPI_Bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  return bcast("MPI_Bcast", buffer, count, datatype, root, comm, Form::kBlocking, nullptr);
}
int PMPI_Ibcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                MPI_Request* request) {
  return bcast("MPI_Ibcast", buffer, count, datatype, root, comm, Form::kNonblocking, request);
}
int PMPI_Bcast_init(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                    MPI_Info, MPI_Request* request) {
  return bcast("MPI_Bcast_init", buffer, count, datatype, root, comm, Form::kPersistent, request);
}

// The large-count (_c) forms: MPI_Count counts and MPI_Aint displacements, same path.
int PMPI_Bcast_c(void* buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  return bcast("MPI_Bcast_c", buffer, count, datatype, root, comm, Form::kBlocking, nullptr);
}
int PMPI_Ibcast_c(void* buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                  MPI_Request* request) {
  return bcast("MPI_Ibcast_c", buffer, count, datatype, root, comm, Form::kNonblocking, request);
}
int PMPI_Bcast_init_c(void* buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                      MPI_Info, MPI_Request* request) {
  return bcast("MPI_Bcast_init_c", buffer, count, datatype, root, comm, Form::kPersistent, request);
}

}  // extern "C"

// The profiling interface: each MPI_X is a weak alias of PMPI_X (runtime/c_api/guard.hpp).
WEFT_MPI_ALIAS(MPI_Barrier)
WEFT_MPI_ALIAS(MPI_Ibarrier)
WEFT_MPI_ALIAS(MPI_Barrier_init)
WEFT_MPI_ALIAS(MPI_Bcast)
WEFT_MPI_ALIAS(MPI_Ibcast)
WEFT_MPI_ALIAS(MPI_Bcast_init)
WEFT_MPI_ALIAS(MPI_Bcast_c)
WEFT_MPI_ALIAS(MPI_Ibcast_c)
WEFT_MPI_ALIAS(MPI_Bcast_init_c)
