// One-sided chapter, communication calls: put, get, accumulate, get_accumulate,
// fetch_and_op, compare_and_swap and the request-based forms, int and large-count (MPI 4.1
// §12.3).
#include <cstring>
#include <initializer_list>
#include <vector>

#include "gpu/memory.hpp"
#include "mpi.h"
#include "rma/fast_path.hpp"
#include "rma/operations.hpp"
#include "runtime/c_api/guard.hpp"
#include "runtime/c_api/rma_args.hpp"

using weft::Status;
namespace capi = weft::capi;
namespace rma = weft::rma;

namespace {

constexpr capi::ArgNames kOrigin{"origin_addr", "origin_count", "origin_datatype"};
constexpr capi::ArgNames kResult{"result_addr", "result_count", "result_datatype"};

enum class Kind { kPut, kGet, kAccumulate };

// Put, get and accumulate, blocking or with a request.
int transfer(const char* fn, Kind kind, const void* origin_addr, MPI_Count origin_count,
             MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
             MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
             bool request_form, MPI_Request* request) {
  WEFT_REQUIRE_RUNNING(fn);
  rma::Window* w = nullptr;
  WEFT_WIN_CHECK(win, fn, capi::window_arg(win, &w));
  rma::Typed origin;
  rma::TargetRef target;
  WEFT_WIN_CHECK(win, fn,
                 capi::typed_arg(origin_addr, origin_count, origin_datatype, kOrigin, &origin));
  WEFT_WIN_CHECK(
      win, fn,
      capi::target_arg(*w, target_rank, target_disp, target_count, target_datatype, &target));
  if (request_form) WEFT_WIN_CHECK(win, fn, capi::check_not_null(request, "request"));
  switch (kind) {
    case Kind::kPut:
      WEFT_WIN_CHECK(win, fn, rma::put(*w, origin, target));
      break;
    case Kind::kGet:
      WEFT_WIN_CHECK(win, fn, rma::get(*w, origin, target));
      break;
    case Kind::kAccumulate:
      WEFT_WIN_CHECK(win, fn, rma::accumulate(*w, origin, target, op));
      break;
  }
  if (request_form) *request = capi::completed_request();
  return MPI_SUCCESS;
}

int get_accumulate(const char* fn, const void* origin_addr, MPI_Count origin_count,
                   MPI_Datatype origin_datatype, void* result_addr, MPI_Count result_count,
                   MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                   MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                   bool request_form, MPI_Request* request) {
  WEFT_REQUIRE_RUNNING(fn);
  rma::Window* w = nullptr;
  WEFT_WIN_CHECK(win, fn, capi::window_arg(win, &w));
  rma::Typed origin, result;
  rma::TargetRef target;
  // With MPI_NO_OP the origin buffer is ignored (MPI 4.1 §12.3.4).
  if (op == MPI_NO_OP) {
    origin = rma::Typed{nullptr, 0, nullptr};
  } else {
    WEFT_WIN_CHECK(win, fn,
                   capi::typed_arg(origin_addr, origin_count, origin_datatype, kOrigin, &origin));
  }
  WEFT_WIN_CHECK(win, fn,
                 capi::typed_arg(result_addr, result_count, result_datatype, kResult, &result));
  WEFT_WIN_CHECK(
      win, fn,
      capi::target_arg(*w, target_rank, target_disp, target_count, target_datatype, &target));
  if (request_form) WEFT_WIN_CHECK(win, fn, capi::check_not_null(request, "request"));
  WEFT_WIN_CHECK(win, fn, rma::get_accumulate(*w, origin, result, target, op));
  if (request_form) *request = capi::completed_request();
  return MPI_SUCCESS;
}

// Fetch-and-op and compare-and-swap on one element in device memory: the call runs on host
// copies of its buffers, and the result goes back to the device.
class HostElements {
 public:
  // False (nothing to do) unless one of `buffers` is device memory and `datatype` is valid.
  bool stage(std::initializer_list<const void*> buffers, MPI_Datatype datatype) {
    bool any = false;
    for (const void* b : buffers) any = any || weft::gpu::on_device(b);
    int size = 0;
    if (!any || PMPI_Type_size(datatype, &size) != MPI_SUCCESS || size <= 0) return false;
    size_ = size_t(size);
    for (const void* b : buffers) {
      copies_.emplace_back(size_);
      if (weft::gpu::on_device(b)) {
        const Status copied = weft::gpu::device_memory()->copy(copies_.back().data(), b, size_);
        if (error_.ok()) error_ = copied;
      } else if (b != nullptr) {
        std::memcpy(copies_.back().data(), b, size_);
      }
    }
    return true;
  }
  void* at(size_t i) { return copies_[i].data(); }
  // After the call on the copies: a failed copy to the host is reported now, before any result.
  int unstage(size_t i, void* result, MPI_Win win, const char* fn) {
    if (!error_.ok()) return capi::report_win(win, fn, error_);
    if (!weft::gpu::on_device(result)) {
      std::memcpy(result, copies_[i].data(), size_);
      return MPI_SUCCESS;
    }
    const Status s = weft::gpu::device_memory()->copy(result, copies_[i].data(), size_);
    return s.ok() ? MPI_SUCCESS : capi::report_win(win, fn, s);
  }

