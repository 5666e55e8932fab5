// Collective chapter, reductions: reduce, allreduce, reduce-scatter(-block), scan and exscan in
// their blocking, nonblocking (MPI_I*) and persistent (MPI_*_init) forms; MPI_Reduce_local and
// the MPI_Op calls.
#include <numeric>

#include "runtime/c_api/coll_call.hpp"

using weft::Status;
using weft::world;
using weft::coll::Block;
using weft::coll::CallSpec;
using weft::coll::CollKind;
namespace capi = weft::capi;
using capi::Form;

namespace {

// The parts every reduction shares: the vector's datatype, the op bound to it, the binding of
// the input. `in_place_ok`: whether this rank may pass MPI_IN_PLACE as sendbuf. The output is
// bound by the caller (the root's only, for MPI_Reduce).
// The vector's count, datatype and op (all a reduce's root on an intercommunicator passes).
Status reduction_of(MPI_Count count, MPI_Datatype type, MPI_Op op, CallSpec* spec,
                    const weft::Datatype** t) {
  WEFT_TRY(capi::check_count(count, "count"));
  WEFT_TRY(weft::find_committed_datatype(type, "datatype", t));
  WEFT_TRY(world().ops.bind(op, **t, &spec->reduction));
  spec->args.elem_size = spec->reduction.elem_size;
  spec->args.bytes = size_t(count) * (*t)->size();
  spec->args.commutative = spec->reduction.commutative;
  return Status::success();
}

Status reduction_call(const void* sendbuf, MPI_Count count, MPI_Datatype type, MPI_Op op,
                      bool in_place_ok, CallSpec* spec, const weft::Datatype** t) {
  WEFT_TRY(reduction_of(count, type, op, spec, t));
  WEFT_TRY(capi::check_coll_buffer(sendbuf, size_t(count), *t, "sendbuf", in_place_ok));
  spec->args.in_place = sendbuf == MPI_IN_PLACE;
  if (!spec->args.in_place) {
    spec->binding.send = capi::place_single(sendbuf, count, *t, &spec->send_typed);
  }
  return Status::success();
}

// Binds the output of `count` elements of `t` at `recvbuf`, and the input to it when in place.
Status bind_output(void* recvbuf, MPI_Count count, const weft::Datatype* t, const void* sendbuf,
                   CallSpec* spec) {
  WEFT_TRY(capi::check_coll_buffer(recvbuf, size_t(count), t, "recvbuf", false));
  WEFT_TRY(capi::check_not_aliased(sendbuf, recvbuf, spec->args.bytes));
  spec->binding.recv = capi::place_single(recvbuf, count, t, &spec->recv_typed);
  if (!spec->args.in_place) return Status::success();
  if (spec->recv_typed.empty()) {
    spec->binding.send = spec->binding.recv;
  } else {
    spec->send_in_packed_recv = 0;
  }
  return Status::success();
}

int reduce(const char* fn, const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype type,
           MPI_Op op, int root, MPI_Comm comm, Form form, MPI_Request* request) {
  WEFT_REQUIRE_RUNNING(fn);
  if (Status s; form == Form::kBlocking &&
                weft::coll::short_reduce(sendbuf, recvbuf, count, type, op, root, comm, &s))
    return capi::report(comm, fn, s);
  weft::Comm* c = nullptr;
  WEFT_CHECK(comm, fn, capi::collective_comm(comm, &c));
  WEFT_CHECK(comm, fn, capi::check_root(*c, root));
  if (capi::sits_out(*c, root))
    return capi::launch_idle(fn, comm, *c, CollKind::kReduce, form, request);
  const bool is_root = capi::is_root(*c, root);
  CallSpec spec;
  const weft::Datatype* t = nullptr;
  if (c->is_inter() && is_root) {  // the root only receives the other group's result
    WEFT_CHECK(comm, fn, reduction_of(count, type, op, &spec, &t));
    WEFT_CHECK(comm, fn, bind_output(recvbuf, count, t, nullptr, &spec));
  } else {
    WEFT_CHECK(comm, fn,
               reduction_call(sendbuf, count, type, op, is_root && !c->is_inter(), &spec, &t));
    if (is_root) WEFT_CHECK(comm, fn, bind_output(recvbuf, count, t, sendbuf, &spec));
  }
  capi::describe(spec, count, t, op, spec.args.in_place);
  spec.args.kind = CollKind::kReduce;
  spec.args.root = root;
  return capi::launch(fn, comm, *c, spec, form, request);
}

// MPI_Allreduce, MPI_Scan and MPI_Exscan: same arguments, every rank gets a result.
int everyone(const char* fn, CollKind kind, const void* sendbuf, void* recvbuf, MPI_Count count,
             MPI_Datatype type, MPI_Op op, MPI_Comm comm, Form form, MPI_Request* request) {
  WEFT_REQUIRE_RUNNING(fn);
  if (Status s; form == Form::kBlocking && kind == CollKind::kAllreduce &&
                weft::coll::short_allreduce(sendbuf, recvbuf, count, type, op, comm, &s))
    return capi::report(comm, fn, s);
  weft::Comm* c = nullptr;
  if (kind == CollKind::kAllreduce) {
    WEFT_CHECK(comm, fn, capi::collective_comm(comm, &c));
  } else {  // scans are defined on intracommunicators only
    WEFT_CHECK(comm, fn, capi::intra_comm_arg(comm, "comm", &c));
  }
  CallSpec spec;
  const weft::Datatype* t = nullptr;
  WEFT_CHECK(comm, fn, reduction_call(sendbuf, count, type, op, !c->is_inter(), &spec, &t));
  WEFT_CHECK(comm, fn, bind_output(recvbuf, count, t, sendbuf, &spec));
  capi::describe(spec, count, t, op, spec.args.in_place);
  spec.args.kind = kind;
  return capi::launch(fn, comm, *c, spec, form, request);
}

// MPI_Reduce_scatter (counts non-null) and MPI_Reduce_scatter_block (`count` each).
int reduce_scatter(const char* fn, const void* sendbuf, void* recvbuf, MPI_Count count,
                   capi::CountArray counts, MPI_Datatype type, MPI_Op op, MPI_Comm comm, Form form,
                   MPI_Request* request) {
  WEFT_REQUIRE_RUNNING(fn);
  if (Status s; form == Form::kBlocking && counts.data() == nullptr &&
                weft::coll::short_reduce_scatter_block(sendbuf, recvbuf, count, type, op, comm, &s))
    return capi::report(comm, fn, s);
  weft::Comm* c = nullptr;
  WEFT_CHECK(comm, fn, capi::collective_comm(comm, &c));
  std::vector<MPI_Count> block_counts(size_t(c->size), count);
  if (counts.data() != nullptr) {
    for (int i = 0; i < c->size; ++i) {
      WEFT_CHECK(
          comm, fn,
          capi::check_count(counts[size_t(i)], ("recvcounts[" + std::to_string(i) + "]").c_str()));
      block_counts[size_t(i)] = counts[size_t(i)];
    }
  } else {
    WEFT_CHECK(comm, fn, capi::check_count(count, "recvcount"));
  }
  const MPI_Count total = std::accumulate(block_counts.begin(), block_counts.end(), MPI_Count(0));
  CallSpec spec;
  const weft::Datatype* t = nullptr;
  WEFT_CHECK(comm, fn, reduction_call(sendbuf, total, type, op, !c->is_inter(), &spec, &t));
  // Blocks in the input, which is contiguous in the schedule's view (packed if need be).
  size_t at = 0;
  for (MPI_Count n : block_counts) {
    spec.args.blocks.push_back({at, size_t(n) * t->size()});
    at += size_t(n) * t->size();
  }
  // In place, the input fills recvbuf and the result lands at its start.
  const MPI_Count out_count = spec.args.in_place ? total : block_counts[size_t(c->rank)];
  WEFT_CHECK(comm, fn, bind_output(recvbuf, out_count, t, sendbuf, &spec));
  spec.args.uniform = counts.data() == nullptr;
  capi::describe(spec, counts.data() != nullptr ? -1 : count, t, op, spec.args.in_place);
  spec.args.kind = CollKind::kReduceScatter;
  return capi::launch(fn, comm, *c, spec, form, request);
}

}  // namespace

