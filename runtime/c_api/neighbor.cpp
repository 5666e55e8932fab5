// Neighbourhood collectives (MPI 4.0 §8.6-§8.8): MPI_Neighbor_allgather(v) and
// MPI_Neighbor_alltoall(v,w), each blocking, nonblocking (MPI_Ineighbor_*) and persistent
// (MPI_Neighbor_*_init), on a communicator with any process topology. Their large-count (_c)
// forms are in neighbor_c.cpp; both go through neighbor_call.hpp.
#include "runtime/c_api/neighbor_call.hpp"

namespace capi = weft::capi;
using capi::Form;
using Side = capi::NeighborSide;

extern "C" {

int PMPI_Neighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                            void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  return capi::neighbor_allgather("MPI_Neighbor_allgather", sendbuf, sendcount, sendtype, recvbuf,
                                  recvcount, false, nullptr, nullptr, recvtype, comm,
                                  Form::kBlocking, nullptr);
}
int PMPI_Ineighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                             void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request* request) {
  return capi::neighbor_allgather("MPI_Ineighbor_allgather", sendbuf, sendcount, sendtype, recvbuf,
                                  recvcount, false, nullptr, nullptr, recvtype, comm,
                                  Form::kNonblocking, request);
}
int PMPI_Neighbor_allgather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                 void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                 MPI_Info, MPI_Request* request) {
  return capi::neighbor_allgather("MPI_Neighbor_allgather_init", sendbuf, sendcount, sendtype,
                                  recvbuf, recvcount, false, nullptr, nullptr, recvtype, comm,
                                  Form::kPersistent, request);
}

int PMPI_Neighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                             void* recvbuf, const int* recvcounts, const int* displs,
                             MPI_Datatype recvtype, MPI_Comm comm) {
  return capi::neighbor_allgather("MPI_Neighbor_allgatherv", sendbuf, sendcount, sendtype, recvbuf,
                                  0, true, recvcounts, displs, recvtype, comm, Form::kBlocking,
                                  nullptr);
}
int PMPI_Ineighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                              void* recvbuf, const int* recvcounts, const int* displs,
                              MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  return capi::neighbor_allgather("MPI_Ineighbor_allgatherv", sendbuf, sendcount, sendtype, recvbuf,
                                  0, true, recvcounts, displs, recvtype, comm, Form::kNonblocking,
                                  request);
}
int PMPI_Neighbor_allgatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                  void* recvbuf, const int* recvcounts, const int* displs,
                                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Info,
                                  MPI_Request* request) {
  return capi::neighbor_allgather("MPI_Neighbor_allgatherv_init", sendbuf, sendcount, sendtype,
                                  recvbuf, 0, true, recvcounts, displs, recvtype, comm,
                                  Form::kPersistent, request);
}

int PMPI_Neighbor_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                           int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  return capi::neighbor_alltoall(
      "MPI_Neighbor_alltoall", Side::regular(sendbuf, sendcount, sendtype),
      Side::regular(recvbuf, recvcount, recvtype), comm, Form::kBlocking, nullptr);
}
int PMPI_Ineighbor_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                            void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                            MPI_Request* request) {
  return capi::neighbor_alltoall(
      "MPI_Ineighbor_alltoall", Side::regular(sendbuf, sendcount, sendtype),
      Side::regular(recvbuf, recvcount, recvtype), comm, Form::kNonblocking, request);
}
int PMPI_Neighbor_alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                MPI_Info, MPI_Request* request) {
  return capi::neighbor_alltoall(
      "MPI_Neighbor_alltoall_init", Side::regular(sendbuf, sendcount, sendtype),
      Side::regular(recvbuf, recvcount, recvtype), comm, Form::kPersistent, request);
}

int PMPI_Neighbor_alltoallv(const void* sendbuf, const int* sendcounts, const int* sdispls,
                            MPI_Datatype sendtype, void* recvbuf, const int* recvcounts,
                            const int* rdispls, MPI_Datatype recvtype, MPI_Comm comm) {
  return capi::neighbor_alltoall(
      "MPI_Neighbor_alltoallv", Side::vector(sendbuf, sendcounts, sdispls, sendtype),
      Side::vector(recvbuf, recvcounts, rdispls, recvtype), comm, Form::kBlocking, nullptr);
}
int PMPI_Ineighbor_alltoallv(const void* sendbuf, const int* sendcounts, const int* sdispls,
                             MPI_Datatype sendtype, void* recvbuf, const int* recvcounts,
                             const int* rdispls, MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request* request) {
  return capi::neighbor_alltoall(
      "MPI_Ineighbor_alltoallv", Side::vector(sendbuf, sendcounts, sdispls, sendtype),
      Side::vector(recvbuf, recvcounts, rdispls, recvtype), comm, Form::kNonblocking, request);
}
int PMPI_Neighbor_alltoallv_init(const void* sendbuf, const int* sendcounts, const int* sdispls,
                                 MPI_Datatype sendtype, void* recvbuf, const int* recvcounts,
                                 const int* rdispls, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info,
                                 MPI_Request* request) {
  return capi::neighbor_alltoall(
      "MPI_Neighbor_alltoallv_init", Side::vector(sendbuf, sendcounts, sdispls, sendtype),
      Side::vector(recvbuf, recvcounts, rdispls, recvtype), comm, Form::kPersistent, request);
}

int PMPI_Neighbor_alltoallw(const void* sendbuf, const int* sendcounts, const MPI_Aint* sdispls,
                            const MPI_Datatype* sendtypes, void* recvbuf, const int* recvcounts,
                            const MPI_Aint* rdispls, const MPI_Datatype* recvtypes, MPI_Comm comm) {
  return capi::neighbor_alltoall(
      "MPI_Neighbor_alltoallw", Side::typed(sendbuf, sendcounts, sdispls, sendtypes),
      Side::typed(recvbuf, recvcounts, rdispls, recvtypes), comm, Form::kBlocking, nullptr);
}
int PMPI_Ineighbor_alltoallw(const void* sendbuf, const int* sendcounts, const MPI_Aint* sdispls,
                             const MPI_Datatype* sendtypes, void* recvbuf, const int* recvcounts,
                             const MPI_Aint* rdispls, const MPI_Datatype* recvtypes, MPI_Comm comm,
                             MPI_Request* request) {
  return capi::neighbor_alltoall(
      "MPI_Ineighbor_alltoallw", Side::typed(sendbuf, sendcounts, sdispls, sendtypes),
      Side::typed(recvbuf, recvcounts, rdispls, recvtypes), comm, Form::kNonblocking, request);
}
int PMPI_Neighbor_alltoallw_init(const void* sendbuf, const int* sendcounts,
                                 const MPI_Aint* sdispls, const MPI_Datatype* sendtypes,
                                 void* recvbuf, const int* recvcounts, const MPI_Aint* rdispls,
                                 const MPI_Datatype* recvtypes, MPI_Comm comm, MPI_Info,
                                 MPI_Request* request) {
  return capi::neighbor_alltoall(
      "MPI_Neighbor_alltoallw_init", Side::typed(sendbuf, sendcounts, sdispls, sendtypes),
      Side::typed(recvbuf, recvcounts, rdispls, recvtypes), comm, Form::kPersistent, request);
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
