// Collective chapter, exchanges among all ranks: allgather(v) and all-to-all(v/w), each in its
// blocking, nonblocking (MPI_I*) and persistent (MPI_*_init) form.
#include <algorithm>

#include "runtime/c_api/coll_call.hpp"

using weft::Status;
using weft::coll::Block;
using weft::coll::CallSpec;
using weft::coll::CollKind;
namespace capi = weft::capi;
using capi::Form;

namespace {

char* at(void* base, size_t offset) { return static_cast<char*>(base) + offset; }

// MPI_Allgather and MPI_Allgatherv (`vector`).
int allgather(const char* fn, const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
              void* recvbuf, MPI_Count recvcount, bool vector, capi::CountArray counts,
              capi::CountArray displs, MPI_Datatype recvtype, MPI_Comm comm, Form form,
              MPI_Request* request) {
  WEFT_REQUIRE_RUNNING(fn);
  weft::Comm* c = nullptr;
  WEFT_CHECK(comm, fn, capi::collective_comm(comm, &c));
  CallSpec spec;
  weft::coll::CollArgs& a = spec.args;
  a.kind = CollKind::kAllgather;
  size_t send_bytes = 0, elem = 1, recv_elem = 1;
  WEFT_CHECK(comm, fn,
             capi::check_side(sendbuf, sendcount, sendtype, "sendbuf", "sendcount", "sendtype",
                              true, &send_bytes, &elem));
  WEFT_CHECK(comm, fn, capi::element_size(recvtype, "recvtype", &recv_elem));
  if (vector) {
    WEFT_CHECK(
        comm, fn,
        capi::vector_blocks(c->size, counts, displs, recv_elem, "recvcounts", "displs", &a.blocks));
    a.uniform = false;
  } else {
    WEFT_CHECK(comm, fn, capi::check_count(recvcount, "recvcount"));
    a.blocks = weft::coll::packed_blocks(c->size, size_t(recvcount) * recv_elem);
  }
  size_t total = 0;
  for (const Block& b : a.blocks) total = std::max(total, b.offset + b.bytes);
  WEFT_CHECK(comm, fn, capi::check_coll_buffer(recvbuf, total, "recvbuf", false));
  const Block own = a.blocks[size_t(c->rank)];
  if (sendbuf == MPI_IN_PLACE) {
    spec.binding.send = at(recvbuf, own.offset);
  } else {
    WEFT_CHECK(comm, fn, capi::check_same_bytes(send_bytes, own.bytes, "this rank's block"));
    spec.binding.send = sendbuf;
  }
  spec.binding.recv = recvbuf;
  return capi::launch(fn, comm, *c, spec, form, request);
}

// One side of an all-to-all: per-peer blocks from counts and displacements in elements of
// `type` (alltoall, alltoallv), or, for alltoallw (`w`), counts in elements of types[i] and
// displacements in bytes.
Status alltoall_side(int n, capi::CountArray counts, capi::CountArray displs, bool w,
                     const MPI_Datatype* types, MPI_Datatype type, const char* which,
                     std::vector<Block>* out) {
  const std::string counts_arg = std::string(which) + "counts";
  const std::string displs_arg = std::string(which) + "displs";
  const std::string type_arg = std::string(which) + "type" + (w ? "s" : "");
  if (!w) {
    size_t elem = 1;
    WEFT_TRY(capi::element_size(type, type_arg.c_str(), &elem));
    return capi::vector_blocks(n, counts, displs, elem, counts_arg.c_str(), displs_arg.c_str(),
                               out);
  }
  WEFT_TRY(capi::check_not_null(types, type_arg.c_str()));
  WEFT_TRY(capi::vector_blocks(n, counts, displs, 1, counts_arg.c_str(), displs_arg.c_str(), out));
  for (int i = 0; i < n; ++i) {
    size_t elem = 1;
    const std::string arg = type_arg + "[" + std::to_string(i) + "]";
    WEFT_TRY(capi::element_size(types[i], arg.c_str(), &elem));
    (*out)[size_t(i)].bytes *= elem;
  }
  return Status::success();
}

enum class Variant { kRegular, kV, kW };

// MPI_Alltoall (kRegular: `count` each, packed), MPI_Alltoallv and MPI_Alltoallw.
int alltoall(const char* fn, Variant variant, const void* sendbuf, MPI_Count sendcount,
             capi::CountArray sendcounts, capi::CountArray sdispls, const MPI_Datatype* sendtypes,
             MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount, capi::CountArray recvcounts,
             capi::CountArray rdispls, const MPI_Datatype* recvtypes, MPI_Datatype recvtype,
             MPI_Comm comm, Form form, MPI_Request* request) {
  WEFT_REQUIRE_RUNNING(fn);
  weft::Comm* c = nullptr;
  WEFT_CHECK(comm, fn, capi::collective_comm(comm, &c));
  CallSpec spec;
  weft::coll::CollArgs& a = spec.args;
  a.kind = CollKind::kAlltoall;
  const bool regular = variant == Variant::kRegular;
  const bool in_place = sendbuf == MPI_IN_PLACE;
  if (regular) {
    size_t recv_bytes = 0, elem = 1;
    WEFT_CHECK(comm, fn,
               capi::check_side(recvbuf, recvcount, recvtype, "recvbuf", "recvcount", "recvtype",
                                false, &recv_bytes, &elem));
    a.recv_blocks = weft::coll::packed_blocks(c->size, recv_bytes);
    if (!in_place) {
      size_t send_bytes = 0;
      WEFT_CHECK(comm, fn,
                 capi::check_side(sendbuf, sendcount, sendtype, "sendbuf", "sendcount", "sendtype",
                                  false, &send_bytes, &elem));
      WEFT_CHECK(comm, fn, capi::check_same_bytes(send_bytes, recv_bytes, "each block"));
    }
  } else {
    a.uniform = false;
    WEFT_CHECK(comm, fn,
               alltoall_side(c->size, recvcounts, rdispls, variant == Variant::kW, recvtypes,
                             recvtype, "recv", &a.recv_blocks));
    if (!in_place) {
      WEFT_CHECK(comm, fn,
                 alltoall_side(c->size, sendcounts, sdispls, variant == Variant::kW, sendtypes,
                               sendtype, "send", &a.send_blocks));
    }
  }
  size_t recv_total = 0, send_total = 0;
  for (const Block& b : a.recv_blocks) recv_total = std::max(recv_total, b.offset + b.bytes);
  WEFT_CHECK(comm, fn, capi::check_coll_buffer(recvbuf, recv_total, "recvbuf", false));
  if (regular || in_place) a.send_blocks = a.recv_blocks;
  for (const Block& b : a.send_blocks) send_total = std::max(send_total, b.offset + b.bytes);
  if (in_place) {
    spec.stage_recv_bytes = recv_total;
  } else {
    WEFT_CHECK(comm, fn, capi::check_coll_buffer(sendbuf, send_total, "sendbuf", true));
    WEFT_CHECK(comm, fn,
               capi::check_same_bytes(a.send_blocks[size_t(c->rank)].bytes,
                                      a.recv_blocks[size_t(c->rank)].bytes,
                                      "this rank's block to itself"));
  }
  spec.binding.send = sendbuf;
  spec.binding.recv = recvbuf;
  return capi::launch(fn, comm, *c, spec, form, request);
}

}  // namespace