extern "C" {

int PMPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                int root, MPI_Comm comm) {
  return reduce("MPI_Reduce", sendbuf, recvbuf, count, datatype, op, root, comm, Form::kBlocking,
                nullptr);
}
int PMPI_Ireduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                 int root, MPI_Comm comm, MPI_Request* request) {
  return reduce("MPI_Ireduce", sendbuf, recvbuf, count, datatype, op, root, comm,
                Form::kNonblocking, request);
}
int PMPI_Reduce_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, int root, MPI_Comm comm, MPI_Info, MPI_Request* request) {
  return reduce("MPI_Reduce_init", sendbuf, recvbuf, count, datatype, op, root, comm,
                Form::kPersistent, request);
}

int PMPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm) {
  return everyone("MPI_Allreduce", CollKind::kAllreduce, sendbuf, recvbuf, count, datatype, op,
                  comm, Form::kBlocking, nullptr);
}
int PMPI_Iallreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                    MPI_Comm comm, MPI_Request* request) {
  return everyone("MPI_Iallreduce", CollKind::kAllreduce, sendbuf, recvbuf, count, datatype, op,
                  comm, Form::kNonblocking, request);
}
int PMPI_Allreduce_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                        MPI_Op op, MPI_Comm comm, MPI_Info, MPI_Request* request) {
  return everyone("MPI_Allreduce_init", CollKind::kAllreduce, sendbuf, recvbuf, count, datatype, op,
                  comm, Form::kPersistent, request);
}

