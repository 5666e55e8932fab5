// Neighbourhood collectives (MPI 4.0 §8.6-§8.8): MPI_Neighbor_allgather(v) and
// MPI_Neighbor_alltoall(v,w), each blocking, nonblocking (MPI_Ineighbor_*) and persistent
// (MPI_Neighbor_*_init), on a communicator with any process topology.
#include <algorithm>
#include <string>

#include "runtime/c_api/coll_call.hpp"
#include "runtime/topology_virtual.hpp"

using weft::Status;
using weft::coll::Block;
using weft::coll::CallSpec;
using weft::coll::CollArgs;
using weft::coll::CollKind;
namespace capi = weft::capi;
namespace topo = weft::topo;
using capi::Form;

namespace {

// The communicator, which must have a process topology; this rank's neighbours go into `a`.
Status neighborhood(MPI_Comm comm, weft::Comm** c, CollArgs* a) {
  WEFT_TRY(capi::collective_comm(comm, c));
  const weft::Topology* t = nullptr;
  WEFT_TRY(topo::topology_of(**c, 0, &t));
  topo::Neighbors n = topo::neighbors_of(*t, (*c)->rank);
  a->sources = std::move(n.sources);
  a->destinations = std::move(n.destinations);
  a->mirrored_pairs = n.cartesian;
  return Status::success();
}

// Bytes from the start of a buffer to the end of its last block.
size_t extent(const std::vector<Block>& blocks) {
  size_t end = 0;
  for (const Block& b : blocks) end = std::max(end, b.offset + b.bytes);
  return end;
}

// `n` blocks of `count` elements of `type`, back to back.
Status regular_blocks(int n, int count, MPI_Datatype type, const char* count_arg,
                      const char* type_arg, std::vector<Block>* out) {
  size_t elem = 1;
  WEFT_TRY(capi::check_count(count, count_arg));
  WEFT_TRY(capi::element_size(type, type_arg, &elem));
  *out = weft::coll::packed_blocks(n, size_t(count) * elem);
  return Status::success();
}

// `n` blocks from counts and displacements in elements of `type` (the v-variants); the arrays
// may be NULL when there are no neighbours.
Status vector_blocks(int n, const int* counts, const int* displs, MPI_Datatype type,
                     const char* counts_arg, const char* displs_arg, const char* type_arg,
                     std::vector<Block>* out) {
  size_t elem = 1;
  WEFT_TRY(capi::element_size(type, type_arg, &elem));
  out->clear();
  if (n == 0) return Status::success();
  return capi::vector_blocks(n, counts, displs, elem, counts_arg, displs_arg, out);
}

// `n` blocks of counts[i] elements of types[i] at byte displacements displs[i] (the w-variant).
Status typed_blocks(int n, const int* counts, const MPI_Aint* displs, const MPI_Datatype* types,
                    const std::string& which, const std::string& displs_arg,
                    std::vector<Block>* out) {
  out->assign(size_t(n), Block{});
  if (n == 0) return Status::success();
  const std::string counts_arg = which + "counts", types_arg = which + "types";
  WEFT_TRY(capi::check_not_null(counts, counts_arg.c_str()));
  WEFT_TRY(capi::check_not_null(displs, displs_arg.c_str()));
  WEFT_TRY(capi::check_not_null(types, types_arg.c_str()));
  for (int i = 0; i < n; ++i) {
    const std::string index = "[" + std::to_string(i) + "]";
    WEFT_TRY(capi::check_count(counts[i], (counts_arg + index).c_str()));
    if (displs[i] < 0) {
      return Status::error(MPI_ERR_ARG, "invalid displacement " + displs_arg + index + "=" +
                                            std::to_string(displs[i]) + " (must be >= 0)");
    }
    size_t elem = 1;
    WEFT_TRY(capi::element_size(types[i], (types_arg + index).c_str(), &elem));
    (*out)[size_t(i)] = {size_t(displs[i]), size_t(counts[i]) * elem};
  }
  return Status::success();
}

// MPI_Neighbor_allgather (counts null: `recvcount` each) and MPI_Neighbor_allgatherv.
int allgather(const char* fn, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
              void* recvbuf, int recvcount, const int* recvcounts, const int* displs,
              MPI_Datatype recvtype, MPI_Comm comm, Form form, MPI_Request* request) {
  WEFT_REQUIRE_RUNNING(fn);
  weft::Comm* c = nullptr;
  CallSpec spec;
  CollArgs& a = spec.args;
  a.kind = CollKind::kNeighborAllgather;
  WEFT_CHECK(comm, fn, neighborhood(comm, &c, &a));
  const int indegree = int(a.sources.size());
  size_t elem = 1;
  WEFT_CHECK(comm, fn,
             capi::check_side(sendbuf, sendcount, sendtype, "sendbuf", "sendcount", "sendtype",
                              false, &a.bytes, &elem));
  if (recvcounts == nullptr && displs == nullptr) {
    WEFT_CHECK(
        comm, fn,
        regular_blocks(indegree, recvcount, recvtype, "recvcount", "recvtype", &a.recv_blocks));
  } else {
    WEFT_CHECK(comm, fn,
               vector_blocks(indegree, recvcounts, displs, recvtype, "recvcounts", "displs",
                             "recvtype", &a.recv_blocks));
  }
  WEFT_CHECK(comm, fn, capi::check_coll_buffer(recvbuf, extent(a.recv_blocks), "recvbuf", false));
  spec.binding.send = sendbuf;
  spec.binding.recv = recvbuf;
  return capi::launch(fn, comm, *c, spec, form, request);
}

// One side of a neighbourhood all-to-all: regular (`count` of `type` per block), v (counts and
// displacements in elements of `type`) or w (counts of types[i] at byte displacements).
struct Side {
  enum class Shape { kRegular, kVector, kTyped } shape;
  const void* buf;  // the receive side's is written to
  int count;
  const int* counts;
  const int* displs;
  const MPI_Aint* byte_displs;
  MPI_Datatype type;
  const MPI_Datatype* types;
};
Status side_blocks(const Side& s, int n, const std::string& which, std::vector<Block>* out) {
  const std::string count = which + "count", counts = which + "counts",
                    displs = (which == "send" ? "sdispls" : "rdispls"), type = which + "type";
  switch (s.shape) {
    case Side::Shape::kRegular:
      return regular_blocks(n, s.count, s.type, count.c_str(), type.c_str(), out);
    case Side::Shape::kVector:
      return vector_blocks(n, s.counts, s.displs, s.type, counts.c_str(), displs.c_str(),
                           type.c_str(), out);
    case Side::Shape::kTyped:
      return typed_blocks(n, s.counts, s.byte_displs, s.types, which, displs, out);
  }
  return Status::success();
}

// MPI_Neighbor_alltoall, MPI_Neighbor_alltoallv and MPI_Neighbor_alltoallw.
int alltoall(const char* fn, const Side& send, const Side& recv, MPI_Comm comm, Form form,
             MPI_Request* request) {
  WEFT_REQUIRE_RUNNING(fn);
  weft::Comm* c = nullptr;
  CallSpec spec;
  CollArgs& a = spec.args;
  a.kind = CollKind::kNeighborAlltoall;
  WEFT_CHECK(comm, fn, neighborhood(comm, &c, &a));
  WEFT_CHECK(comm, fn, side_blocks(send, int(a.destinations.size()), "send", &a.send_blocks));
  WEFT_CHECK(comm, fn, side_blocks(recv, int(a.sources.size()), "recv", &a.recv_blocks));
  WEFT_CHECK(comm, fn, capi::check_coll_buffer(send.buf, extent(a.send_blocks), "sendbuf", false));
  WEFT_CHECK(comm, fn, capi::check_coll_buffer(recv.buf, extent(a.recv_blocks), "recvbuf", false));
  spec.binding.send = send.buf;
  spec.binding.recv = const_cast<void*>(recv.buf);
  return capi::launch(fn, comm, *c, spec, form, request);
}

Side regular_side(const void* buf, int count, MPI_Datatype type) {
  return {Side::Shape::kRegular, buf, count, nullptr, nullptr, nullptr, type, nullptr};
}
Side vector_side(const void* buf, const int* counts, const int* displs, MPI_Datatype type) {
  return {Side::Shape::kVector, buf, 0, counts, displs, nullptr, type, nullptr};
}
Side typed_side(const void* buf, const int* counts, const MPI_Aint* displs,
                const MPI_Datatype* types) {
  return {Side::Shape::kTyped, buf, 0, counts, nullptr, displs, MPI_DATATYPE_NULL, types};
}

}  // namespace

