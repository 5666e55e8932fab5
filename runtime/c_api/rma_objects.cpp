// One-sided chapter, what windows carry: group, info hints, name, attributes (the predefined
// MPI_WIN_* ones and user keyvals), error handlers, and Fortran handles (MPI 4.1 §12.2.6-7,
// §7.7.4, §9.3.2).
#include <cstring>
#include <string>

#include "mpi.h"
#include "runtime/c_api/guard.hpp"
#include "runtime/c_api/rma_args.hpp"
#include "runtime/comm/attributes.hpp"
#include "runtime/comm/errhandler.hpp"
#include "runtime/comm/info_objects.hpp"
#include "runtime/errors.hpp"

using weft::AttrKind;
using weft::Status;
using weft::world;
namespace capi = weft::capi;
namespace rma = weft::rma;

namespace {

constexpr MPI_Comm kNoComm = MPI_COMM_SELF;

bool predefined_keyval(int keyval) { return keyval >= MPI_WIN_BASE && keyval <= MPI_WIN_MODEL; }

}  // namespace

extern "C" {

int PMPI_Win_get_group(MPI_Win win, MPI_Group* group) {
  constexpr const char* fn = "MPI_Win_get_group";
  WEFT_REQUIRE_RUNNING(fn);
  rma::Window* w = nullptr;
  WEFT_WIN_CHECK(win, fn, capi::window_arg(win, &w));
  WEFT_WIN_CHECK(win, fn, capi::check_not_null(group, "group"));
  const weft::Comm* c = world().comms.find(w->comm);
  *group = world().groups.add(std::make_shared<const weft::groups::Members>(c->world_ranks));
  return MPI_SUCCESS;
}

int PMPI_Win_set_info(MPI_Win win, MPI_Info info) {
  constexpr const char* fn = "MPI_Win_set_info";
  WEFT_REQUIRE_RUNNING(fn);
  rma::Window* w = nullptr;
  WEFT_WIN_CHECK(win, fn, capi::window_arg(win, &w));
  const weft::InfoEntries* given = nullptr;
  WEFT_WIN_CHECK(win, fn, weft::infos().entries(info, "info", &given));
  for (const auto& [key, value] : *given) {
    bool known = false;
    for (auto& [k, v] : w->hints)
      if (k == key) v = value, known = true;
    if (!known) w->hints.emplace_back(key, value);
  }
  return MPI_SUCCESS;
}

int PMPI_Win_get_info(MPI_Win win, MPI_Info* info_used) {
  constexpr const char* fn = "MPI_Win_get_info";
  WEFT_REQUIRE_RUNNING(fn);
  rma::Window* w = nullptr;
  WEFT_WIN_CHECK(win, fn, capi::window_arg(win, &w));
  WEFT_WIN_CHECK(win, fn, capi::check_not_null(info_used, "info_used"));
  *info_used = weft::infos().create(w->hints);
  return MPI_SUCCESS;
}

int PMPI_Win_set_name(MPI_Win win, const char* win_name) {
  constexpr const char* fn = "MPI_Win_set_name";
  WEFT_REQUIRE_RUNNING(fn);
  rma::Window* w = nullptr;
  WEFT_WIN_CHECK(win, fn, capi::window_arg(win, &w));
  WEFT_WIN_CHECK(win, fn, capi::check_not_null(win_name, "win_name"));
  w->name.assign(win_name, strnlen(win_name, MPI_MAX_OBJECT_NAME - 1));
  return MPI_SUCCESS;
}

int PMPI_Win_get_name(MPI_Win win, char* win_name, int* resultlen) {
  constexpr const char* fn = "MPI_Win_get_name";
  WEFT_REQUIRE_RUNNING(fn);
  rma::Window* w = nullptr;
  WEFT_WIN_CHECK(win, fn, capi::window_arg(win, &w));
  WEFT_WIN_CHECK(win, fn, capi::check_not_null(win_name, "win_name"));
  WEFT_WIN_CHECK(win, fn, capi::check_not_null(resultlen, "resultlen"));
  std::memcpy(win_name, w->name.c_str(), w->name.size() + 1);
  *resultlen = int(w->name.size());
  return MPI_SUCCESS;
}

int PMPI_Win_create_keyval(MPI_Win_copy_attr_function* win_copy_attr_fn,
                           MPI_Win_delete_attr_function* win_delete_attr_fn, int* win_keyval,
                           void* extra_state) {
  constexpr const char* fn = "MPI_Win_create_keyval";
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(win_keyval, "win_keyval"));
  *win_keyval = weft::attributes().create_keyval(AttrKind::kWin, win_copy_attr_fn,
                                                 win_delete_attr_fn, extra_state);
  return MPI_SUCCESS;
}