extern "C" {

int PMPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  return allgather("MPI_Allgather", sendbuf, sendcount, sendtype, recvbuf, recvcount, false,
                   nullptr, nullptr, recvtype, comm, Form::kBlocking, nullptr);
}
int PMPI_Iallgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                    int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  return allgather("MPI_Iallgather", sendbuf, sendcount, sendtype, recvbuf, recvcount, false,
                   nullptr, nullptr, recvtype, comm, Form::kNonblocking, request);
}
int PMPI_Allgather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                        int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info,
                        MPI_Request* request) {
  return allgather("MPI_Allgather_init", sendbuf, sendcount, sendtype, recvbuf, recvcount, false,
                   nullptr, nullptr, recvtype, comm, Form::kPersistent, request);
}

int PMPI_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                    MPI_Comm comm) {
  return allgather("MPI_Allgatherv", sendbuf, sendcount, sendtype, recvbuf, 0, true, recvcounts,
                   displs, recvtype, comm, Form::kBlocking, nullptr);
}
int PMPI_Iallgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                     const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                     MPI_Comm comm, MPI_Request* request) {
  return allgather("MPI_Iallgatherv", sendbuf, sendcount, sendtype, recvbuf, 0, true, recvcounts,
                   displs, recvtype, comm, Form::kNonblocking, request);
}
int PMPI_Allgatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                         const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                         MPI_Comm comm, MPI_Info, MPI_Request* request) {
  return allgather("MPI_Allgatherv_init", sendbuf, sendcount, sendtype, recvbuf, 0, true,
                   recvcounts, displs, recvtype, comm, Form::kPersistent, request);
}

int PMPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  return alltoall("MPI_Alltoall", Variant::kRegular, sendbuf, sendcount, nullptr, nullptr, nullptr,
                  sendtype, recvbuf, recvcount, nullptr, nullptr, nullptr, recvtype, comm,
                  Form::kBlocking, nullptr);
}
int PMPI_Ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  return alltoall("MPI_Ialltoall", Variant::kRegular, sendbuf, sendcount, nullptr, nullptr, nullptr,
                  sendtype, recvbuf, recvcount, nullptr, nullptr, nullptr, recvtype, comm,
                  Form::kNonblocking, request);
}
int PMPI_Alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info,
                       MPI_Request* request) {
  return alltoall("MPI_Alltoall_init", Variant::kRegular, sendbuf, sendcount, nullptr, nullptr,
                  nullptr, sendtype, recvbuf, recvcount, nullptr, nullptr, nullptr, recvtype, comm,
                  Form::kPersistent, request);
}

int PMPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                   MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                   const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  return alltoall("MPI_Alltoallv", Variant::kV, sendbuf, 0, sendcounts, sdispls, nullptr, sendtype,
                  recvbuf, 0, recvcounts, rdispls, nullptr, recvtype, comm, Form::kBlocking,
                  nullptr);
}
int PMPI_Ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                    MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                    const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                    MPI_Request* request) {
  return alltoall("MPI_Ialltoallv", Variant::kV, sendbuf, 0, sendcounts, sdispls, nullptr, sendtype,
                  recvbuf, 0, recvcounts, rdispls, nullptr, recvtype, comm, Form::kNonblocking,
                  request);
}
int PMPI_Alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                        MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                        const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info,
                        MPI_Request* request) {
  return alltoall("MPI_Alltoallv_init", Variant::kV, sendbuf, 0, sendcounts, sdispls, nullptr,
                  sendtype, recvbuf, 0, recvcounts, rdispls, nullptr, recvtype, comm,
                  Form::kPersistent, request);
}

int PMPI_Alltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[],
                   const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                   const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
  return alltoall("MPI_Alltoallw", Variant::kW, sendbuf, 0, sendcounts, sdispls, sendtypes,
                  MPI_DATATYPE_NULL, recvbuf, 0, recvcounts, rdispls, recvtypes, MPI_DATATYPE_NULL,
                  comm, Form::kBlocking, nullptr);
}
int PMPI_Ialltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[],
                    const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                    const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                    MPI_Request* request) {
  return alltoall("MPI_Ialltoallw", Variant::kW, sendbuf, 0, sendcounts, sdispls, sendtypes,
                  MPI_DATATYPE_NULL, recvbuf, 0, recvcounts, rdispls, recvtypes, MPI_DATATYPE_NULL,
                  comm, Form::kNonblocking, request);
}
int PMPI_Alltoallw_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                        const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                        const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                        MPI_Info, MPI_Request* request) {
  return alltoall("MPI_Alltoallw_init", Variant::kW, sendbuf, 0, sendcounts, sdispls, sendtypes,
                  MPI_DATATYPE_NULL, recvbuf, 0, recvcounts, rdispls, recvtypes, MPI_DATATYPE_NULL,
                  comm, Form::kPersistent, request);
}

