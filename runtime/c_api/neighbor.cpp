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

// MPI_Neighbor_allgather (`recvcount` each) and MPI_Neighbor_allgatherv (`vector`).
int allgather(const char* fn, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
              void* recvbuf, int recvcount, bool vector, const int* recvcounts, const int* displs,
              MPI_Datatype recvtype, MPI_Comm comm, Form form, MPI_Request* request) {
  WEFT_REQUIRE_RUNNING(fn);
  weft::Comm* c = nullptr;
  CallSpec spec;
  CollArgs& a = spec.args;
  a.kind = CollKind::kNeighborAllgather;
  WEFT_CHECK(comm, fn, neighborhood(comm, &c, &a));
  const int indegree = int(a.sources.size());
  const weft::Datatype *st = nullptr, *rt = nullptr;
  WEFT_CHECK(comm, fn,
             capi::check_typed(sendbuf, sendcount, sendtype, "sendbuf", "sendcount", "sendtype",
                               false, &st));
  WEFT_CHECK(comm, fn, weft::find_committed_datatype(recvtype, "recvtype", &rt));
  std::vector<capi::UserBlock> side;
  if (vector) {
    WEFT_CHECK(comm, fn,
               capi::vector_side(indegree, recvcounts, displs, rt, nullptr, "recvcounts", "displs",
                                 "", &side));
  } else {
    WEFT_CHECK(comm, fn, capi::check_count(recvcount, "recvcount"));
    side = capi::regular_side(indegree, recvcount, rt);
  }
  size_t total = 0;
  for (const capi::UserBlock& b : side) total += b.bytes();
  WEFT_CHECK(comm, fn, capi::check_coll_buffer(recvbuf, total, rt, "recvbuf", false));
  a.bytes = size_t(sendcount) * st->size();
  a.recv_blocks = capi::place_blocks(side, &spec.recv_typed);
  spec.binding.send = capi::place_single(sendbuf, sendcount, st, &spec.send_typed);
  spec.binding.recv = recvbuf;
  return capi::launch(fn, comm, *c, spec, form, request);
}

// One side of a neighbourhood all-to-all: regular (`count` of `type` per block), v (counts and
// displacements in extents of `type`) or w (counts of types[i] at byte displacements).
struct Side {
  enum class Shape { kRegular, kVector, kTyped } shape;
  const void* buf;  // the receive side's is written to
  int count;
  const int* counts;
  capi::CountArray displs;
  MPI_Datatype type;
  const MPI_Datatype* types;
};

// The blocks of a side with `n` neighbours, placed for the schedule (packed into `typed` when
// the datatypes are not contiguous).
Status place_side(const Side& s, int n, const std::string& which, weft::coll::TypedBuffer* typed,
                  std::vector<Block>* out) {
  const std::string displs = which == "send" ? "sdispls" : "rdispls";
  const weft::Datatype* t = nullptr;
  if (s.shape != Side::Shape::kTyped) {
    WEFT_TRY(weft::find_committed_datatype(s.type, (which + "type").c_str(), &t));
  }
  std::vector<capi::UserBlock> side;
  if (s.shape == Side::Shape::kRegular) {
    WEFT_TRY(capi::check_count(s.count, (which + "count").c_str()));
    side = capi::regular_side(n, s.count, t);
  } else {
    WEFT_TRY(capi::vector_side(
        n, s.counts, s.displs, t, s.shape == Side::Shape::kTyped ? s.types : nullptr,
        (which + "counts").c_str(), displs.c_str(), (which + "types").c_str(), &side));
  }
  size_t total = 0;
  for (const capi::UserBlock& b : side) total += b.bytes();
  const weft::Datatype* any = side.empty() ? t : side[0].type;
  WEFT_TRY(capi::check_coll_buffer(s.buf, total, any, (which + "buf").c_str(), false));
  *out = capi::place_blocks(side, typed);
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
  WEFT_CHECK(
      comm, fn,
      place_side(send, int(a.destinations.size()), "send", &spec.send_typed, &a.send_blocks));
  WEFT_CHECK(comm, fn,
             place_side(recv, int(a.sources.size()), "recv", &spec.recv_typed, &a.recv_blocks));
  spec.binding.send = send.buf;
  spec.binding.recv = const_cast<void*>(recv.buf);
  return capi::launch(fn, comm, *c, spec, form, request);
}

Side regular_side(const void* buf, int count, MPI_Datatype type) {
  return {Side::Shape::kRegular, buf, count, nullptr, nullptr, type, nullptr};
}
Side vector_side(const void* buf, const int* counts, const int* displs, MPI_Datatype type) {
  return {Side::Shape::kVector, buf, 0, counts, displs, type, nullptr};
}
Side typed_side(const void* buf, const int* counts, const MPI_Aint* displs,
                const MPI_Datatype* types) {
  return {Side::Shape::kTyped, buf, 0, counts, displs, MPI_DATATYPE_NULL, types};
}

}  // namespace

extern "C" {

int PMPI_Neighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                            void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  return allgather("MPI_Neighbor_allgather", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                   false, nullptr, nullptr, recvtype, comm, Form::kBlocking, nullptr);
}
int PMPI_Ineighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                             void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request* request) {
  return allgather("MPI_Ineighbor_allgather", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                   false, nullptr, nullptr, recvtype, comm, Form::kNonblocking, request);
}
int PMPI_Neighbor_allgather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                 void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                 MPI_Info, MPI_Request* request) {
  return allgather("MPI_Neighbor_allgather_init", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                   false, nullptr, nullptr, recvtype, comm, Form::kPersistent, request);
}

int PMPI_Neighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                             void* recvbuf, const int* recvcounts, const int* displs,
                             MPI_Datatype recvtype, MPI_Comm comm) {
  return allgather("MPI_Neighbor_allgatherv", sendbuf, sendcount, sendtype, recvbuf, 0, true,
                   recvcounts, displs, recvtype, comm, Form::kBlocking, nullptr);
}
int PMPI_Ineighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                              void* recvbuf, const int* recvcounts, const int* displs,
                              MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  return allgather("MPI_Ineighbor_allgatherv", sendbuf, sendcount, sendtype, recvbuf, 0, true,
                   recvcounts, displs, recvtype, comm, Form::kNonblocking, request);
}
int PMPI_Neighbor_allgatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                  void* recvbuf, const int* recvcounts, const int* displs,
                                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Info,
                                  MPI_Request* request) {
  return allgather("MPI_Neighbor_allgatherv_init", sendbuf, sendcount, sendtype, recvbuf, 0, true,
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