int PMPI_Win_free_keyval(int* win_keyval) {
  constexpr const char* fn = "MPI_Win_free_keyval";
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(win_keyval, "win_keyval"));
  WEFT_CHECK(kNoComm, fn, weft::attributes().free_keyval(AttrKind::kWin, *win_keyval));
  *win_keyval = MPI_KEYVAL_INVALID;
  return MPI_SUCCESS;
}

int PMPI_Win_set_attr(MPI_Win win, int win_keyval, void* attribute_val) {
  constexpr const char* fn = "MPI_Win_set_attr";
  WEFT_REQUIRE_RUNNING(fn);
  rma::Window* w = nullptr;
  WEFT_WIN_CHECK(win, fn, capi::window_arg(win, &w));
  if (predefined_keyval(win_keyval))
    return capi::report_win(
        win, fn,
        Status::error(MPI_ERR_KEYVAL, "invalid win_keyval=" + std::to_string(win_keyval) +
                                          " (a predefined attribute, read-only)"));
  return capi::report_win(win, fn,
                          weft::attributes().set(AttrKind::kWin, win, win_keyval, attribute_val));
}

int PMPI_Win_get_attr(MPI_Win win, int win_keyval, void* attribute_val, int* flag) {
  constexpr const char* fn = "MPI_Win_get_attr";
  WEFT_REQUIRE_RUNNING(fn);
  rma::Window* w = nullptr;
  WEFT_WIN_CHECK(win, fn, capi::window_arg(win, &w));
  WEFT_WIN_CHECK(win, fn, capi::check_not_null(attribute_val, "attribute_val"));
  WEFT_WIN_CHECK(win, fn, capi::check_not_null(flag, "flag"));
  void** out = static_cast<void**>(attribute_val);
  *flag = 1;
  w->attr.size = MPI_Aint(w->bytes);
  w->attr.disp_unit = int(w->disp_unit);
  w->attr.flavor = w->flavor;
  switch (win_keyval) {
    case MPI_WIN_BASE:
      *out = w->base;
      return MPI_SUCCESS;
    case MPI_WIN_SIZE:
      *out = &w->attr.size;
      return MPI_SUCCESS;
    case MPI_WIN_DISP_UNIT:
      *out = &w->attr.disp_unit;
      return MPI_SUCCESS;
    case MPI_WIN_CREATE_FLAVOR:
      *out = &w->attr.flavor;
      return MPI_SUCCESS;
    case MPI_WIN_MODEL:
      *out = &w->attr.model;
      return MPI_SUCCESS;
    default:
      break;
  }
  bool found = false;
  WEFT_WIN_CHECK(win, fn, weft::attributes().get(AttrKind::kWin, win, win_keyval, out, &found));
  *flag = found;
  return MPI_SUCCESS;
}

int PMPI_Win_delete_attr(MPI_Win win, int win_keyval) {
  constexpr const char* fn = "MPI_Win_delete_attr";
  WEFT_REQUIRE_RUNNING(fn);
  rma::Window* w = nullptr;
  WEFT_WIN_CHECK(win, fn, capi::window_arg(win, &w));
  return capi::report_win(win, fn, weft::attributes().remove(AttrKind::kWin, win, win_keyval));
}