int PMPI_Scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
              MPI_Comm comm) {
  return everyone("MPI_Scan", CollKind::kScan, sendbuf, recvbuf, count, datatype, op, comm,
                  Form::kBlocking, nullptr);
}
int PMPI_Iscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               MPI_Comm comm, MPI_Request* request) {
  return everyone("MPI_Iscan", CollKind::kScan, sendbuf, recvbuf, count, datatype, op, comm,
                  Form::kNonblocking, request);
}
int PMPI_Scan_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm, MPI_Info, MPI_Request* request) {
  return everyone("MPI_Scan_init", CollKind::kScan, sendbuf, recvbuf, count, datatype, op, comm,
                  Form::kPersistent, request);
}

int PMPI_Exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                MPI_Comm comm) {
  return everyone("MPI_Exscan", CollKind::kExscan, sendbuf, recvbuf, count, datatype, op, comm,
                  Form::kBlocking, nullptr);
}
int PMPI_Iexscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                 MPI_Comm comm, MPI_Request* request) {
  return everyone("MPI_Iexscan", CollKind::kExscan, sendbuf, recvbuf, count, datatype, op, comm,
                  Form::kNonblocking, request);
}
int PMPI_Exscan_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm, MPI_Info, MPI_Request* request) {
  return everyone("MPI_Exscan_init", CollKind::kExscan, sendbuf, recvbuf, count, datatype, op, comm,
                  Form::kPersistent, request);
}

int PMPI_Reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[],
                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  constexpr const char* fn = "MPI_Reduce_scatter";
  WEFT_CHECK(comm, fn, capi::check_not_null(recvcounts, "recvcounts"));
  return reduce_scatter(fn, sendbuf, recvbuf, 0, recvcounts, datatype, op, comm, Form::kBlocking,
                        nullptr);
}
int PMPI_Ireduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[],
                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request* request) {
  constexpr const char* fn = "MPI_Ireduce_scatter";
  WEFT_CHECK(comm, fn, capi::check_not_null(recvcounts, "recvcounts"));
  return reduce_scatter(fn, sendbuf, recvbuf, 0, recvcounts, datatype, op, comm, Form::kNonblocking,
                        request);
}
int PMPI_Reduce_scatter_init(const void* sendbuf, void* recvbuf, const int recvcounts[],
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info,
                             MPI_Request* request) {
  constexpr const char* fn = "MPI_Reduce_scatter_init";
  WEFT_CHECK(comm, fn, capi::check_not_null(recvcounts, "recvcounts"));
  return reduce_scatter(fn, sendbuf, recvbuf, 0, recvcounts, datatype, op, comm, Form::kPersistent,
                        request);
}

int PMPI_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return reduce_scatter("MPI_Reduce_scatter_block", sendbuf, recvbuf, recvcount, nullptr, datatype,
                        op, comm, Form::kBlocking, nullptr);
}
int PMPI_Ireduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount,
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                               MPI_Request* request) {
  return reduce_scatter("MPI_Ireduce_scatter_block", sendbuf, recvbuf, recvcount, nullptr, datatype,
                        op, comm, Form::kNonblocking, request);
}
int PMPI_Reduce_scatter_block_init(const void* sendbuf, void* recvbuf, int recvcount,
                                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info,
                                   MPI_Request* request) {
  return reduce_scatter("MPI_Reduce_scatter_block_init", sendbuf, recvbuf, recvcount, nullptr,
                        datatype, op, comm, Form::kPersistent, request);
}