// The large-count (_c) forms: MPI_Count counts and MPI_Aint displacements, same path.
int PMPI_Allgather_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                     MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  return allgather("MPI_Allgather_c", sendbuf, sendcount, sendtype, recvbuf, recvcount, false,
                   nullptr, nullptr, recvtype, comm, Form::kBlocking, nullptr);
}
int PMPI_Iallgather_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                      void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                      MPI_Request* request) {
  return allgather("MPI_Iallgather_c", sendbuf, sendcount, sendtype, recvbuf, recvcount, false,
                   nullptr, nullptr, recvtype, comm, Form::kNonblocking, request);
}
int PMPI_Allgather_init_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                          void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                          MPI_Info, MPI_Request* request) {
  return allgather("MPI_Allgather_init_c", sendbuf, sendcount, sendtype, recvbuf, recvcount, false,
                   nullptr, nullptr, recvtype, comm, Form::kPersistent, request);
}
int PMPI_Allgatherv_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                      void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                      MPI_Datatype recvtype, MPI_Comm comm) {
  return allgather("MPI_Allgatherv_c", sendbuf, sendcount, sendtype, recvbuf, 0, true, recvcounts,
                   displs, recvtype, comm, Form::kBlocking, nullptr);
}
int PMPI_Iallgatherv_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                       void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                       MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  return allgather("MPI_Iallgatherv_c", sendbuf, sendcount, sendtype, recvbuf, 0, true, recvcounts,
                   displs, recvtype, comm, Form::kNonblocking, request);
}
int PMPI_Allgatherv_init_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                           void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                           MPI_Datatype recvtype, MPI_Comm comm, MPI_Info, MPI_Request* request) {
  return allgather("MPI_Allgatherv_init_c", sendbuf, sendcount, sendtype, recvbuf, 0, true,
                   recvcounts, displs, recvtype, comm, Form::kPersistent, request);
}
int PMPI_Alltoall_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                    MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  return alltoall("MPI_Alltoall_c", Variant::kRegular, sendbuf, sendcount, nullptr, nullptr,
                  nullptr, sendtype, recvbuf, recvcount, nullptr, nullptr, nullptr, recvtype, comm,
                  Form::kBlocking, nullptr);
}
int PMPI_Ialltoall_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                     MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                     MPI_Request* request) {
  return alltoall("MPI_Ialltoall_c", Variant::kRegular, sendbuf, sendcount, nullptr, nullptr,
                  nullptr, sendtype, recvbuf, recvcount, nullptr, nullptr, nullptr, recvtype, comm,
                  Form::kNonblocking, request);
}
int PMPI_Alltoall_init_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                         void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                         MPI_Info, MPI_Request* request) {
  return alltoall("MPI_Alltoall_init_c", Variant::kRegular, sendbuf, sendcount, nullptr, nullptr,
                  nullptr, sendtype, recvbuf, recvcount, nullptr, nullptr, nullptr, recvtype, comm,
                  Form::kPersistent, request);
}
int PMPI_Alltoallv_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                     MPI_Datatype sendtype, void* recvbuf, const MPI_Count recvcounts[],
                     const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  return alltoall("MPI_Alltoallv_c", Variant::kV, sendbuf, 0, sendcounts, sdispls, nullptr,
                  sendtype, recvbuf, 0, recvcounts, rdispls, nullptr, recvtype, comm,
                  Form::kBlocking, nullptr);
}
int PMPI_Ialltoallv_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                      MPI_Datatype sendtype, void* recvbuf, const MPI_Count recvcounts[],
                      const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                      MPI_Request* request) {
  return alltoall("MPI_Ialltoallv_c", Variant::kV, sendbuf, 0, sendcounts, sdispls, nullptr,
                  sendtype, recvbuf, 0, recvcounts, rdispls, nullptr, recvtype, comm,
                  Form::kNonblocking, request);
}
int PMPI_Alltoallv_init_c(const void* sendbuf, const MPI_Count sendcounts[],
                          const MPI_Aint sdispls[], MPI_Datatype sendtype, void* recvbuf,
                          const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                          MPI_Datatype recvtype, MPI_Comm comm, MPI_Info, MPI_Request* request) {
  return alltoall("MPI_Alltoallv_init_c", Variant::kV, sendbuf, 0, sendcounts, sdispls, nullptr,
                  sendtype, recvbuf, 0, recvcounts, rdispls, nullptr, recvtype, comm,
                  Form::kPersistent, request);
}
int PMPI_Alltoallw_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                     const MPI_Datatype sendtypes[], void* recvbuf, const MPI_Count recvcounts[],
                     const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
  return alltoall("MPI_Alltoallw_c", Variant::kW, sendbuf, 0, sendcounts, sdispls, sendtypes,
                  MPI_DATATYPE_NULL, recvbuf, 0, recvcounts, rdispls, recvtypes, MPI_DATATYPE_NULL,
                  comm, Form::kBlocking, nullptr);
}
int PMPI_Ialltoallw_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                      const MPI_Datatype sendtypes[], void* recvbuf, const MPI_Count recvcounts[],
                      const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                      MPI_Request* request) {
  return alltoall("MPI_Ialltoallw_c", Variant::kW, sendbuf, 0, sendcounts, sdispls, sendtypes,
                  MPI_DATATYPE_NULL, recvbuf, 0, recvcounts, rdispls, recvtypes, MPI_DATATYPE_NULL,
                  comm, Form::kNonblocking, request);
}
int PMPI_Alltoallw_init_c(const void* sendbuf, const MPI_Count sendcounts[],
                          const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void* recvbuf,
                          const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                          const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info,
                          MPI_Request* request) {
  return alltoall("MPI_Alltoallw_init_c", Variant::kW, sendbuf, 0, sendcounts, sdispls, sendtypes,
                  MPI_DATATYPE_NULL, recvbuf, 0, recvcounts, rdispls, recvtypes, MPI_DATATYPE_NULL,
                  comm, Form::kPersistent, request);
}

}  // extern "C"

