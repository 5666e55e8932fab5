// Collective chapter, rooted data movement: gather(v) and scatter(v), each in its blocking,
// nonblocking (MPI_I*) and persistent (MPI_*_init) form.
#include <algorithm>

#include "runtime/c_api/coll_call.hpp"

using weft::Status;
using weft::coll::Block;
using weft::coll::CallSpec;
using weft::coll::CollKind;
namespace capi = weft::capi;
using capi::Form;

namespace {


char* at(const void* base, size_t offset) {
  return static_cast<char*>(const_cast<void*>(base)) + offset;
}

// The blocks of the side of MPI_Gather(v)/MPI_Scatter(v) that holds every rank's block, at the
// root: regular (`count` each) or from counts and displacements (`vector`).
Status root_side(const weft::Comm& c, bool vector, MPI_Count count, capi::CountArray counts,
                 capi::CountArray displs, MPI_Datatype type, const char* count_arg,
                 const char* counts_arg, const char* type_arg, std::vector<capi::UserBlock>* out) {
  if (vector)
    return capi::vector_side(c.peer_count(), counts, displs, type, nullptr, counts_arg, "displs",
                             type_arg, out);
  const weft::Datatype* t = nullptr;
  WEFT_TRY(weft::find_message_datatype(type, count, type_arg, &t));
  WEFT_TRY(capi::check_count(count, count_arg));
  *out = capi::regular_side(c.peer_count(), count, t);
  return Status::success();
}

// A non-root's view of the blocks of MPI_Gather(v)/MPI_Scatter(v): all equal to its own for the
// regular forms, only its own for the v-variants.
std::vector<Block> own_view(const weft::Comm& c, bool vector, size_t own_bytes) {
  if (!vector) return weft::coll::packed_blocks(c.size, own_bytes);
  std::vector<Block> blocks(size_t(c.size));
  blocks[size_t(c.rank)] = {0, own_bytes};
  return blocks;
}

// MPI_Gather and MPI_Gatherv (`vector`; counts and displs matter at the root only).
int gather(const char* fn, const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
           void* recvbuf, MPI_Count recvcount, bool vector, capi::CountArray counts,
           capi::CountArray displs, MPI_Datatype recvtype, int root, MPI_Comm comm, Form form,
           MPI_Request* request) {
  WEFT_REQUIRE_RUNNING(fn);
  weft::Comm* c = nullptr;
  WEFT_CHECK(comm, fn, capi::collective_comm(comm, &c));
  WEFT_CHECK(comm, fn, capi::check_root(*c, root));
  if (capi::sits_out(*c, root))
    return capi::launch_idle(fn, comm, *c, CollKind::kGather, form, request);
  const bool is_root = capi::is_root(*c, root), inter = c->is_inter();
  CallSpec spec;
  weft::coll::CollArgs& a = spec.args;
  a.kind = CollKind::kGather;
  a.root = root;
  a.uniform = !vector;
  const weft::Datatype* st = nullptr;
  if (!(inter && is_root)) {  // an intercommunicator's root sends nothing
    WEFT_CHECK(comm, fn,
               capi::check_typed(sendbuf, sendcount, sendtype, "sendbuf", "sendcount", "sendtype",
                                 is_root, &st));
  }
  capi::describe(spec, sendcount, st, MPI_OP_NULL, sendbuf == MPI_IN_PLACE);
  if (st != nullptr)
    spec.binding.send = capi::place_single(sendbuf, sendcount, st, &spec.send_typed);
  const size_t send_bytes = st != nullptr ? size_t(sendcount) * st->size() : 0;
  if (!is_root) {
    if (inter) {
      a.bytes = send_bytes;
    } else {
      a.blocks = own_view(*c, vector, send_bytes);
    }
    return capi::launch(fn, comm, *c, spec, form, request);
  }
  std::vector<capi::UserBlock> side;
  WEFT_CHECK(comm, fn,
             root_side(*c, vector, recvcount, counts, displs, recvtype, "recvcount", "recvcounts",
                       "recvtype", &side));
  WEFT_CHECK(comm, fn, capi::check_side_buffer(recvbuf, side, "recvbuf"));
  a.blocks = capi::place_blocks(side, &spec.recv_typed);
  spec.binding.recv = recvbuf;
  if (inter) return capi::launch(fn, comm, *c, spec, form, request);
  const Block own = a.blocks[size_t(root)];
  if (sendbuf == MPI_IN_PLACE) {
    if (spec.recv_typed.empty()) {
      spec.binding.send = at(recvbuf, own.offset);
    } else {
      spec.send_in_packed_recv = ptrdiff_t(own.offset);
    }
  } else {
    WEFT_CHECK(comm, fn, capi::check_same_bytes(send_bytes, own.bytes, "the root's own block"));
  }
  return capi::launch(fn, comm, *c, spec, form, request);
}

// MPI_Scatter and MPI_Scatterv (`vector`; counts and displs matter at the root only).
int scatter(const char* fn, const void* sendbuf, MPI_Count sendcount, bool vector,
            capi::CountArray counts, capi::CountArray displs, MPI_Datatype sendtype, void* recvbuf,
            MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, Form form,
            MPI_Request* request) {
  WEFT_REQUIRE_RUNNING(fn);
  weft::Comm* c = nullptr;
  WEFT_CHECK(comm, fn, capi::collective_comm(comm, &c));
  WEFT_CHECK(comm, fn, capi::check_root(*c, root));
  if (capi::sits_out(*c, root))
    return capi::launch_idle(fn, comm, *c, CollKind::kScatter, form, request);
  const bool is_root = capi::is_root(*c, root), inter = c->is_inter();
  CallSpec spec;
  weft::coll::CollArgs& a = spec.args;
  a.kind = CollKind::kScatter;
  a.root = root;
  a.uniform = !vector;
  const weft::Datatype* rt = nullptr;
  if (!(inter && is_root)) {  // an intercommunicator's root receives nothing
    WEFT_CHECK(comm, fn,
               capi::check_typed(recvbuf, recvcount, recvtype, "recvbuf", "recvcount", "recvtype",
                                 is_root, &rt));
  }
  capi::describe(spec, recvcount, rt, MPI_OP_NULL, recvbuf == MPI_IN_PLACE);
  if (rt != nullptr)
    spec.binding.recv = capi::place_single(recvbuf, recvcount, rt, &spec.recv_typed);
  const size_t recv_bytes = rt != nullptr ? size_t(recvcount) * rt->size() : 0;
  if (!is_root) {
    if (inter) {
      a.bytes = recv_bytes;
    } else {
      a.blocks = own_view(*c, vector, recv_bytes);
    }
    return capi::launch(fn, comm, *c, spec, form, request);
  }
  std::vector<capi::UserBlock> side;
  WEFT_CHECK(comm, fn,
             root_side(*c, vector, sendcount, counts, displs, sendtype, "sendcount", "sendcounts",
                       "sendtype", &side));
  WEFT_CHECK(comm, fn, capi::check_side_buffer(sendbuf, side, "sendbuf"));
  a.blocks = capi::place_blocks(side, &spec.send_typed);
  spec.binding.send = sendbuf;
  if (inter) return capi::launch(fn, comm, *c, spec, form, request);
  const Block own = a.blocks[size_t(root)];
  if (recvbuf == MPI_IN_PLACE) {
    if (spec.send_typed.empty()) {
      spec.binding.recv = at(sendbuf, own.offset);
    } else {
      spec.recv_in_packed_send = ptrdiff_t(own.offset);
    }
  } else {
    WEFT_CHECK(comm, fn, capi::check_same_bytes(own.bytes, recv_bytes, "the root's own block"));
  }
  return capi::launch(fn, comm, *c, spec, form, request);
}

}  // namespace