extern "C" {

int PMPI_Neighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                            void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  return allgather("MPI_Neighbor_allgather", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                   nullptr, nullptr, recvtype, comm, Form::kBlocking, nullptr);
}
int PMPI_Ineighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                             void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request* request) {
  return allgather("MPI_Ineighbor_allgather", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                   nullptr, nullptr, recvtype, comm, Form::kNonblocking, request);
}
int PMPI_Neighbor_allgather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                 void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                 MPI_Info, MPI_Request* request) {
  return allgather("MPI_Neighbor_allgather_init", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                   nullptr, nullptr, recvtype, comm, Form::kPersistent, request);
}

int PMPI_Neighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                             void* recvbuf, const int* recvcounts, const int* displs,
                             MPI_Datatype recvtype, MPI_Comm comm) {
  return allgather("MPI_Neighbor_allgatherv", sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts,
                   displs, recvtype, comm, Form::kBlocking, nullptr);
}
int PMPI_Ineighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                              void* recvbuf, const int* recvcounts, const int* displs,
                              MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  return allgather("MPI_Ineighbor_allgatherv", sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts,
                   displs, recvtype, comm, Form::kNonblocking, request);
}
int PMPI_Neighbor_allgatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                  void* recvbuf, const int* recvcounts, const int* displs,
                                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Info,
                                  MPI_Request* request) {
  return allgather("MPI_Neighbor_allgatherv_init", sendbuf, sendcount, sendtype, recvbuf, 0,
                   recvcounts, displs, recvtype, comm, Form::kPersistent, request);
}

