// What the one-sided entry points share: raising an error on a window (its own error handler),
// and the checks of a target's rank, displacement, count and datatype.
#pragma once
#include "mpi.h"
#include "rma/operations.hpp"
#include "rma/window.hpp"
#include "runtime/c_api/pt2pt_args.hpp"

namespace weft::capi {

// Raises `s` from `fn` on window `win` through the window's error handler (MPI_COMM_SELF's when
// the handle is not a live window); returns the code.
int report_win(MPI_Win win, const char* fn, const Status& s);

// The window behind `win`.
Status window_arg(MPI_Win win, rma::Window** out);
// An origin or result buffer (names from `args`).
Status typed_arg(const void* buf, MPI_Count count, MPI_Datatype type, const ArgNames& args,
                 rma::Typed* out);
// target_rank (a rank of the window or MPI_PROC_NULL), target_disp (>= 0 except in dynamic
// windows, where it is an address), target_count and target_datatype.
Status target_arg(const rma::Window& w, int rank, MPI_Aint disp, MPI_Count count, MPI_Datatype type,
                  rma::TargetRef* out);
// A completed request for the request-based calls (MPI_Rput ...).
MPI_Request completed_request();

}  // namespace weft::capi

// Fails the enclosing MPI function through the window's error handler.
#define WEFT_WIN_CHECK(win, fn, expr)                                         \
  do {                                                                        \
    ::weft::Status weft_s_ = (expr);                                          \
    if (!weft_s_.ok()) return ::weft::capi::report_win((win), (fn), weft_s_); \
  } while (0)