// The large-count (_c) forms: MPI_Count counts and MPI_Aint displacements, same path.
int PMPI_Reduce_c(const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype,
                  MPI_Op op, int root, MPI_Comm comm) {
  return reduce("MPI_Reduce_c", sendbuf, recvbuf, count, datatype, op, root, comm, Form::kBlocking,
                nullptr);
}
int PMPI_Ireduce_c(const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype,
                   MPI_Op op, int root, MPI_Comm comm, MPI_Request* request) {
  return reduce("MPI_Ireduce_c", sendbuf, recvbuf, count, datatype, op, root, comm,
                Form::kNonblocking, request);
}
int PMPI_Reduce_init_c(const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype,
                       MPI_Op op, int root, MPI_Comm comm, MPI_Info, MPI_Request* request) {
  return reduce("MPI_Reduce_init_c", sendbuf, recvbuf, count, datatype, op, root, comm,
                Form::kPersistent, request);
}
int PMPI_Allreduce_c(const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm) {
  return everyone("MPI_Allreduce_c", CollKind::kAllreduce, sendbuf, recvbuf, count, datatype, op,
                  comm, Form::kBlocking, nullptr);
}
int PMPI_Iallreduce_c(const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype,
                      MPI_Op op, MPI_Comm comm, MPI_Request* request) {
  return everyone("MPI_Iallreduce_c", CollKind::kAllreduce, sendbuf, recvbuf, count, datatype, op,
                  comm, Form::kNonblocking, request);
}
int PMPI_Allreduce_init_c(const void* sendbuf, void* recvbuf, MPI_Count count,
                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info,
                          MPI_Request* request) {
  return everyone("MPI_Allreduce_init_c", CollKind::kAllreduce, sendbuf, recvbuf, count, datatype,
                  op, comm, Form::kPersistent, request);
}
int PMPI_Scan_c(const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype,
                MPI_Op op, MPI_Comm comm) {
  return everyone("MPI_Scan_c", CollKind::kScan, sendbuf, recvbuf, count, datatype, op, comm,
                  Form::kBlocking, nullptr);
}
int PMPI_Iscan_c(const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype,
                 MPI_Op op, MPI_Comm comm, MPI_Request* request) {
  return everyone("MPI_Iscan_c", CollKind::kScan, sendbuf, recvbuf, count, datatype, op, comm,
                  Form::kNonblocking, request);
}
int PMPI_Scan_init_c(const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm, MPI_Info, MPI_Request* request) {
  return everyone("MPI_Scan_init_c", CollKind::kScan, sendbuf, recvbuf, count, datatype, op, comm,
                  Form::kPersistent, request);
}
int PMPI_Exscan_c(const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype,
                  MPI_Op op, MPI_Comm comm) {
  return everyone("MPI_Exscan_c", CollKind::kExscan, sendbuf, recvbuf, count, datatype, op, comm,
                  Form::kBlocking, nullptr);
}
int PMPI_Iexscan_c(const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype,
                   MPI_Op op, MPI_Comm comm, MPI_Request* request) {
  return everyone("MPI_Iexscan_c", CollKind::kExscan, sendbuf, recvbuf, count, datatype, op, comm,
                  Form::kNonblocking, request);
}
int PMPI_Exscan_init_c(const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype,
                       MPI_Op op, MPI_Comm comm, MPI_Info, MPI_Request* request) {
  return everyone("MPI_Exscan_init_c", CollKind::kExscan, sendbuf, recvbuf, count, datatype, op,
                  comm, Form::kPersistent, request);
}
int PMPI_Reduce_scatter_c(const void* sendbuf, void* recvbuf, const MPI_Count recvcounts[],
                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return reduce_scatter("MPI_Reduce_scatter_c", sendbuf, recvbuf, 0, recvcounts, datatype, op, comm,
                        Form::kBlocking, nullptr);
}
int PMPI_Ireduce_scatter_c(const void* sendbuf, void* recvbuf, const MPI_Count recvcounts[],
                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request* request) {
  return reduce_scatter("MPI_Ireduce_scatter_c", sendbuf, recvbuf, 0, recvcounts, datatype, op,
                        comm, Form::kNonblocking, request);
}
int PMPI_Reduce_scatter_init_c(const void* sendbuf, void* recvbuf, const MPI_Count recvcounts[],
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info,
                               MPI_Request* request) {
  return reduce_scatter("MPI_Reduce_scatter_init_c", sendbuf, recvbuf, 0, recvcounts, datatype, op,
                        comm, Form::kPersistent, request);
}
int PMPI_Reduce_scatter_block_c(const void* sendbuf, void* recvbuf, MPI_Count recvcount,
                                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return reduce_scatter("MPI_Reduce_scatter_block_c", sendbuf, recvbuf, recvcount, nullptr,
                        datatype, op, comm, Form::kBlocking, nullptr);
}
int PMPI_Ireduce_scatter_block_c(const void* sendbuf, void* recvbuf, MPI_Count recvcount,
                                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                 MPI_Request* request) {
  return reduce_scatter("MPI_Ireduce_scatter_block_c", sendbuf, recvbuf, recvcount, nullptr,
                        datatype, op, comm, Form::kNonblocking, request);
}
int PMPI_Reduce_scatter_block_init_c(const void* sendbuf, void* recvbuf, MPI_Count recvcount,
                                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info,
                                     MPI_Request* request) {
  return reduce_scatter("MPI_Reduce_scatter_block_init_c", sendbuf, recvbuf, recvcount, nullptr,
                        datatype, op, comm, Form::kPersistent, request);
}

}  // extern "C"