int PMPI_Neighbor_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                           int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  return alltoall("MPI_Neighbor_alltoall", regular_side(sendbuf, sendcount, sendtype),
                  regular_side(recvbuf, recvcount, recvtype), comm, Form::kBlocking, nullptr);
}
int PMPI_Ineighbor_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                            void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                            MPI_Request* request) {
  return alltoall("MPI_Ineighbor_alltoall", regular_side(sendbuf, sendcount, sendtype),
                  regular_side(recvbuf, recvcount, recvtype), comm, Form::kNonblocking, request);
}
int PMPI_Neighbor_alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                MPI_Info, MPI_Request* request) {
  return alltoall("MPI_Neighbor_alltoall_init", regular_side(sendbuf, sendcount, sendtype),
                  regular_side(recvbuf, recvcount, recvtype), comm, Form::kPersistent, request);
}

int PMPI_Neighbor_alltoallv(const void* sendbuf, const int* sendcounts, const int* sdispls,
                            MPI_Datatype sendtype, void* recvbuf, const int* recvcounts,
                            const int* rdispls, MPI_Datatype recvtype, MPI_Comm comm) {
  return alltoall("MPI_Neighbor_alltoallv", vector_side(sendbuf, sendcounts, sdispls, sendtype),
                  vector_side(recvbuf, recvcounts, rdispls, recvtype), comm, Form::kBlocking,
                  nullptr);
}
int PMPI_Ineighbor_alltoallv(const void* sendbuf, const int* sendcounts, const int* sdispls,
                             MPI_Datatype sendtype, void* recvbuf, const int* recvcounts,
                             const int* rdispls, MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request* request) {
  return alltoall("MPI_Ineighbor_alltoallv", vector_side(sendbuf, sendcounts, sdispls, sendtype),
                  vector_side(recvbuf, recvcounts, rdispls, recvtype), comm, Form::kNonblocking,
                  request);
}
int PMPI_Neighbor_alltoallv_init(const void* sendbuf, const int* sendcounts, const int* sdispls,
                                 MPI_Datatype sendtype, void* recvbuf, const int* recvcounts,
                                 const int* rdispls, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info,
                                 MPI_Request* request) {
  return alltoall(
      "MPI_Neighbor_alltoallv_init", vector_side(sendbuf, sendcounts, sdispls, sendtype),
      vector_side(recvbuf, recvcounts, rdispls, recvtype), comm, Form::kPersistent, request);
}