// The profiling interface: each MPI_X is a weak alias of PMPI_X (runtime/c_api/guard.hpp).
WEFT_MPI_ALIAS(MPI_Allgather)
WEFT_MPI_ALIAS(MPI_Iallgather)
WEFT_MPI_ALIAS(MPI_Allgather_init)
WEFT_MPI_ALIAS(MPI_Allgatherv)
WEFT_MPI_ALIAS(MPI_Iallgatherv)
WEFT_MPI_ALIAS(MPI_Allgatherv_init)
WEFT_MPI_ALIAS(MPI_Alltoall)
WEFT_MPI_ALIAS(MPI_Ialltoall)
WEFT_MPI_ALIAS(MPI_Alltoall_init)
WEFT_MPI_ALIAS(MPI_Alltoallv)
WEFT_MPI_ALIAS(MPI_Ialltoallv)
WEFT_MPI_ALIAS(MPI_Alltoallv_init)
WEFT_MPI_ALIAS(MPI_Alltoallw)
WEFT_MPI_ALIAS(MPI_Ialltoallw)
WEFT_MPI_ALIAS(MPI_Alltoallw_init)
WEFT_MPI_ALIAS(MPI_Allgather_c)
WEFT_MPI_ALIAS(MPI_Iallgather_c)
WEFT_MPI_ALIAS(MPI_Allgather_init_c)
WEFT_MPI_ALIAS(MPI_Allgatherv_c)
WEFT_MPI_ALIAS(MPI_Iallgatherv_c)
WEFT_MPI_ALIAS(MPI_Allgatherv_init_c)
WEFT_MPI_ALIAS(MPI_Alltoall_c)
WEFT_MPI_ALIAS(MPI_Ialltoall_c)
WEFT_MPI_ALIAS(MPI_Alltoall_init_c)
WEFT_MPI_ALIAS(MPI_Alltoallv_c)
WEFT_MPI_ALIAS(MPI_Ialltoallv_c)
WEFT_MPI_ALIAS(MPI_Alltoallv_init_c)
WEFT_MPI_ALIAS(MPI_Alltoallw_c)
WEFT_MPI_ALIAS(MPI_Ialltoallw_c)
WEFT_MPI_ALIAS(MPI_Alltoallw_init_c)
