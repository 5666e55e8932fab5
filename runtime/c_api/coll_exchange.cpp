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

// A side of MPI_Allgather(v) (the receive side) or MPI_Alltoall(v/w): regular (`count` each)
// or from counts and displacements (`vector`; `types` non-null for alltoallw). `which` is the
// argument-name prefix ("recv": recvcount, recvcounts, recvtype(s)); `displs_arg` names the
// displacements.
Status all_blocks(const weft::Comm& c, bool vector, MPI_Count count, capi::CountArray counts,
                  capi::CountArray displs, MPI_Datatype type, const MPI_Datatype* types,
                  const std::string& which, const char* displs_arg,
                  std::vector<capi::UserBlock>* out) {
  if (vector) {
    return capi::vector_side(c.peer_count(), counts, displs, type, types,
                             (which + "counts").c_str(), displs_arg,
                             (which + (types ? "types" : "type")).c_str(), out);
  }
  const weft::Datatype* t = nullptr;
  WEFT_TRY(weft::find_message_datatype(type, count, (which + "type").c_str(), &t));
  WEFT_TRY(capi::check_count(count, (which + "count").c_str()));
  *out = capi::regular_side(c.peer_count(), count, t);
  return Status::success();
}

// MPI_Allgather and MPI_Allgatherv (`vector`).
int allgather(const char* fn, const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
              void* recvbuf, MPI_Count recvcount, bool vector, capi::CountArray counts,
              capi::CountArray displs, MPI_Datatype recvtype, MPI_Comm comm, Form form,
              MPI_Request* request) {
  WEFT_REQUIRE_RUNNING(fn);
  if (Status s; form == Form::kBlocking && !vector &&
                weft::coll::short_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                            recvtype, comm, &s))
    return capi::report(comm, fn, s);
  weft::Comm* c = nullptr;
  WEFT_CHECK(comm, fn, capi::collective_comm(comm, &c));
  CallSpec spec;
  weft::coll::CollArgs& a = spec.args;
  a.kind = CollKind::kAllgather;
  a.uniform = !vector;
  const bool inter = c->is_inter();  // no MPI_IN_PLACE there (MPI 4.1 §6.7)
  const weft::Datatype* st = nullptr;
  WEFT_CHECK(comm, fn,
             capi::check_typed(sendbuf, sendcount, sendtype, "sendbuf", "sendcount", "sendtype",
                               !inter, &st));
  capi::describe(spec, sendcount, st, MPI_OP_NULL, sendbuf == MPI_IN_PLACE);
  std::vector<capi::UserBlock> side;
  WEFT_CHECK(comm, fn,
             all_blocks(*c, vector, recvcount, counts, displs, recvtype, nullptr, "recv", "displs",
                        &side));
  WEFT_CHECK(comm, fn, capi::check_side_buffer(recvbuf, side, "recvbuf"));
  a.blocks = capi::place_blocks(side, &spec.recv_typed);
  spec.binding.recv = recvbuf;
  if (inter) {  // the blocks are the remote group's; this rank's goes to all of them
    a.bytes = size_t(sendcount) * st->size();
    spec.binding.send = capi::place_single(sendbuf, sendcount, st, &spec.send_typed);
    return capi::launch(fn, comm, *c, spec, form, request);
  }
  const Block own = a.blocks[size_t(c->rank)];
  if (sendbuf == MPI_IN_PLACE) {
    if (spec.recv_typed.empty()) {
      spec.binding.send = at(recvbuf, own.offset);
    } else {
      spec.send_in_packed_recv = ptrdiff_t(own.offset);
    }
  } else {
    WEFT_CHECK(
        comm, fn,
        capi::check_same_bytes(size_t(sendcount) * st->size(), own.bytes, "this rank's block"));
    spec.binding.send = capi::place_single(sendbuf, sendcount, st, &spec.send_typed);
  }
  return capi::launch(fn, comm, *c, spec, form, request);
}

enum class Variant { kRegular, kV, kW };

// MPI_Alltoall (kRegular: `count` each, packed), MPI_Alltoallv and MPI_Alltoallw.
int alltoall(const char* fn, Variant variant, const void* sendbuf, MPI_Count sendcount,
             capi::CountArray sendcounts, capi::CountArray sdispls, const MPI_Datatype* sendtypes,
             MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount, capi::CountArray recvcounts,
             capi::CountArray rdispls, const MPI_Datatype* recvtypes, MPI_Datatype recvtype,
             MPI_Comm comm, Form form, MPI_Request* request) {
  WEFT_REQUIRE_RUNNING(fn);
  if (Status s; form == Form::kBlocking && variant == Variant::kRegular &&
                weft::coll::short_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                           recvtype, comm, &s))
    return capi::report(comm, fn, s);
  weft::Comm* c = nullptr;
  WEFT_CHECK(comm, fn, capi::collective_comm(comm, &c));
  CallSpec spec;
  weft::coll::CollArgs& a = spec.args;
  a.kind = CollKind::kAlltoall;
  a.uniform = variant == Variant::kRegular;
  const bool vector = variant != Variant::kRegular, w = variant == Variant::kW;
  const bool in_place = sendbuf == MPI_IN_PLACE;
  if (c->is_inter())
    WEFT_CHECK(comm, fn, capi::check_coll_buffer(sendbuf, 0, nullptr, "sendbuf", false));
  if (w) {  // alltoallw needs its type arrays even where the counts are zero
    WEFT_CHECK(comm, fn, capi::check_not_null(recvtypes, "recvtypes"));
    if (!in_place) WEFT_CHECK(comm, fn, capi::check_not_null(sendtypes, "sendtypes"));
  }
  std::vector<capi::UserBlock> recv_side, send_side;
  WEFT_CHECK(comm, fn,
             all_blocks(*c, vector, recvcount, recvcounts, rdispls, recvtype,
                        w ? recvtypes : nullptr, "recv", "rdispls", &recv_side));
  WEFT_CHECK(comm, fn, capi::check_side_buffer(recvbuf, recv_side, "recvbuf"));
  a.recv_blocks = capi::place_blocks(recv_side, &spec.recv_typed);
  spec.binding.recv = recvbuf;
  if (in_place) {  // the input is the output: sent from a copy taken at each start
    capi::describe(spec, vector ? -1 : recvcount, vector ? nullptr : recv_side.front().type,
                   MPI_OP_NULL, true);
    a.send_blocks = a.recv_blocks;
    spec.stage_recv_bytes = spec.recv_typed.empty() ? capi::placed_extent(a.recv_blocks)
                                                    : spec.recv_typed.packed_bytes();
    return capi::launch(fn, comm, *c, spec, form, request);
  }
  WEFT_CHECK(comm, fn,
             all_blocks(*c, vector, sendcount, sendcounts, sdispls, sendtype,
                        w ? sendtypes : nullptr, "send", "sdispls", &send_side));
  WEFT_CHECK(comm, fn, capi::check_side_buffer(sendbuf, send_side, "sendbuf"));
  a.send_blocks = capi::place_blocks(send_side, &spec.send_typed);
  spec.binding.send = sendbuf;
  capi::describe(spec, vector ? -1 : sendcount, vector ? nullptr : send_side.front().type,
                 MPI_OP_NULL, false);
  if (c->is_inter()) return capi::launch(fn, comm, *c, spec, form, request);  // no own block
  const size_t me = size_t(c->rank);
  WEFT_CHECK(comm, fn,
             capi::check_same_bytes(a.send_blocks[me].bytes, a.recv_blocks[me].bytes,
                                    vector ? "this rank's block to itself" : "each block"));
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
