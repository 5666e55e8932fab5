// Shared checks and error reporting of the one-sided entry points (rma_args.hpp).
#include "runtime/c_api/rma_args.hpp"

#include <string>

#include "runtime/comm/errhandler.hpp"
#include "runtime/errors.hpp"
#include "runtime/world.hpp"

namespace weft::capi {

int report_win(MPI_Win win, const char* fn, const Status& s) {
  if (s.ok()) return MPI_SUCCESS;
  const rma::Window* w = rma::windows().find(win);
  if (w == nullptr) return report(MPI_COMM_SELF, fn, s);
  const std::string message = std::string(fn) + ": " + s.message;
  const int code = make_error_code(s.error_class, message);
  if (world().phase == Phase::kRunning) invoke_errhandler(win, w->errhandler, code, message);
  return code;
}

Status window_arg(MPI_Win win, rma::Window** out) { return rma::lookup_window(win, "win", out); }

Status typed_arg(const void* buf, MPI_Count count, MPI_Datatype type, const ArgNames& args,
                 rma::Typed* out) {
  MessageArgs m;
  WEFT_TRY(check_message(buf, count, type, args, &m));
  *out = rma::Typed{buf, m.count, m.type};
  return Status::success();
}

Status target_arg(const rma::Window& w, int rank, MPI_Aint disp, MPI_Count count, MPI_Datatype type,
                  rma::TargetRef* out) {
  if (rank != MPI_PROC_NULL && (rank < 0 || rank >= w.size))
    return Status::error(MPI_ERR_RANK, "invalid target_rank=" + std::to_string(rank) + " (" +
                                           w.display_name() + " has " + std::to_string(w.size) +
                                           " ranks)");
  if (disp < 0 && w.flavor != MPI_WIN_FLAVOR_DYNAMIC)
    return Status::error(MPI_ERR_DISP,
                         "invalid target_disp=" + std::to_string(disp) + " (must be >= 0)");
  WEFT_TRY(check_count(count, "target_count"));
  const Datatype* t = nullptr;
  WEFT_TRY(find_message_datatype(type, count, "target_datatype", &t));
  *out = rma::TargetRef{rank, disp, size_t(count), t};
  return Status::success();
}

MPI_Request completed_request() {
  Request* r = world().requests.acquire();
  r->kind = WeftRequestKind::kSend;
  r->completion.done = true;
  return r;
}

}  // namespace weft::capi
