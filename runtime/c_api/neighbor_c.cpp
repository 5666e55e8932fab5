// The large-count (_c) forms of the neighbourhood collectives (MPI 4.0 §8.6-§8.8): MPI_Count
// counts and MPI_Aint displacements, blocking, nonblocking and persistent, on the same path as
// the int forms in runtime/c_api/neighbor.cpp.
#include "runtime/c_api/neighbor_call.hpp"

namespace capi = weft::capi;
using capi::Form;
using Side = capi::NeighborSide;

extern "C" {

int PMPI_Neighbor_allgather_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                              void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm) {
  return capi::neighbor_allgather("MPI_Neighbor_allgather_c", sendbuf, sendcount, sendtype, recvbuf,
                                  recvcount, false, nullptr, nullptr, recvtype, comm,
                                  Form::kBlocking, nullptr);
}
int PMPI_Ineighbor_allgather_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                               void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                               MPI_Comm comm, MPI_Request* request) {
  return capi::neighbor_allgather("MPI_Ineighbor_allgather_c", sendbuf, sendcount, sendtype,
                                  recvbuf, recvcount, false, nullptr, nullptr, recvtype, comm,
                                  Form::kNonblocking, request);
}
int PMPI_Neighbor_allgather_init_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                   void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                                   MPI_Comm comm, MPI_Info, MPI_Request* request) {
  return capi::neighbor_allgather("MPI_Neighbor_allgather_init_c", sendbuf, sendcount, sendtype,
                                  recvbuf, recvcount, false, nullptr, nullptr, recvtype, comm,
                                  Form::kPersistent, request);
}

int PMPI_Neighbor_allgatherv_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                               void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                               MPI_Datatype recvtype, MPI_Comm comm) {
  return capi::neighbor_allgather("MPI_Neighbor_allgatherv_c", sendbuf, sendcount, sendtype,
                                  recvbuf, 0, true, recvcounts, displs, recvtype, comm,
                                  Form::kBlocking, nullptr);
}
int PMPI_Ineighbor_allgatherv_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                void* recvbuf, const MPI_Count recvcounts[],
                                const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
                                MPI_Request* request) {
  return capi::neighbor_allgather("MPI_Ineighbor_allgatherv_c", sendbuf, sendcount, sendtype,
                                  recvbuf, 0, true, recvcounts, displs, recvtype, comm,
                                  Form::kNonblocking, request);
}
int PMPI_Neighbor_allgatherv_init_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                    void* recvbuf, const MPI_Count recvcounts[],
                                    const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
                                    MPI_Info, MPI_Request* request) {
  return capi::neighbor_allgather("MPI_Neighbor_allgatherv_init_c", sendbuf, sendcount, sendtype,
                                  recvbuf, 0, true, recvcounts, displs, recvtype, comm,
                                  Form::kPersistent, request);
}

int PMPI_Neighbor_alltoall_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                             void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                             MPI_Comm comm) {
  return capi::neighbor_alltoall(
      "MPI_Neighbor_alltoall_c", Side::regular(sendbuf, sendcount, sendtype),
      Side::regular(recvbuf, recvcount, recvtype), comm, Form::kBlocking, nullptr);
}
int PMPI_Ineighbor_alltoall_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                              void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm, MPI_Request* request) {
  return capi::neighbor_alltoall(
      "MPI_Ineighbor_alltoall_c", Side::regular(sendbuf, sendcount, sendtype),
      Side::regular(recvbuf, recvcount, recvtype), comm, Form::kNonblocking, request);
}
int PMPI_Neighbor_alltoall_init_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                  void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                                  MPI_Comm comm, MPI_Info, MPI_Request* request) {
  return capi::neighbor_alltoall(
      "MPI_Neighbor_alltoall_init_c", Side::regular(sendbuf, sendcount, sendtype),
      Side::regular(recvbuf, recvcount, recvtype), comm, Form::kPersistent, request);
}