int PMPI_Neighbor_alltoallw(const void* sendbuf, const int* sendcounts, const MPI_Aint* sdispls,
                            const MPI_Datatype* sendtypes, void* recvbuf, const int* recvcounts,
                            const MPI_Aint* rdispls, const MPI_Datatype* recvtypes, MPI_Comm comm) {
  return alltoall("MPI_Neighbor_alltoallw", typed_side(sendbuf, sendcounts, sdispls, sendtypes),
                  typed_side(recvbuf, recvcounts, rdispls, recvtypes), comm, Form::kBlocking,
                  nullptr);
}
int PMPI_Ineighbor_alltoallw(const void* sendbuf, const int* sendcounts, const MPI_Aint* sdispls,
                             const MPI_Datatype* sendtypes, void* recvbuf, const int* recvcounts,
                             const MPI_Aint* rdispls, const MPI_Datatype* recvtypes, MPI_Comm comm,
                             MPI_Request* request) {
  return alltoall("MPI_Ineighbor_alltoallw", typed_side(sendbuf, sendcounts, sdispls, sendtypes),
                  typed_side(recvbuf, recvcounts, rdispls, recvtypes), comm, Form::kNonblocking,
                  request);
}
int PMPI_Neighbor_alltoallw_init(const void* sendbuf, const int* sendcounts,
                                 const MPI_Aint* sdispls, const MPI_Datatype* sendtypes,
                                 void* recvbuf, const int* recvcounts, const MPI_Aint* rdispls,
                                 const MPI_Datatype* recvtypes, MPI_Comm comm, MPI_Info,
                                 MPI_Request* request) {
  return alltoall(
      "MPI_Neighbor_alltoallw_init", typed_side(sendbuf, sendcounts, sdispls, sendtypes),
      typed_side(recvbuf, recvcounts, rdispls, recvtypes), comm, Form::kPersistent, request);
}

}  // extern "C"

// The profiling interface: each MPI_X is a weak alias of PMPI_X (runtime/c_api/guard.hpp).
WEFT_MPI_ALIAS(MPI_Neighbor_allgather)
WEFT_MPI_ALIAS(MPI_Ineighbor_allgather)
WEFT_MPI_ALIAS(MPI_Neighbor_allgather_init)
WEFT_MPI_ALIAS(MPI_Neighbor_allgatherv)
WEFT_MPI_ALIAS(MPI_Ineighbor_allgatherv)
WEFT_MPI_ALIAS(MPI_Neighbor_allgatherv_init)
WEFT_MPI_ALIAS(MPI_Neighbor_alltoall)
WEFT_MPI_ALIAS(MPI_Ineighbor_alltoall)
WEFT_MPI_ALIAS(MPI_Neighbor_alltoall_init)
WEFT_MPI_ALIAS(MPI_Neighbor_alltoallv)
WEFT_MPI_ALIAS(MPI_Ineighbor_alltoallv)
WEFT_MPI_ALIAS(MPI_Neighbor_alltoallv_init)
WEFT_MPI_ALIAS(MPI_Neighbor_alltoallw)
WEFT_MPI_ALIAS(MPI_Ineighbor_alltoallw)
WEFT_MPI_ALIAS(MPI_Neighbor_alltoallw_init)
