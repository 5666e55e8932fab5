// Shared checks and the launch of collective calls.
#include "runtime/c_api/coll_call.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

#include "coll/node_region.hpp"
#include "runtime/datatype/datatype.hpp"

namespace weft::capi {

int launch(const char* fn, MPI_Comm comm, Comm& c, coll::CallSpec& spec, Form form,
           MPI_Request* request) {
  if (world().check_collectives) std::snprintf(spec.label.fn, sizeof spec.label.fn, "%s", fn);
  if (form == Form::kBlocking) {
    // The first blocking collective the program makes on a communicator learns its node region
    // (not the library's own exchanges, which a call that fails on bad arguments may leave
    // unmatched on some ranks). Before run_blocking's learn_nodes, whose exchange gives its call
    // number back: a region post is known by its call's number, which must not come twice.
    Status s = coll::learn_region(c);
    if (s.ok()) s = coll::run_blocking(c, spec);
    return report(comm, fn, s);
  }
  WEFT_CHECK(comm, fn, check_not_null(request, "request"));
  Request* r = nullptr;
  Status s = form == Form::kNonblocking ? coll::start_nonblocking(c, spec, &r)
                                        : coll::init_persistent(c, spec, &r);
  if (!s.ok()) return report(comm, fn, s);
  *request = r;
  return MPI_SUCCESS;
}

void describe(coll::CallSpec& spec, MPI_Count count, const Datatype* type, MPI_Op op,
              bool in_place) {
  if (!world().check_collectives) return;
  coll::CallLabel& label = spec.label;
  if (type != nullptr) {
    label.count = count;
    std::snprintf(label.type, sizeof label.type, "%s", type->label());
  }
  label.op = op == MPI_OP_NULL ? -1 : op;
  label.in_place = in_place;
}

Status collective_comm(MPI_Comm comm, Comm** out) {
  return lookup_comm(world().comms, comm, "comm", out);
}

static_assert(MPI_ROOT == coll::CollArgs::kRootHere && MPI_PROC_NULL == coll::CollArgs::kRootNone);

int launch_idle(const char* fn, MPI_Comm comm, Comm& c, coll::CollKind kind, Form form,
                MPI_Request* request) {
  coll::CallSpec spec;
  spec.args.kind = kind;
  spec.args.root = MPI_PROC_NULL;
  return launch(fn, comm, c, spec, form, request);
}

Status check_root(const Comm& c, int root) {
  if (c.is_inter()) {
    if (root == MPI_ROOT || root == MPI_PROC_NULL || (root >= 0 && root < c.remote_size()))
      return Status::success();
    return Status::error(MPI_ERR_ROOT, "invalid root=" + std::to_string(root) + " (on " +
                                           c.display_name() +
                                           ", an intercommunicator: MPI_ROOT, MPI_PROC_NULL or "
                                           "a rank of its remote group of " +
                                           std::to_string(c.remote_size()) + ")");
  }
  if (root >= 0 && root < c.size) return Status::success();
  return Status::error(MPI_ERR_ROOT, "invalid root=" + std::to_string(root) + " (" +
                                         c.display_name() + " has " + std::to_string(c.size) +
                                         " ranks)");
}

Status check_coll_buffer(const void* buf, size_t count, const Datatype* type, const char* arg,
                         bool in_place_ok) {
  if (buf == MPI_IN_PLACE && !in_place_ok) {
    return Status::error(MPI_ERR_BUFFER,
                         std::string("invalid buffer ") + arg + "=MPI_IN_PLACE (not allowed here)");
  }
  if (buf == nullptr && count > 0 && (type == nullptr || type->is_predefined())) {
    return Status::error(MPI_ERR_BUFFER, std::string("invalid buffer ") + arg +
                                             "=NULL with count " + std::to_string(count));
  }
  return Status::success();
}

Status check_side_buffer(const void* buf, const std::vector<UserBlock>& side, const char* arg) {
  if (buf == MPI_IN_PLACE) return check_coll_buffer(buf, 0, nullptr, arg, false);
  if (buf != nullptr) return Status::success();
  // No process has data in the first page; a derived type may carry the address itself.
  constexpr ptrdiff_t kFirstPage = 4096;
  for (size_t i = 0; i < side.size(); ++i) {
    const UserBlock& b = side[i];
    const ptrdiff_t address = b.displacement + b.type->true_lb();
    if (b.count == 0 || !b.type->is_predefined() || address >= kFirstPage) continue;
    return Status::error(MPI_ERR_BUFFER,
                         std::string("invalid buffer ") + arg + "=NULL: block " +
                             std::to_string(i) + " (" + std::to_string(b.count) + " " +
                             b.type->label() + ") would start at address " +
                             std::to_string(address) +
                             " (with MPI_BOTTOM the displacements are absolute addresses)");
  }
  return Status::success();
}

Status check_typed(const void* buf, MPI_Count count, MPI_Datatype type, const char* buf_arg,
                   const char* count_arg, const char* type_arg, bool in_place_ok,
                   const Datatype** out) {
  *out = nullptr;
  if (in_place_ok && buf == MPI_IN_PLACE) return Status::success();
  WEFT_TRY(check_count(count, count_arg));
  WEFT_TRY(find_message_datatype(type, count, type_arg, out));
  return check_coll_buffer(buf, size_t(count), *out, buf_arg, in_place_ok);
}

std::vector<UserBlock> regular_side(int n, MPI_Count count, const Datatype* type) {
  std::vector<UserBlock> side(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) side[size_t(i)] = {i * count * type->extent(), count, type};
  return side;
}

Status vector_side(int n, CountArray counts, CountArray displs, MPI_Datatype type,
                   const MPI_Datatype* types, const char* counts_arg, const char* displs_arg,
                   const char* type_arg, std::vector<UserBlock>* out) {
  out->assign(size_t(n), UserBlock{});
  // The v forms' one type is checked even without blocks, except MPI_DATATYPE_NULL, which only
  // blocks of count 0 may have.
  const Datatype* t = nullptr;
  if (types == nullptr && type != MPI_DATATYPE_NULL)
    WEFT_TRY(find_committed_datatype(type, type_arg, &t));
  if (n == 0) return Status::success();
  WEFT_TRY(check_not_null(counts.data(), counts_arg));
  WEFT_TRY(check_not_null(displs.data(), displs_arg));
  if (types != nullptr) WEFT_TRY(check_not_null(types, type_arg));
  for (int i = 0; i < n; ++i) {
    const std::string index = "[" + std::to_string(i) + "]";
    WEFT_TRY(check_count(counts[i], (counts_arg + index).c_str()));
    if (displs[i] < 0) {  // blocks are placed as unsigned offsets from the buffer
      return Status::error(MPI_ERR_ARG, std::string("invalid displacement ") + displs_arg + index +
                                            "=" + std::to_string(displs[i]) +
                                            " (must be >= 0)");
    }
    UserBlock& b = (*out)[size_t(i)];
    b.count = counts[i];
    if (types != nullptr) {
      WEFT_TRY(
          find_message_datatype(types[i], counts[i], (type_arg + index).c_str(), &b.type));
      b.displacement = ptrdiff_t(displs[i]);
    } else {
      b.type = t;
      if (b.type == nullptr) WEFT_TRY(find_message_datatype(type, counts[i], type_arg, &b.type));
      b.displacement = ptrdiff_t(displs[i]) * b.type->extent();
    }
  }
  return Status::success();
}

std::vector<coll::Block> place_blocks(const std::vector<UserBlock>& side,
                                      coll::TypedBuffer* typed) {
  bool contiguous = true;
  for (const UserBlock& b : side) contiguous = contiguous && b.type->is_contiguous(size_t(b.count));
  std::vector<coll::Block> blocks(side.size());
  size_t packed = 0;
  for (size_t i = 0; i < side.size(); ++i) {
    const UserBlock& b = side[i];
    if (contiguous) {  // offsets from the buffer
      blocks[i] = {size_t(b.displacement + b.type->true_lb()), b.bytes()};
    } else {
      typed->add(b.displacement, size_t(b.count), b.type->share());
      blocks[i] = {packed, b.bytes()};
      packed += b.bytes();
    }
  }
  return blocks;
}

void* place_single(const void* buf, MPI_Count count, const Datatype* type,
                   coll::TypedBuffer* typed) {
  if (type->is_contiguous(size_t(count))) return type->data_start(buf);
  typed->add(0, size_t(count), type->share());
  return const_cast<void*>(buf);
}

size_t placed_extent(const std::vector<coll::Block>& blocks) {
  size_t end = 0;
  for (const coll::Block& b : blocks) end = std::max(end, b.offset + b.bytes);
  return end;
}

Status check_same_bytes(size_t send_bytes, size_t recv_bytes, const char* what) {
  if (send_bytes == recv_bytes) return Status::success();
  return Status::error(MPI_ERR_TRUNCATE,
                       std::string(what) + ": the send side carries " + std::to_string(send_bytes) +
                           " bytes but the receive side " + std::to_string(recv_bytes));
}

Status check_not_aliased(const void* sendbuf, const void* recvbuf, size_t bytes) {
  if (sendbuf != recvbuf || bytes == 0 || sendbuf == nullptr) return Status::success();
  return Status::error(MPI_ERR_BUFFER,
                       "sendbuf and recvbuf are the same buffer (pass MPI_IN_PLACE as sendbuf "
                       "for an in-place operation)");
}

}  // namespace weft::capi
