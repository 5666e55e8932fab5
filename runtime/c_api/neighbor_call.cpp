// The work behind the neighbourhood collectives (runtime/c_api/neighbor_call.hpp): this rank's
// sources and destinations from the communicator's topology, each side's blocks checked and
// placed, then the call handed to coll/ as a blocking, nonblocking or persistent operation.
#include "runtime/c_api/neighbor_call.hpp"

#include <string>

#include "runtime/topology/virtual.hpp"

using weft::coll::Block;
using weft::coll::CallSpec;
using weft::coll::CollArgs;
using weft::coll::CollKind;

namespace weft::capi {
namespace {

// The communicator, which must have a process topology; this rank's neighbours go into `a`.
Status neighborhood(MPI_Comm comm, weft::Comm** c, CollArgs* a) {
  WEFT_TRY(intra_comm_arg(comm, "comm", c));
  const weft::Topology* t = nullptr;
  WEFT_TRY(topo::topology_of(**c, 0, &t));
  topo::Neighbors n = topo::neighbors_of(*t, (*c)->rank);
  a->sources = std::move(n.sources);
  a->destinations = std::move(n.destinations);
  a->mirrored_pairs = n.cartesian;
  return Status::success();
}

// The blocks of a side with `n` neighbours, placed for the schedule (packed into `typed` when
// the datatypes are not contiguous).
Status place_side(const NeighborSide& s, int n, const std::string& which,
                  weft::coll::TypedBuffer* typed, std::vector<Block>* out) {
  const std::string displs = which == "send" ? "sdispls" : "rdispls";
  std::vector<UserBlock> side;
  if (s.shape == NeighborSide::Shape::kRegular) {
    const weft::Datatype* t = nullptr;
    WEFT_TRY(weft::find_message_datatype(s.type, s.count, (which + "type").c_str(), &t));
    WEFT_TRY(check_count(s.count, (which + "count").c_str()));
    side = regular_side(n, s.count, t);
  } else {
    const bool typed_blocks = s.shape == NeighborSide::Shape::kTyped;
    WEFT_TRY(vector_side(n, s.counts, s.displs, s.type, typed_blocks ? s.types : nullptr,
                         (which + "counts").c_str(), displs.c_str(),
                         (which + (typed_blocks ? "types" : "type")).c_str(), &side));
  }
  WEFT_TRY(check_side_buffer(s.buf, side, (which + "buf").c_str()));
  *out = place_blocks(side, typed);
  return Status::success();
}

}  // namespace

int neighbor_allgather(const char* fn, const void* sendbuf, MPI_Count sendcount,
                       MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount, bool vector,
                       CountArray recvcounts, CountArray displs, MPI_Datatype recvtype,
                       MPI_Comm comm, Form form, MPI_Request* request) {
  WEFT_REQUIRE_RUNNING(fn);
  weft::Comm* c = nullptr;
  CallSpec spec;
  CollArgs& a = spec.args;
  a.kind = CollKind::kNeighborAllgather;
  WEFT_CHECK(comm, fn, neighborhood(comm, &c, &a));
  const int indegree = int(a.sources.size());
  const weft::Datatype *st = nullptr, *rt = nullptr;
  WEFT_CHECK(
      comm, fn,
      check_typed(sendbuf, sendcount, sendtype, "sendbuf", "sendcount", "sendtype", false, &st));
  std::vector<UserBlock> side;
  if (vector) {
    WEFT_CHECK(comm, fn,
               vector_side(indegree, recvcounts, displs, recvtype, nullptr, "recvcounts", "displs",
                           "recvtype", &side));
  } else {
    WEFT_CHECK(comm, fn, weft::find_message_datatype(recvtype, recvcount, "recvtype", &rt));
    WEFT_CHECK(comm, fn, check_count(recvcount, "recvcount"));
    side = regular_side(indegree, recvcount, rt);
  }
  WEFT_CHECK(comm, fn, check_side_buffer(recvbuf, side, "recvbuf"));
  a.bytes = size_t(sendcount) * st->size();
  a.recv_blocks = place_blocks(side, &spec.recv_typed);
  spec.binding.send = place_single(sendbuf, sendcount, st, &spec.send_typed);
  spec.binding.recv = recvbuf;
  return launch(fn, comm, *c, spec, form, request);
}

int neighbor_alltoall(const char* fn, const NeighborSide& send, const NeighborSide& recv,
                      MPI_Comm comm, Form form, MPI_Request* request) {
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
  return launch(fn, comm, *c, spec, form, request);
}

}  // namespace weft::capi