int PMPI_Neighbor_alltoallv_c(const void* sendbuf, const MPI_Count sendcounts[],
                              const MPI_Aint sdispls[], MPI_Datatype sendtype, void* recvbuf,
                              const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                              MPI_Datatype recvtype, MPI_Comm comm) {
  return capi::neighbor_alltoall(
      "MPI_Neighbor_alltoallv_c", Side::vector(sendbuf, sendcounts, sdispls, sendtype),
      Side::vector(recvbuf, recvcounts, rdispls, recvtype), comm, Form::kBlocking, nullptr);
}
int PMPI_Ineighbor_alltoallv_c(const void* sendbuf, const MPI_Count sendcounts[],
                               const MPI_Aint sdispls[], MPI_Datatype sendtype, void* recvbuf,
                               const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                               MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  return capi::neighbor_alltoall(
      "MPI_Ineighbor_alltoallv_c", Side::vector(sendbuf, sendcounts, sdispls, sendtype),
      Side::vector(recvbuf, recvcounts, rdispls, recvtype), comm, Form::kNonblocking, request);
}
int PMPI_Neighbor_alltoallv_init_c(const void* sendbuf, const MPI_Count sendcounts[],
                                   const MPI_Aint sdispls[], MPI_Datatype sendtype, void* recvbuf,
                                   const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Info,
                                   MPI_Request* request) {
  return capi::neighbor_alltoall(
      "MPI_Neighbor_alltoallv_init_c", Side::vector(sendbuf, sendcounts, sdispls, sendtype),
      Side::vector(recvbuf, recvcounts, rdispls, recvtype), comm, Form::kPersistent, request);
}

int PMPI_Neighbor_alltoallw_c(const void* sendbuf, const MPI_Count sendcounts[],
                              const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                              void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                              const MPI_Datatype recvtypes[], MPI_Comm comm) {
  return capi::neighbor_alltoall(
      "MPI_Neighbor_alltoallw_c", Side::typed(sendbuf, sendcounts, sdispls, sendtypes),
      Side::typed(recvbuf, recvcounts, rdispls, recvtypes), comm, Form::kBlocking, nullptr);
}
int PMPI_Ineighbor_alltoallw_c(const void* sendbuf, const MPI_Count sendcounts[],
                               const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                               void* recvbuf, const MPI_Count recvcounts[],
                               const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                               MPI_Comm comm, MPI_Request* request) {
  return capi::neighbor_alltoall(
      "MPI_Ineighbor_alltoallw_c", Side::typed(sendbuf, sendcounts, sdispls, sendtypes),
      Side::typed(recvbuf, recvcounts, rdispls, recvtypes), comm, Form::kNonblocking, request);
}
int PMPI_Neighbor_alltoallw_init_c(const void* sendbuf, const MPI_Count sendcounts[],
                                   const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                   void* recvbuf, const MPI_Count recvcounts[],
                                   const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                                   MPI_Comm comm, MPI_Info, MPI_Request* request) {
  return capi::neighbor_alltoall(
      "MPI_Neighbor_alltoallw_init_c", Side::typed(sendbuf, sendcounts, sdispls, sendtypes),
      Side::typed(recvbuf, recvcounts, rdispls, recvtypes), comm, Form::kPersistent, request);
}

}  // extern "C"

// The profiling interface: each MPI_X is a weak alias of PMPI_X (runtime/c_api/guard.hpp).
WEFT_MPI_ALIAS(MPI_Neighbor_allgather_c)
WEFT_MPI_ALIAS(MPI_Ineighbor_allgather_c)
WEFT_MPI_ALIAS(MPI_Neighbor_allgather_init_c)
WEFT_MPI_ALIAS(MPI_Neighbor_allgatherv_c)
WEFT_MPI_ALIAS(MPI_Ineighbor_allgatherv_c)
WEFT_MPI_ALIAS(MPI_Neighbor_allgatherv_init_c)
WEFT_MPI_ALIAS(MPI_Neighbor_alltoall_c)
WEFT_MPI_ALIAS(MPI_Ineighbor_alltoall_c)
WEFT_MPI_ALIAS(MPI_Neighbor_alltoall_init_c)
WEFT_MPI_ALIAS(MPI_Neighbor_alltoallv_c)
WEFT_MPI_ALIAS(MPI_Ineighbor_alltoallv_c)
WEFT_MPI_ALIAS(MPI_Neighbor_alltoallv_init_c)
WEFT_MPI_ALIAS(MPI_Neighbor_alltoallw_c)
WEFT_MPI_ALIAS(MPI_Ineighbor_alltoallw_c)
WEFT_MPI_ALIAS(MPI_Neighbor_alltoallw_init_c)