extern "C" {

int PMPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return gather("MPI_Gather", sendbuf, sendcount, sendtype, recvbuf, recvcount, false, nullptr,
                nullptr, recvtype, root, comm, Form::kBlocking, nullptr);
}
int PMPI_Igather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                 MPI_Request* request) {
  return gather("MPI_Igather", sendbuf, sendcount, sendtype, recvbuf, recvcount, false, nullptr,
                nullptr, recvtype, root, comm, Form::kNonblocking, request);
}
int PMPI_Gather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                     int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info,
                     MPI_Request* request) {
  return gather("MPI_Gather_init", sendbuf, sendcount, sendtype, recvbuf, recvcount, false, nullptr,
                nullptr, recvtype, root, comm, Form::kPersistent, request);
}

int PMPI_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                 MPI_Comm comm) {
  return gather("MPI_Gatherv", sendbuf, sendcount, sendtype, recvbuf, 0, true, recvcounts, displs,
                recvtype, root, comm, Form::kBlocking, nullptr);
}
int PMPI_Igatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                  const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                  MPI_Comm comm, MPI_Request* request) {
  return gather("MPI_Igatherv", sendbuf, sendcount, sendtype, recvbuf, 0, true, recvcounts, displs,
                recvtype, root, comm, Form::kNonblocking, request);
}
int PMPI_Gatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                      const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                      MPI_Comm comm, MPI_Info, MPI_Request* request) {
  return gather("MPI_Gatherv_init", sendbuf, sendcount, sendtype, recvbuf, 0, true, recvcounts,
                displs, recvtype, root, comm, Form::kPersistent, request);
}

