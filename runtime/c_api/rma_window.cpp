// One-sided chapter, windows: creation in all four flavors, free, shared-memory queries and the
// attach/detach of dynamic windows (MPI 4.1 §12.2).
#include <string>

#include "gpu/memory.hpp"
#include "mpi.h"
#include "rma/create.hpp"
#include "runtime/c_api/guard.hpp"
#include "runtime/c_api/rma_args.hpp"

using weft::Status;
using weft::world;
namespace capi = weft::capi;
namespace rma = weft::rma;

namespace {

Status check_size(MPI_Aint size) {
  if (size >= 0) return Status::success();
  return Status::error(MPI_ERR_SIZE, "invalid size=" + std::to_string(size) + " (must be >= 0)");
}

Status check_disp_unit(MPI_Aint disp_unit) {
  if (disp_unit > 0) return Status::success();
  return Status::error(MPI_ERR_DISP,
                       "invalid disp_unit=" + std::to_string(disp_unit) + " (must be > 0)");
}

Status check_info(MPI_Info info) {
  if (info == MPI_INFO_NULL) return Status::success();
  const weft::InfoEntries* entries = nullptr;
  return weft::infos().entries(info, "info", &entries);
}

// Every creation call: check, then create collectively over `comm`.
int create(const char* fn, rma::WindowSpec spec, MPI_Comm comm, void* baseptr, MPI_Win* win) {
  WEFT_REQUIRE_RUNNING(fn);
  weft::Comm* c = nullptr;
  WEFT_CHECK(comm, fn, capi::intra_comm_arg(comm, "comm", &c));
  WEFT_CHECK(comm, fn, check_size(MPI_Aint(spec.bytes)));
  WEFT_CHECK(comm, fn, check_disp_unit(MPI_Aint(spec.disp_unit)));
  WEFT_CHECK(comm, fn, check_info(spec.info));
  WEFT_CHECK(comm, fn, capi::check_not_null(win, "win"));
  const bool allocates =
      spec.flavor == MPI_WIN_FLAVOR_ALLOCATE || spec.flavor == MPI_WIN_FLAVOR_SHARED;
  if (allocates) WEFT_CHECK(comm, fn, capi::check_not_null(baseptr, "baseptr"));
  if (spec.flavor == MPI_WIN_FLAVOR_CREATE && spec.base == nullptr && spec.bytes > 0)
    return capi::report(
        comm, fn,
        Status::error(MPI_ERR_BASE, "invalid base=NULL with size=" + std::to_string(spec.bytes)));
  void* base = nullptr;
  WEFT_CHECK(comm, fn, rma::create_window(*c, spec, &base, win));
  if (allocates) *static_cast<void**>(baseptr) = base;
  return MPI_SUCCESS;
}

int shared_query(const char* fn, MPI_Win win, int rank, MPI_Aint* size, MPI_Aint* disp_unit,
                 void* baseptr) {
  WEFT_REQUIRE_RUNNING(fn);
  rma::Window* w = nullptr;
  WEFT_WIN_CHECK(win, fn, capi::window_arg(win, &w));
  WEFT_WIN_CHECK(win, fn, capi::check_not_null(size, "size"));
  WEFT_WIN_CHECK(win, fn, capi::check_not_null(baseptr, "baseptr"));
  if (rank != MPI_PROC_NULL && (rank < 0 || rank >= w->size))
    return capi::report_win(win, fn,
                            Status::error(MPI_ERR_RANK, "invalid rank=" + std::to_string(rank) +
                                                            " (" + w->display_name() + " has " +
                                                            std::to_string(w->size) + " ranks)"));
  if (rank == MPI_PROC_NULL) {  // the lowest rank with memory
    rank = 0;
    while (rank + 1 < w->size && w->targets[size_t(rank)].size == 0) ++rank;
  }
  const rma::Target& t = w->targets[size_t(rank)];
  // Memory this process can load and store: the library's own allocations on this node.
  const bool shared =
      (w->flavor == MPI_WIN_FLAVOR_SHARED || w->flavor == MPI_WIN_FLAVOR_ALLOCATE) &&
      t.mapped != nullptr;
  *size = shared ? MPI_Aint(t.size) : 0;
  *disp_unit = MPI_Aint(t.disp_unit);
  *static_cast<void**>(baseptr) = shared ? t.mapped : nullptr;
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int PMPI_Win_create(void* base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                    MPI_Win* win) {
  return create("MPI_Win_create",
                {MPI_WIN_FLAVOR_CREATE, base, uint64_t(size), uint64_t(disp_unit), info}, comm,
                nullptr, win);
}

int PMPI_Win_create_c(void* base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
                      MPI_Win* win) {
  return create("MPI_Win_create_c",
                {MPI_WIN_FLAVOR_CREATE, base, uint64_t(size), uint64_t(disp_unit), info}, comm,
                nullptr, win);
}

int PMPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void* baseptr,
                      MPI_Win* win) {
  return create("MPI_Win_allocate",
                {MPI_WIN_FLAVOR_ALLOCATE, nullptr, uint64_t(size), uint64_t(disp_unit), info}, comm,
                baseptr, win);
}

int PMPI_Win_allocate_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
                        void* baseptr, MPI_Win* win) {
  return create("MPI_Win_allocate_c",
                {MPI_WIN_FLAVOR_ALLOCATE, nullptr, uint64_t(size), uint64_t(disp_unit), info}, comm,
                baseptr, win);
}

int PMPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                             void* baseptr, MPI_Win* win) {
  return create("MPI_Win_allocate_shared",
                {MPI_WIN_FLAVOR_SHARED, nullptr, uint64_t(size), uint64_t(disp_unit), info}, comm,
                baseptr, win);
}

int PMPI_Win_allocate_shared_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
                               void* baseptr, MPI_Win* win) {
  return create("MPI_Win_allocate_shared_c",
                {MPI_WIN_FLAVOR_SHARED, nullptr, uint64_t(size), uint64_t(disp_unit), info}, comm,
                baseptr, win);
}

int PMPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win* win) {
  return create("MPI_Win_create_dynamic", {MPI_WIN_FLAVOR_DYNAMIC, nullptr, 0, 1, info}, comm,
                nullptr, win);
}

int PMPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint* size, int* disp_unit, void* baseptr) {
  MPI_Aint unit = 0;
  const int rc = shared_query("MPI_Win_shared_query", win, rank, size, &unit, baseptr);
  if (rc == MPI_SUCCESS && disp_unit != nullptr) *disp_unit = int(unit);
  return rc;
}

int PMPI_Win_shared_query_c(MPI_Win win, int rank, MPI_Aint* size, MPI_Aint* disp_unit,
                            void* baseptr) {
  MPI_Aint unit = 0;
  const int rc = shared_query("MPI_Win_shared_query_c", win, rank, size, &unit, baseptr);
  if (rc == MPI_SUCCESS && disp_unit != nullptr) *disp_unit = unit;
  return rc;
}

int PMPI_Win_attach(MPI_Win win, void* base, MPI_Aint size) {
  constexpr const char* fn = "MPI_Win_attach";
  WEFT_REQUIRE_RUNNING(fn);
  rma::Window* w = nullptr;
  WEFT_WIN_CHECK(win, fn, capi::window_arg(win, &w));
  if (w->flavor != MPI_WIN_FLAVOR_DYNAMIC)
    return capi::report_win(
        win, fn,
        Status::error(MPI_ERR_RMA_FLAVOR, w->display_name() + " is not a dynamic window "
                                                              "(MPI_Win_create_dynamic)"));
  WEFT_WIN_CHECK(win, fn, check_size(size));
  if (size > 0) WEFT_WIN_CHECK(win, fn, capi::check_not_null(base, "base"));
  const uint64_t start = uint64_t(reinterpret_cast<uintptr_t>(base));
  for (const auto& [at, region] : w->attached) {
    if (start < at + region.bytes && at < start + uint64_t(size))
      return capi::report_win(win, fn,
                              Status::error(MPI_ERR_RMA_ATTACH,
                                            "the memory overlaps a region already "
                                            "attached to " +
                                                w->display_name()));
  }
  // GPU memory is reached with the device's copies here and by messages from other processes
  // (rma/window.hpp, AttachedRegion).
  w->attached[start] = rma::AttachedRegion{uint64_t(size), size > 0 && weft::gpu::on_device(base)};
  return MPI_SUCCESS;
}

int PMPI_Win_detach(MPI_Win win, const void* base) {
  constexpr const char* fn = "MPI_Win_detach";
  WEFT_REQUIRE_RUNNING(fn);
  rma::Window* w = nullptr;
  WEFT_WIN_CHECK(win, fn, capi::window_arg(win, &w));
  if (w->attached.erase(uint64_t(reinterpret_cast<uintptr_t>(base))) == 0)
    return capi::report_win(win, fn,
                            Status::error(MPI_ERR_RMA_ATTACH,
                                          "base is not the start of a region attached "
                                          "to " +
                                              w->display_name()));
  return MPI_SUCCESS;
}

int PMPI_Win_free(MPI_Win* win) {
  constexpr const char* fn = "MPI_Win_free";
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_CHECK(MPI_COMM_SELF, fn, capi::check_not_null(win, "win"));
  rma::Window* w = nullptr;
  WEFT_WIN_CHECK(*win, fn, capi::window_arg(*win, &w));
  WEFT_WIN_CHECK(*win, fn, rma::free_window(*w));
  *win = MPI_WIN_NULL;
  return MPI_SUCCESS;
}

}  // extern "C"

WEFT_MPI_ALIAS(MPI_Win_create)
WEFT_MPI_ALIAS(MPI_Win_create_c)
WEFT_MPI_ALIAS(MPI_Win_allocate)
WEFT_MPI_ALIAS(MPI_Win_allocate_c)
WEFT_MPI_ALIAS(MPI_Win_allocate_shared)
WEFT_MPI_ALIAS(MPI_Win_allocate_shared_c)
WEFT_MPI_ALIAS(MPI_Win_create_dynamic)
WEFT_MPI_ALIAS(MPI_Win_shared_query)
WEFT_MPI_ALIAS(MPI_Win_shared_query_c)
WEFT_MPI_ALIAS(MPI_Win_attach)
WEFT_MPI_ALIAS(MPI_Win_detach)
WEFT_MPI_ALIAS(MPI_Win_free)
