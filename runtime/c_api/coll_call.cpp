// Shared checks and the launch of collective calls.
#include "runtime/c_api/coll_call.hpp"

#include <string>

#include "runtime/datatype.hpp"

namespace weft::capi {

int launch(const char* fn, MPI_Comm comm, Comm& c, coll::CallSpec& spec, Form form,
           MPI_Request* request) {
  if (form == Form::kBlocking) return report(comm, fn, coll::run_blocking(c, spec));
  WEFT_CHECK(comm, fn, check_not_null(request, "request"));
  Request* r = nullptr;
  Status s = form == Form::kNonblocking ? coll::start_nonblocking(c, spec, &r)
                                        : coll::init_persistent(c, spec, &r);
  if (!s.ok()) return report(comm, fn, s);
  *request = r;
  return MPI_SUCCESS;
}

Status collective_comm(MPI_Comm comm, Comm** out) {
  return lookup_comm(world().comms, comm, "comm", out);
}

Status element_size(MPI_Datatype type, const char* arg, size_t* out) {
  const DatatypeInfo* info = nullptr;
  WEFT_TRY(lookup_datatype(type, arg, &info));
  *out = info->size;
  return Status::success();
}

Status check_coll_buffer(const void* buf, size_t count, const char* arg, bool in_place_ok) {
  if (buf == MPI_IN_PLACE && !in_place_ok) {
    return Status::error(MPI_ERR_BUFFER, std::string("invalid buffer ") + arg +
                                             "=MPI_IN_PLACE (not allowed here)");
  }
  if (buf == nullptr && count > 0) {
    return Status::error(MPI_ERR_BUFFER, std::string("invalid buffer ") + arg +
                                             "=NULL with count " + std::to_string(count));
  }
  return Status::success();
}

Status check_side(const void* buf, MPI_Count count, MPI_Datatype type, const char* buf_arg,
                  const char* count_arg, const char* type_arg, bool in_place_ok, size_t* bytes,
                  size_t* elem_size) {
  if (in_place_ok && buf == MPI_IN_PLACE) {  // count and type are ignored
    *bytes = 0;
    *elem_size = 1;
    return Status::success();
  }
  WEFT_TRY(check_count(count, count_arg));
  WEFT_TRY(element_size(type, type_arg, elem_size));
  WEFT_TRY(check_coll_buffer(buf, size_t(count), buf_arg, in_place_ok));
  *bytes = size_t(count) * *elem_size;
  return Status::success();
}

Status check_root(const Comm& c, int root) {
  if (root >= 0 && root < c.size) return Status::success();
  return Status::error(MPI_ERR_ROOT, "invalid root=" + std::to_string(root) + " (" + c.display_name() +
                                         " has " + std::to_string(c.size) + " ranks)");
}

Status vector_blocks(int n, CountArray counts, CountArray displs, size_t elem_size,
                     const char* counts_arg, const char* displs_arg,
                     std::vector<coll::Block>* out) {
  WEFT_TRY(check_not_null(counts.data(), counts_arg));
  WEFT_TRY(check_not_null(displs.data(), displs_arg));
  out->resize(size_t(n));
  for (int i = 0; i < n; ++i) {
    if (counts[i] < 0) {
      return Status::error(MPI_ERR_COUNT, std::string("invalid count ") + counts_arg + "[" +
                                              std::to_string(i) + "]=" + std::to_string(counts[i]) +
                                              " (must be >= 0)");
    }
    if (displs[i] < 0) {
      return Status::error(MPI_ERR_ARG, std::string("invalid displacement ") + displs_arg + "[" +
                                            std::to_string(i) + "]=" + std::to_string(displs[i]) +
                                            " (must be >= 0)");
    }
    (*out)[size_t(i)] = {size_t(displs[i]) * elem_size, size_t(counts[i]) * elem_size};
  }
  return Status::success();
}

Status bind_op(MPI_Op op, MPI_Datatype type, size_t elem_size, Reduction* out) {
  return world().ops.bind(op, type, elem_size, out);
}

Status check_same_bytes(size_t send_bytes, size_t recv_bytes, const char* what) {
  if (send_bytes == recv_bytes) return Status::success();
  return Status::error(MPI_ERR_TRUNCATE, std::string(what) + ": the send side carries " +
                                             std::to_string(send_bytes) +
                                             " bytes but the receive side " +
                                             std::to_string(recv_bytes));
}

Status check_not_aliased(const void* sendbuf, const void* recvbuf, size_t bytes) {
  if (sendbuf != recvbuf || bytes == 0 || sendbuf == nullptr) return Status::success();
  return Status::error(MPI_ERR_BUFFER,
                       "sendbuf and recvbuf are the same buffer (pass MPI_IN_PLACE as sendbuf "
                       "for an in-place operation)");
}

}  // namespace weft::capi
