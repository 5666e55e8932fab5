// What the neighbourhood collective entry points share (runtime/c_api/neighbor*.cpp): checking
// the arguments of MPI_Neighbor_allgather(v) and MPI_Neighbor_alltoall(v,w) and handing the call
// to coll/, one path for the int and the large-count (_c) forms in all three call forms.
#pragma once
#include "runtime/c_api/coll_call.hpp"

namespace weft::capi {

// MPI_Neighbor_allgather (`recvcount` from each source) and MPI_Neighbor_allgatherv (`vector`:
// recvcounts, and displs in extents of recvtype).
int neighbor_allgather(const char* fn, const void* sendbuf, MPI_Count sendcount,
                       MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount, bool vector,
                       CountArray recvcounts, CountArray displs, MPI_Datatype recvtype,
                       MPI_Comm comm, Form form, MPI_Request* request);

// One side of a neighbourhood all-to-all: regular (`count` of `type` per block), v (counts and
// displacements in extents of `type`) or w (counts of types[i] at byte displacements).
struct NeighborSide {
  enum class Shape { kRegular, kVector, kTyped } shape;
  const void* buf;  // the receive side's is written to
  MPI_Count count;
  CountArray counts;
  CountArray displs;
  MPI_Datatype type;
  const MPI_Datatype* types;

  static NeighborSide regular(const void* buf, MPI_Count count, MPI_Datatype type) {
    return {Shape::kRegular, buf, count, nullptr, nullptr, type, nullptr};
  }
  static NeighborSide vector(const void* buf, CountArray counts, CountArray displs,
                             MPI_Datatype type) {
    return {Shape::kVector, buf, 0, counts, displs, type, nullptr};
  }
  static NeighborSide typed(const void* buf, CountArray counts, CountArray displs,
                            const MPI_Datatype* types) {
    return {Shape::kTyped, buf, 0, counts, displs, MPI_DATATYPE_NULL, types};
  }
};

// MPI_Neighbor_alltoall, MPI_Neighbor_alltoallv and MPI_Neighbor_alltoallw.
int neighbor_alltoall(const char* fn, const NeighborSide& send, const NeighborSide& recv,
                      MPI_Comm comm, Form form, MPI_Request* request);

}  // namespace weft::capi
