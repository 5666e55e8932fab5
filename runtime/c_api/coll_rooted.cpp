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

// One side of MPI_Gather(v)/MPI_Scatter(v) as the C API passed it, with the names its errors
// give the arguments: the side every rank has, or the root's side that holds every rank's block
// (counts and displs for the v-variants).
struct Side {
  const void* buf;
  MPI_Count count;
  capi::CountArray counts, displs;
  MPI_Datatype type;
  const char* buf_arg;
  const char* count_arg;
  const char* counts_arg;
  const char* type_arg;
};

// MPI_Gather(v) (`gathers`: every rank's send side `own` to the root's receive side `all`) and
// MPI_Scatter(v) (the root's send side `all` to every rank's receive side `own`); `vector`: the
// v-variants.
int rooted(const char* fn, bool gathers, const Side& own, const Side& all, bool vector, int root,
           MPI_Comm comm, Form form, MPI_Request* request) {
  WEFT_REQUIRE_RUNNING(fn);
  weft::Comm* c = nullptr;
  WEFT_CHECK(comm, fn, capi::collective_comm(comm, &c));
  WEFT_CHECK(comm, fn, capi::check_root(*c, root));
  const CollKind kind = gathers ? CollKind::kGather : CollKind::kScatter;
  if (capi::sits_out(*c, root)) return capi::launch_idle(fn, comm, *c, kind, form, request);
  const bool is_root = capi::is_root(*c, root), inter = c->is_inter();
  CallSpec spec;
  weft::coll::CollArgs& a = spec.args;
  a.kind = kind;
  a.root = root;
  a.uniform = !vector;
  // Where each side goes in the call: the sending one is the send side.
  weft::coll::TypedBuffer& own_typed = gathers ? spec.send_typed : spec.recv_typed;
  weft::coll::TypedBuffer& all_typed = gathers ? spec.recv_typed : spec.send_typed;
  const auto bind = [&spec](bool sending, const void* buf) {
    if (sending)
      spec.binding.send = buf;
    else
      spec.binding.recv = const_cast<void*>(buf);
  };
  const weft::Datatype* t = nullptr;
  if (!(inter && is_root)) {  // an intercommunicator's root has no side of its own
    WEFT_CHECK(comm, fn,
               capi::check_typed(own.buf, own.count, own.type, own.buf_arg, own.count_arg,
                                 own.type_arg, is_root, &t));
  }
  capi::describe(spec, own.count, t, MPI_OP_NULL, own.buf == MPI_IN_PLACE);
  if (t != nullptr) bind(gathers, capi::place_single(own.buf, own.count, t, &own_typed));
  const size_t own_bytes = t != nullptr ? size_t(own.count) * t->size() : 0;
  if (!is_root) {
    if (inter) {
      a.bytes = own_bytes;
    } else {
      a.blocks = own_view(*c, vector, own_bytes);
    }
    return capi::launch(fn, comm, *c, spec, form, request);
  }
  std::vector<capi::UserBlock> side;
  WEFT_CHECK(comm, fn,
             root_side(*c, vector, all.count, all.counts, all.displs, all.type, all.count_arg,
                       all.counts_arg, all.type_arg, &side));
  WEFT_CHECK(comm, fn, capi::check_side_buffer(all.buf, side, all.buf_arg));
  a.blocks = capi::place_blocks(side, &all_typed);
  bind(!gathers, all.buf);
  if (inter) return capi::launch(fn, comm, *c, spec, form, request);
  const Block root_block = a.blocks[size_t(root)];
  if (own.buf == MPI_IN_PLACE) {
    if (all_typed.empty()) {
      bind(gathers, at(all.buf, root_block.offset));
    } else {
      (gathers ? spec.send_in_packed_recv : spec.recv_in_packed_send) =
          ptrdiff_t(root_block.offset);
    }
  } else {
    const size_t sent = gathers ? own_bytes : root_block.bytes;
    const size_t received = gathers ? root_block.bytes : own_bytes;
    WEFT_CHECK(comm, fn, capi::check_same_bytes(sent, received, "the root's own block"));
  }
  return capi::launch(fn, comm, *c, spec, form, request);
}

// MPI_Gather and MPI_Gatherv (`vector`; counts and displs matter at the root only).
int gather(const char* fn, const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
           void* recvbuf, MPI_Count recvcount, bool vector, capi::CountArray counts,
           capi::CountArray displs, MPI_Datatype recvtype, int root, MPI_Comm comm, Form form,
           MPI_Request* request) {
  const Side send{sendbuf, sendcount, nullptr, nullptr, sendtype,
                  "sendbuf", "sendcount", nullptr, "sendtype"};
  const Side recv{recvbuf, recvcount, counts, displs, recvtype,
                  "recvbuf", "recvcount", "recvcounts", "recvtype"};
  return rooted(fn, true, send, recv, vector, root, comm, form, request);
}

// MPI_Scatter and MPI_Scatterv (`vector`; counts and displs matter at the root only).
int scatter(const char* fn, const void* sendbuf, MPI_Count sendcount, bool vector,
            capi::CountArray counts, capi::CountArray displs, MPI_Datatype sendtype, void* recvbuf,
            MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, Form form,
            MPI_Request* request) {
  const Side send{sendbuf, sendcount, counts, displs, sendtype,
                  "sendbuf", "sendcount", "sendcounts", "sendtype"};
  const Side recv{recvbuf, recvcount, nullptr, nullptr, recvtype,
                  "recvbuf", "recvcount", nullptr, "recvtype"};
  return rooted(fn, false, recv, send, vector, root, comm, form, request);
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
