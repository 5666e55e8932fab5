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

// The parts every reduction shares: communicator, vector size and the op bound to the type.
// `in_place_ok`: whether this rank may pass MPI_IN_PLACE as sendbuf.
Status reduction_call(MPI_Comm comm, const void* sendbuf, void* recvbuf, MPI_Count count,
                      MPI_Datatype type, MPI_Op op, bool in_place_ok, weft::Comm** c,
                      CallSpec* spec) {
  WEFT_TRY(capi::collective_comm(comm, c));
  WEFT_TRY(capi::check_count(count, "count"));
  size_t elem = 1;
  WEFT_TRY(capi::element_size(type, "datatype", &elem));
  WEFT_TRY(capi::bind_op(op, type, elem, &spec->reduction));
  WEFT_TRY(capi::check_coll_buffer(sendbuf, size_t(count), "sendbuf", in_place_ok));
  spec->args.elem_size = elem;
  spec->args.bytes = size_t(count) * elem;
  spec->args.commutative = spec->reduction.commutative;
  spec->args.in_place = sendbuf == MPI_IN_PLACE;
  spec->binding.send = spec->args.in_place ? recvbuf : sendbuf;
  spec->binding.recv = recvbuf;
  return Status::success();
}

int reduce(const char* fn, const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype type,
           MPI_Op op, int root, MPI_Comm comm, Form form, MPI_Request* request) {
  WEFT_REQUIRE_RUNNING(fn);
  weft::Comm* c = nullptr;
  CallSpec spec;
  WEFT_CHECK(comm, fn, capi::collective_comm(comm, &c));
  WEFT_CHECK(comm, fn, capi::check_root(*c, root));
  const bool is_root = c->rank == root;
  WEFT_CHECK(comm, fn, reduction_call(comm, sendbuf, recvbuf, count, type, op, is_root, &c, &spec));
  if (is_root) {
    WEFT_CHECK(comm, fn, capi::check_coll_buffer(recvbuf, size_t(count), "recvbuf", false));
    WEFT_CHECK(comm, fn, capi::check_not_aliased(sendbuf, recvbuf, spec.args.bytes));
  }
  spec.args.kind = CollKind::kReduce;
  spec.args.root = root;
  return capi::launch(fn, comm, *c, spec, form, request);
}

// MPI_Allreduce, MPI_Scan and MPI_Exscan: same arguments, every rank gets a result.
int everyone(const char* fn, CollKind kind, const void* sendbuf, void* recvbuf, MPI_Count count,
             MPI_Datatype type, MPI_Op op, MPI_Comm comm, Form form, MPI_Request* request) {
  WEFT_REQUIRE_RUNNING(fn);
  weft::Comm* c = nullptr;
  CallSpec spec;
  WEFT_CHECK(comm, fn, reduction_call(comm, sendbuf, recvbuf, count, type, op, true, &c, &spec));
  WEFT_CHECK(comm, fn, capi::check_coll_buffer(recvbuf, size_t(count), "recvbuf", false));
  WEFT_CHECK(comm, fn, capi::check_not_aliased(sendbuf, recvbuf, spec.args.bytes));
  spec.args.kind = kind;
  return capi::launch(fn, comm, *c, spec, form, request);
}

// MPI_Reduce_scatter (counts non-null) and MPI_Reduce_scatter_block (`count` each).
int reduce_scatter(const char* fn, const void* sendbuf, void* recvbuf, MPI_Count count,
                   capi::CountArray counts, MPI_Datatype type, MPI_Op op, MPI_Comm comm, Form form,
                   MPI_Request* request) {
  WEFT_REQUIRE_RUNNING(fn);
  weft::Comm* c = nullptr;
  WEFT_CHECK(comm, fn, capi::collective_comm(comm, &c));
  std::vector<MPI_Count> block_counts(size_t(c->size), count);
  if (counts.data() != nullptr) {
    for (size_t i = 0; i < block_counts.size(); ++i) block_counts[i] = counts[i];
  } else {
    WEFT_CHECK(comm, fn, capi::check_count(count, "recvcount"));
  }
  std::vector<MPI_Count> displs(size_t(c->size), 0);
  for (int i = 1; i < c->size; ++i) displs[size_t(i)] = displs[size_t(i - 1)] + block_counts[size_t(i - 1)];
  const long long total = std::accumulate(block_counts.begin(), block_counts.end(), 0LL);
  CallSpec spec;
  WEFT_CHECK(comm, fn, capi::vector_blocks(c->size, block_counts.data(), displs.data(), 1,
                                           "recvcounts", "displs", &spec.args.blocks));
  WEFT_CHECK(comm, fn, reduction_call(comm, sendbuf, recvbuf, total, type, op, true, &c, &spec));
  WEFT_CHECK(comm, fn, capi::check_coll_buffer(
                           recvbuf, spec.args.in_place ? size_t(total) : size_t(block_counts[size_t(c->rank)]),
                           "recvbuf", false));
  WEFT_CHECK(comm, fn, capi::check_not_aliased(sendbuf, recvbuf, spec.args.bytes));
  for (Block& b : spec.args.blocks) {  // counts to bytes
    b.offset *= spec.args.elem_size;
    b.bytes *= spec.args.elem_size;
  }
  spec.args.uniform = counts.data() == nullptr;
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
int PMPI_Iallreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                   MPI_Op op, MPI_Comm comm, MPI_Request* request) {
  return everyone("MPI_Iallreduce", CollKind::kAllreduce, sendbuf, recvbuf, count, datatype, op,
                  comm, Form::kNonblocking, request);
}
int PMPI_Allreduce_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                       MPI_Op op, MPI_Comm comm, MPI_Info, MPI_Request* request) {
  return everyone("MPI_Allreduce_init", CollKind::kAllreduce, sendbuf, recvbuf, count, datatype,
                  op, comm, Form::kPersistent, request);
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
  return everyone("MPI_Exscan_init", CollKind::kExscan, sendbuf, recvbuf, count, datatype, op,
                  comm, Form::kPersistent, request);
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
  return reduce_scatter(fn, sendbuf, recvbuf, 0, recvcounts, datatype, op, comm,
                        Form::kNonblocking, request);
}
int PMPI_Reduce_scatter_init(const void* sendbuf, void* recvbuf, const int recvcounts[],
                            MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info,
                            MPI_Request* request) {
  constexpr const char* fn = "MPI_Reduce_scatter_init";
  WEFT_CHECK(comm, fn, capi::check_not_null(recvcounts, "recvcounts"));
  return reduce_scatter(fn, sendbuf, recvbuf, 0, recvcounts, datatype, op, comm,
                        Form::kPersistent, request);
}

int PMPI_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount,
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return reduce_scatter("MPI_Reduce_scatter_block", sendbuf, recvbuf, recvcount, nullptr,
                        datatype, op, comm, Form::kBlocking, nullptr);
}
int PMPI_Ireduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                              MPI_Request* request) {
  return reduce_scatter("MPI_Ireduce_scatter_block", sendbuf, recvbuf, recvcount, nullptr,
                        datatype, op, comm, Form::kNonblocking, request);
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