int PMPI_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return scatter("MPI_Scatter", sendbuf, sendcount, false, nullptr, nullptr, sendtype, recvbuf,
                 recvcount, recvtype, root, comm, Form::kBlocking, nullptr);
}
int PMPI_Iscatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                  int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                  MPI_Request* request) {
  return scatter("MPI_Iscatter", sendbuf, sendcount, false, nullptr, nullptr, sendtype, recvbuf,
                 recvcount, recvtype, root, comm, Form::kNonblocking, request);
}
int PMPI_Scatter_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                      int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info,
                      MPI_Request* request) {
  return scatter("MPI_Scatter_init", sendbuf, sendcount, false, nullptr, nullptr, sendtype, recvbuf,
                 recvcount, recvtype, root, comm, Form::kPersistent, request);
}

int PMPI_Scatterv(const void* sendbuf, const int sendcounts[], const int displs[],
                  MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                  int root, MPI_Comm comm) {
  return scatter("MPI_Scatterv", sendbuf, 0, true, sendcounts, displs, sendtype, recvbuf, recvcount,
                 recvtype, root, comm, Form::kBlocking, nullptr);
}
int PMPI_Iscatterv(const void* sendbuf, const int sendcounts[], const int displs[],
                   MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                   int root, MPI_Comm comm, MPI_Request* request) {
  return scatter("MPI_Iscatterv", sendbuf, 0, true, sendcounts, displs, sendtype, recvbuf,
                 recvcount, recvtype, root, comm, Form::kNonblocking, request);
}
int PMPI_Scatterv_init(const void* sendbuf, const int sendcounts[], const int displs[],
                       MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                       int root, MPI_Comm comm, MPI_Info, MPI_Request* request) {
  return scatter("MPI_Scatterv_init", sendbuf, 0, true, sendcounts, displs, sendtype, recvbuf,
                 recvcount, recvtype, root, comm, Form::kPersistent, request);
}