// The profiling interface: each MPI_X is a weak alias of PMPI_X (runtime/c_api/guard.hpp).
WEFT_MPI_ALIAS(MPI_Reduce)
WEFT_MPI_ALIAS(MPI_Ireduce)
WEFT_MPI_ALIAS(MPI_Reduce_init)
WEFT_MPI_ALIAS(MPI_Allreduce)
WEFT_MPI_ALIAS(MPI_Iallreduce)
WEFT_MPI_ALIAS(MPI_Allreduce_init)
WEFT_MPI_ALIAS(MPI_Scan)
WEFT_MPI_ALIAS(MPI_Iscan)
WEFT_MPI_ALIAS(MPI_Scan_init)
WEFT_MPI_ALIAS(MPI_Exscan)
WEFT_MPI_ALIAS(MPI_Iexscan)
WEFT_MPI_ALIAS(MPI_Exscan_init)
WEFT_MPI_ALIAS(MPI_Reduce_scatter)
WEFT_MPI_ALIAS(MPI_Ireduce_scatter)
WEFT_MPI_ALIAS(MPI_Reduce_scatter_init)
WEFT_MPI_ALIAS(MPI_Reduce_scatter_block)
WEFT_MPI_ALIAS(MPI_Ireduce_scatter_block)
WEFT_MPI_ALIAS(MPI_Reduce_scatter_block_init)
WEFT_MPI_ALIAS(MPI_Reduce_c)
WEFT_MPI_ALIAS(MPI_Ireduce_c)
WEFT_MPI_ALIAS(MPI_Reduce_init_c)
WEFT_MPI_ALIAS(MPI_Allreduce_c)
WEFT_MPI_ALIAS(MPI_Iallreduce_c)
WEFT_MPI_ALIAS(MPI_Allreduce_init_c)
WEFT_MPI_ALIAS(MPI_Scan_c)
WEFT_MPI_ALIAS(MPI_Iscan_c)
WEFT_MPI_ALIAS(MPI_Scan_init_c)
WEFT_MPI_ALIAS(MPI_Exscan_c)
WEFT_MPI_ALIAS(MPI_Iexscan_c)
WEFT_MPI_ALIAS(MPI_Exscan_init_c)
WEFT_MPI_ALIAS(MPI_Reduce_scatter_c)
WEFT_MPI_ALIAS(MPI_Ireduce_scatter_c)
WEFT_MPI_ALIAS(MPI_Reduce_scatter_init_c)
WEFT_MPI_ALIAS(MPI_Reduce_scatter_block_c)
WEFT_MPI_ALIAS(MPI_Ireduce_scatter_block_c)
WEFT_MPI_ALIAS(MPI_Reduce_scatter_block_init_c)