int PMPI_Win_create_errhandler(MPI_Win_errhandler_function* win_errhandler_fn,
                               MPI_Errhandler* errhandler) {
  constexpr const char* fn = "MPI_Win_create_errhandler";
  WEFT_REQUIRE_RUNNING(fn);
  if (win_errhandler_fn == nullptr)
    return capi::report(kNoComm, fn, Status::error(MPI_ERR_ARG, "invalid win_errhandler_fn=NULL"));
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(errhandler, "errhandler"));
  // Window and communicator handlers are called alike: (int handle*, int code*).
  *errhandler = weft::errhandlers().create(
      reinterpret_cast<MPI_Comm_errhandler_function*>(win_errhandler_fn));
  return MPI_SUCCESS;
}

int PMPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler) {
  constexpr const char* fn = "MPI_Win_set_errhandler";
  WEFT_REQUIRE_RUNNING(fn);
  rma::Window* w = nullptr;
  WEFT_WIN_CHECK(win, fn, capi::window_arg(win, &w));
  WEFT_WIN_CHECK(win, fn, weft::errhandlers().check(errhandler, "errhandler"));
  weft::errhandler_replace(&w->errhandler, errhandler);
  return MPI_SUCCESS;
}

int PMPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler* errhandler) {
  constexpr const char* fn = "MPI_Win_get_errhandler";
  WEFT_REQUIRE_RUNNING(fn);
  rma::Window* w = nullptr;
  WEFT_WIN_CHECK(win, fn, capi::window_arg(win, &w));
  WEFT_WIN_CHECK(win, fn, capi::check_not_null(errhandler, "errhandler"));
  weft::errhandler_retain(w->errhandler);
  *errhandler = w->errhandler;
  return MPI_SUCCESS;
}

int PMPI_Win_call_errhandler(MPI_Win win, int errorcode) {
  constexpr const char* fn = "MPI_Win_call_errhandler";
  WEFT_REQUIRE_RUNNING(fn);
  rma::Window* w = nullptr;
  WEFT_WIN_CHECK(win, fn, capi::window_arg(win, &w));
  return capi::report_win(win, fn, weft::call_errhandler(win, w->errhandler, fn, errorcode));
}

MPI_Fint PMPI_Win_c2f(MPI_Win win) { return static_cast<MPI_Fint>(win); }
MPI_Win PMPI_Win_f2c(MPI_Fint win) { return static_cast<MPI_Win>(win); }

int MPI_WIN_NULL_COPY_FN(MPI_Win, int, void*, void*, void*, int* flag) {
  *flag = 0;
  return MPI_SUCCESS;
}

int MPI_WIN_DUP_FN(MPI_Win, int, void*, void* attribute_val_in, void* attribute_val_out,
                   int* flag) {
  *static_cast<void**>(attribute_val_out) = attribute_val_in;
  *flag = 1;
  return MPI_SUCCESS;
}

int MPI_WIN_NULL_DELETE_FN(MPI_Win, int, void*, void*) { return MPI_SUCCESS; }

}  // extern "C"

WEFT_MPI_ALIAS(MPI_Win_get_group)
WEFT_MPI_ALIAS(MPI_Win_set_info)
WEFT_MPI_ALIAS(MPI_Win_get_info)
WEFT_MPI_ALIAS(MPI_Win_set_name)
WEFT_MPI_ALIAS(MPI_Win_get_name)
WEFT_MPI_ALIAS(MPI_Win_create_keyval)
WEFT_MPI_ALIAS(MPI_Win_free_keyval)
WEFT_MPI_ALIAS(MPI_Win_set_attr)
WEFT_MPI_ALIAS(MPI_Win_get_attr)
WEFT_MPI_ALIAS(MPI_Win_delete_attr)
WEFT_MPI_ALIAS(MPI_Win_create_errhandler)
WEFT_MPI_ALIAS(MPI_Win_set_errhandler)
WEFT_MPI_ALIAS(MPI_Win_get_errhandler)
WEFT_MPI_ALIAS(MPI_Win_call_errhandler)
WEFT_MPI_ALIAS(MPI_Win_c2f)
WEFT_MPI_ALIAS(MPI_Win_f2c)