// The large-count (_c) forms: MPI_Count counts and MPI_Aint displacements, same path.
int PMPI_Gather_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                  MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return gather("MPI_Gather_c", sendbuf, sendcount, sendtype, recvbuf, recvcount, false, nullptr,
                nullptr, recvtype, root, comm, Form::kBlocking, nullptr);
}
int PMPI_Igather_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                   MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                   MPI_Request* request) {
  return gather("MPI_Igather_c", sendbuf, sendcount, sendtype, recvbuf, recvcount, false, nullptr,
                nullptr, recvtype, root, comm, Form::kNonblocking, request);
}
int PMPI_Gather_init_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                       void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                       MPI_Comm comm, MPI_Info, MPI_Request* request) {
  return gather("MPI_Gather_init_c", sendbuf, sendcount, sendtype, recvbuf, recvcount, false,
                nullptr, nullptr, recvtype, root, comm, Form::kPersistent, request);
}
int PMPI_Gatherv_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                   const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                   int root, MPI_Comm comm) {
  return gather("MPI_Gatherv_c", sendbuf, sendcount, sendtype, recvbuf, 0, true, recvcounts, displs,
                recvtype, root, comm, Form::kBlocking, nullptr);
}
int PMPI_Igatherv_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                    const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                    int root, MPI_Comm comm, MPI_Request* request) {
  return gather("MPI_Igatherv_c", sendbuf, sendcount, sendtype, recvbuf, 0, true, recvcounts,
                displs, recvtype, root, comm, Form::kNonblocking, request);
}
int PMPI_Gatherv_init_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                        void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                        MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info,
                        MPI_Request* request) {
  return gather("MPI_Gatherv_init_c", sendbuf, sendcount, sendtype, recvbuf, 0, true, recvcounts,
                displs, recvtype, root, comm, Form::kPersistent, request);
}
int PMPI_Scatter_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                   MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return scatter("MPI_Scatter_c", sendbuf, sendcount, false, nullptr, nullptr, sendtype, recvbuf,
                 recvcount, recvtype, root, comm, Form::kBlocking, nullptr);
}
int PMPI_Iscatter_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                    MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                    MPI_Request* request) {
  return scatter("MPI_Iscatter_c", sendbuf, sendcount, false, nullptr, nullptr, sendtype, recvbuf,
                 recvcount, recvtype, root, comm, Form::kNonblocking, request);
}
int PMPI_Scatter_init_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                        void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                        MPI_Comm comm, MPI_Info, MPI_Request* request) {
  return scatter("MPI_Scatter_init_c", sendbuf, sendcount, false, nullptr, nullptr, sendtype,
                 recvbuf, recvcount, recvtype, root, comm, Form::kPersistent, request);
}
int PMPI_Scatterv_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                    MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount,
                    MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return scatter("MPI_Scatterv_c", sendbuf, 0, true, sendcounts, displs, sendtype, recvbuf,
                 recvcount, recvtype, root, comm, Form::kBlocking, nullptr);
}
int PMPI_Iscatterv_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                     MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount,
                     MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  return scatter("MPI_Iscatterv_c", sendbuf, 0, true, sendcounts, displs, sendtype, recvbuf,
                 recvcount, recvtype, root, comm, Form::kNonblocking, request);
}
int PMPI_Scatterv_init_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                         MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount,
                         MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info,
                         MPI_Request* request) {
  return scatter("MPI_Scatterv_init_c", sendbuf, 0, true, sendcounts, displs, sendtype, recvbuf,
                 recvcount, recvtype, root, comm, Form::kPersistent, request);
}

}  // extern "C"

// The profiling interface: each MPI_X is a weak alias of PMPI_X (runtime/c_api/guard.hpp).
WEFT_MPI_ALIAS(MPI_Gather)
WEFT_MPI_ALIAS(MPI_Igather)
WEFT_MPI_ALIAS(MPI_Gather_init)
WEFT_MPI_ALIAS(MPI_Gatherv)
WEFT_MPI_ALIAS(MPI_Igatherv)
WEFT_MPI_ALIAS(MPI_Gatherv_init)
WEFT_MPI_ALIAS(MPI_Scatter)
WEFT_MPI_ALIAS(MPI_Iscatter)
WEFT_MPI_ALIAS(MPI_Scatter_init)
WEFT_MPI_ALIAS(MPI_Scatterv)
WEFT_MPI_ALIAS(MPI_Iscatterv)
WEFT_MPI_ALIAS(MPI_Scatterv_init)
WEFT_MPI_ALIAS(MPI_Gather_c)
WEFT_MPI_ALIAS(MPI_Igather_c)
WEFT_MPI_ALIAS(MPI_Gather_init_c)
WEFT_MPI_ALIAS(MPI_Gatherv_c)
WEFT_MPI_ALIAS(MPI_Igatherv_c)
WEFT_MPI_ALIAS(MPI_Gatherv_init_c)
WEFT_MPI_ALIAS(MPI_Scatter_c)
WEFT_MPI_ALIAS(MPI_Iscatter_c)
WEFT_MPI_ALIAS(MPI_Scatter_init_c)
WEFT_MPI_ALIAS(MPI_Scatterv_c)
WEFT_MPI_ALIAS(MPI_Iscatterv_c)
WEFT_MPI_ALIAS(MPI_Scatterv_init_c)