 private:
  size_t size_ = 0;
  std::vector<std::vector<unsigned char>> copies_;
  Status error_;
};

}  // namespace

extern "C" {

int PMPI_Put(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype,
             int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype,
             MPI_Win win) {
  if (rma::fast_put_get(false, win, origin_addr, origin_count, origin_datatype, target_rank,
                        target_disp, target_count, target_datatype))
    return MPI_SUCCESS;
  return transfer("MPI_Put", Kind::kPut, origin_addr, origin_count, origin_datatype, target_rank,
                  target_disp, target_count, target_datatype, MPI_OP_NULL, win, false, nullptr);
}

int PMPI_Put_c(const void* origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
               int target_rank, MPI_Aint target_disp, MPI_Count target_count,
               MPI_Datatype target_datatype, MPI_Win win) {
  if (rma::fast_put_get(false, win, origin_addr, origin_count, origin_datatype, target_rank,
                        target_disp, target_count, target_datatype))
    return MPI_SUCCESS;
  return transfer("MPI_Put_c", Kind::kPut, origin_addr, origin_count, origin_datatype, target_rank,
                  target_disp, target_count, target_datatype, MPI_OP_NULL, win, false, nullptr);
}

int PMPI_Get(void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
             MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win) {
  if (rma::fast_put_get(true, win, origin_addr, origin_count, origin_datatype, target_rank,
                        target_disp, target_count, target_datatype))
    return MPI_SUCCESS;
  return transfer("MPI_Get", Kind::kGet, origin_addr, origin_count, origin_datatype, target_rank,
                  target_disp, target_count, target_datatype, MPI_OP_NULL, win, false, nullptr);
}

int PMPI_Get_c(void* origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
               int target_rank, MPI_Aint target_disp, MPI_Count target_count,
               MPI_Datatype target_datatype, MPI_Win win) {
  if (rma::fast_put_get(true, win, origin_addr, origin_count, origin_datatype, target_rank,
                        target_disp, target_count, target_datatype))
    return MPI_SUCCESS;
  return transfer("MPI_Get_c", Kind::kGet, origin_addr, origin_count, origin_datatype, target_rank,
                  target_disp, target_count, target_datatype, MPI_OP_NULL, win, false, nullptr);
}

int PMPI_Accumulate(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype,
                    int target_rank, MPI_Aint target_disp, int target_count,
                    MPI_Datatype target_datatype, MPI_Op op, MPI_Win win) {
  return transfer("MPI_Accumulate", Kind::kAccumulate, origin_addr, origin_count, origin_datatype,
                  target_rank, target_disp, target_count, target_datatype, op, win, false, nullptr);
}

int PMPI_Accumulate_c(const void* origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                      int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                      MPI_Datatype target_datatype, MPI_Op op, MPI_Win win) {
  return transfer("MPI_Accumulate_c", Kind::kAccumulate, origin_addr, origin_count, origin_datatype,
                  target_rank, target_disp, target_count, target_datatype, op, win, false, nullptr);
}

int PMPI_Get_accumulate(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype,
                        void* result_addr, int result_count, MPI_Datatype result_datatype,
                        int target_rank, MPI_Aint target_disp, int target_count,
                        MPI_Datatype target_datatype, MPI_Op op, MPI_Win win) {
  return get_accumulate("MPI_Get_accumulate", origin_addr, origin_count, origin_datatype,
                        result_addr, result_count, result_datatype, target_rank, target_disp,
                        target_count, target_datatype, op, win, false, nullptr);
}

int PMPI_Get_accumulate_c(const void* origin_addr, MPI_Count origin_count,
                          MPI_Datatype origin_datatype, void* result_addr, MPI_Count result_count,
                          MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                          MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
                          MPI_Win win) {
  return get_accumulate("MPI_Get_accumulate_c", origin_addr, origin_count, origin_datatype,
                        result_addr, result_count, result_datatype, target_rank, target_disp,
                        target_count, target_datatype, op, win, false, nullptr);
}

int PMPI_Fetch_and_op(const void* origin_addr, void* result_addr, MPI_Datatype datatype,
                      int target_rank, MPI_Aint target_disp, MPI_Op op, MPI_Win win) {
  if (HostElements e; e.stage({origin_addr, result_addr}, datatype)) {
    const int rc = PMPI_Fetch_and_op(e.at(0), e.at(1), datatype, target_rank, target_disp, op, win);
    return rc == MPI_SUCCESS ? e.unstage(1, result_addr, win, "MPI_Fetch_and_op") : rc;
  }
  if (rma::fast_fetch_and_op(origin_addr, result_addr, datatype, target_rank, target_disp, op, win))
    return MPI_SUCCESS;
  const int rc =
      get_accumulate("MPI_Fetch_and_op", origin_addr, 1, datatype, result_addr, 1, datatype,
                     target_rank, target_disp, 1, datatype, op, win, false, nullptr);
  if (rc == MPI_SUCCESS)
    if (rma::Window* w = rma::windows().find(win)) rma::remember_fetch_op(*w, op, datatype);
  return rc;
}

int PMPI_Compare_and_swap(const void* origin_addr, const void* compare_addr, void* result_addr,
                          MPI_Datatype datatype, int target_rank, MPI_Aint target_disp,
                          MPI_Win win) {
  if (HostElements e; e.stage({origin_addr, compare_addr, result_addr}, datatype)) {
    const int rc =
        PMPI_Compare_and_swap(e.at(0), e.at(1), e.at(2), datatype, target_rank, target_disp, win);
    return rc == MPI_SUCCESS ? e.unstage(2, result_addr, win, "MPI_Compare_and_swap") : rc;
  }
  if (rma::fast_compare_and_swap(origin_addr, compare_addr, result_addr, datatype, target_rank,
                                 target_disp, win))
    return MPI_SUCCESS;
  constexpr const char* fn = "MPI_Compare_and_swap";
  WEFT_REQUIRE_RUNNING(fn);
  rma::Window* w = nullptr;
  WEFT_WIN_CHECK(win, fn, capi::window_arg(win, &w));
  rma::TargetRef target;
  WEFT_WIN_CHECK(win, fn, capi::target_arg(*w, target_rank, target_disp, 1, datatype, &target));
  if (!target.type->is_predefined())
    return capi::report_win(
        win, fn,
        Status::error(MPI_ERR_TYPE, std::string("invalid datatype=") + target.type->label() +
                                        " (compare-and-swap takes a predefined "
                                        "type)"));
  WEFT_WIN_CHECK(win, fn, capi::check_not_null(origin_addr, "origin_addr"));
  WEFT_WIN_CHECK(win, fn, capi::check_not_null(compare_addr, "compare_addr"));
  WEFT_WIN_CHECK(win, fn, capi::check_not_null(result_addr, "result_addr"));
  WEFT_WIN_CHECK(win, fn,
                 rma::compare_and_swap(*w, origin_addr, compare_addr, result_addr, target.type,
                                       target_rank, target_disp));
  return MPI_SUCCESS;
}

int PMPI_Rput(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype,
              int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype,
              MPI_Win win, MPI_Request* request) {
  return transfer("MPI_Rput", Kind::kPut, origin_addr, origin_count, origin_datatype, target_rank,
                  target_disp, target_count, target_datatype, MPI_OP_NULL, win, true, request);
}

int PMPI_Rput_c(const void* origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                MPI_Datatype target_datatype, MPI_Win win, MPI_Request* request) {
  return transfer("MPI_Rput_c", Kind::kPut, origin_addr, origin_count, origin_datatype, target_rank,
                  target_disp, target_count, target_datatype, MPI_OP_NULL, win, true, request);
}

int PMPI_Rget(void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
              MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
              MPI_Request* request) {
  return transfer("MPI_Rget", Kind::kGet, origin_addr, origin_count, origin_datatype, target_rank,
                  target_disp, target_count, target_datatype, MPI_OP_NULL, win, true, request);
}

int PMPI_Rget_c(void* origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                MPI_Datatype target_datatype, MPI_Win win, MPI_Request* request) {
  return transfer("MPI_Rget_c", Kind::kGet, origin_addr, origin_count, origin_datatype, target_rank,
                  target_disp, target_count, target_datatype, MPI_OP_NULL, win, true, request);
}

int PMPI_Raccumulate(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype,
                     int target_rank, MPI_Aint target_disp, int target_count,
                     MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request* request) {
  return transfer("MPI_Raccumulate", Kind::kAccumulate, origin_addr, origin_count, origin_datatype,
                  target_rank, target_disp, target_count, target_datatype, op, win, true, request);
}

int PMPI_Raccumulate_c(const void* origin_addr, MPI_Count origin_count,
                       MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
                       MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                       MPI_Request* request) {
  return transfer("MPI_Raccumulate_c", Kind::kAccumulate, origin_addr, origin_count,
                  origin_datatype, target_rank, target_disp, target_count, target_datatype, op, win,
                  true, request);
}

int PMPI_Rget_accumulate(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype,
                         void* result_addr, int result_count, MPI_Datatype result_datatype,
                         int target_rank, MPI_Aint target_disp, int target_count,
                         MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                         MPI_Request* request) {
  return get_accumulate("MPI_Rget_accumulate", origin_addr, origin_count, origin_datatype,
                        result_addr, result_count, result_datatype, target_rank, target_disp,
                        target_count, target_datatype, op, win, true, request);
}

int PMPI_Rget_accumulate_c(const void* origin_addr, MPI_Count origin_count,
                           MPI_Datatype origin_datatype, void* result_addr, MPI_Count result_count,
                           MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                           MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
                           MPI_Win win, MPI_Request* request) {
  return get_accumulate("MPI_Rget_accumulate_c", origin_addr, origin_count, origin_datatype,
                        result_addr, result_count, result_datatype, target_rank, target_disp,
                        target_count, target_datatype, op, win, true, request);
}

}  // extern "C"

WEFT_MPI_ALIAS(MPI_Put)
WEFT_MPI_ALIAS(MPI_Put_c)
WEFT_MPI_ALIAS(MPI_Get)
WEFT_MPI_ALIAS(MPI_Get_c)
WEFT_MPI_ALIAS(MPI_Accumulate)
WEFT_MPI_ALIAS(MPI_Accumulate_c)
WEFT_MPI_ALIAS(MPI_Get_accumulate)
WEFT_MPI_ALIAS(MPI_Get_accumulate_c)
WEFT_MPI_ALIAS(MPI_Fetch_and_op)
WEFT_MPI_ALIAS(MPI_Compare_and_swap)
WEFT_MPI_ALIAS(MPI_Rput)
WEFT_MPI_ALIAS(MPI_Rput_c)
WEFT_MPI_ALIAS(MPI_Rget)
WEFT_MPI_ALIAS(MPI_Rget_c)
WEFT_MPI_ALIAS(MPI_Raccumulate)
WEFT_MPI_ALIAS(MPI_Raccumulate_c)
WEFT_MPI_ALIAS(MPI_Rget_accumulate)
WEFT_MPI_ALIAS(MPI_Rget_accumulate_c)
