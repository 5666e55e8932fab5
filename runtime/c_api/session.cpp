// Sessions chapter (MPI 4.1 §11.3): MPI_Session_init/finalize, process sets and their info,
// MPI_Group_from_session_pset, MPI_Comm_create_from_group, session error handlers and the
// Fortran handle conversion. A session starts the library when nothing else has; errors on a
// session go to its error handler, errors with no valid session to MPI_COMM_SELF's.
#include "runtime/session/session.hpp"

#include <cstring>
#include <memory>
#include <string>

#include "mpi.h"
#include "pt2pt/buffered.hpp"
#include "runtime/c_api/group_comm_args.hpp"
#include "runtime/c_api/guard.hpp"
#include "runtime/comm/errhandler.hpp"
#include "runtime/comm/info_objects.hpp"
#include "runtime/errors.hpp"

using weft::Status;
using weft::world;
namespace capi = weft::capi;

namespace {

// The thread level an MPI_Session_init info asks for ("thread_level"), SINGLE when none.
Status requested_level(MPI_Info info, int* level) {
  *level = MPI_THREAD_SINGLE;
  if (info == MPI_INFO_NULL) return Status::success();
  const weft::InfoEntries* entries = nullptr;
  WEFT_TRY(weft::infos().entries(info, "info", &entries));
  for (const auto& [key, value] : *entries) {
    if (key != "thread_level") continue;
    *level = weft::thread_level_from_name(value);
    if (*level < 0) {
      return Status::error(MPI_ERR_INFO_VALUE, "invalid info value thread_level=\"" + value +
                                                   "\" (MPI_THREAD_SINGLE, _FUNNELED, "
                                                   "_SERIALIZED or _MULTIPLE)");
    }
  }
  return Status::success();
}

Status check_name(const char* name, const char* arg) {
  if (name != nullptr) return Status::success();
  return Status::error(MPI_ERR_ARG, std::string("invalid ") + arg + "=NULL");
}

}  // namespace

extern "C" {

int PMPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session* session) {
  constexpr const char* fn = "MPI_Session_init";
  weft::CallGuard guard;
  Status s = weft::errhandlers().check(errhandler, "errhandler");
  if (s.ok()) s = capi::check_not_null(session, "session");
  int required = MPI_THREAD_SINGLE;
  if (s.ok()) s = requested_level(info, &required);
  int provided = MPI_THREAD_SINGLE;
  if (s.ok()) s = weft::world_acquire(required, &provided);
  if (!s.ok()) {
    // No session yet: the handler given is raised, as the standard asks (MPI 4.1 §11.3.1).
    const std::string message = std::string(fn) + ": " + s.message;
    const int code = weft::make_error_code(s.error_class, message);
    if (weft::errhandlers().check(errhandler, "errhandler").ok())
      weft::invoke_errhandler(MPI_SESSION_NULL, errhandler, code, message);
    return code;
  }
  weft::Session made;
  made.errhandler = errhandler;
  made.thread_level = provided;
  weft::errhandler_retain(errhandler);
  *session = weft::sessions().add(std::move(made));
  return MPI_SUCCESS;
}

int PMPI_Session_finalize(MPI_Session* session) {
  constexpr const char* fn = "MPI_Session_finalize";
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_CHECK(MPI_COMM_SELF, fn, capi::check_not_null(session, "session"));
  weft::Session* s = nullptr;
  WEFT_SESSION_CHECK(*session, fn, weft::lookup_session(*session, "session", &s));
  // Its buffer goes once the messages buffered in it are sent (as MPI_Session_detach_buffer).
  weft::pt2pt::forget_buffer(weft::pt2pt::BufferScope::session(*session));
  weft::errhandler_release(s->errhandler);
  weft::sessions().remove(*session);
  *session = MPI_SESSION_NULL;
  // The last user of the library finalizes it (a fence with every process of the job).
  return capi::report(MPI_COMM_SELF, fn, weft::world_release());
}

int PMPI_Session_get_num_psets(MPI_Session session, MPI_Info, int* npset_names) {
  constexpr const char* fn = "MPI_Session_get_num_psets";
  WEFT_REQUIRE_RUNNING(fn);
  weft::Session* s = nullptr;
  WEFT_SESSION_CHECK(session, fn, weft::lookup_session(session, "session", &s));
  WEFT_SESSION_CHECK(session, fn, capi::check_not_null(npset_names, "npset_names"));
  *npset_names = int(weft::pset_names().size());
  return MPI_SUCCESS;
}

int PMPI_Session_get_nth_pset(MPI_Session session, MPI_Info, int n, int* pset_len,
                              char* pset_name) {
  constexpr const char* fn = "MPI_Session_get_nth_pset";
  WEFT_REQUIRE_RUNNING(fn);
  weft::Session* s = nullptr;
  WEFT_SESSION_CHECK(session, fn, weft::lookup_session(session, "session", &s));
  WEFT_SESSION_CHECK(session, fn, capi::check_not_null(pset_len, "pset_len"));
  const auto& names = weft::pset_names();
  if (n < 0 || size_t(n) >= names.size()) {
    return capi::report_session(
        session, fn,
        Status::error(MPI_ERR_ARG, "invalid n=" + std::to_string(n) + " (" +
                                       std::to_string(names.size()) + " process sets: 0.." +
                                       std::to_string(names.size() - 1) + ")"));
  }
  const std::string& name = names[size_t(n)];
  // pset_len 0 asks for the length only (with the terminating null, MPI 4.1 §11.3.2).
  if (*pset_len > 0) {
    WEFT_SESSION_CHECK(session, fn, capi::check_not_null(pset_name, "pset_name"));
    const size_t copied = std::min(name.size(), size_t(*pset_len) - 1);
    std::memcpy(pset_name, name.data(), copied);
    pset_name[copied] = '\0';
  }
  *pset_len = int(name.size()) + 1;
  return MPI_SUCCESS;
}

int PMPI_Session_get_pset_info(MPI_Session session, const char* pset_name, MPI_Info* info) {
  constexpr const char* fn = "MPI_Session_get_pset_info";
  WEFT_REQUIRE_RUNNING(fn);
  weft::Session* s = nullptr;
  WEFT_SESSION_CHECK(session, fn, weft::lookup_session(session, "session", &s));
  WEFT_SESSION_CHECK(session, fn, check_name(pset_name, "pset_name"));
  WEFT_SESSION_CHECK(session, fn, capi::check_not_null(info, "info"));
  weft::groups::Members members;
  WEFT_SESSION_CHECK(session, fn, weft::pset_members(pset_name, "pset_name", &members));
  *info = weft::infos().create({{"mpi_size", std::to_string(members.size())}});
  return MPI_SUCCESS;
}

int PMPI_Session_get_info(MPI_Session session, MPI_Info* info_used) {
  constexpr const char* fn = "MPI_Session_get_info";
  WEFT_REQUIRE_RUNNING(fn);
  weft::Session* s = nullptr;
  WEFT_SESSION_CHECK(session, fn, weft::lookup_session(session, "session", &s));
  WEFT_SESSION_CHECK(session, fn, capi::check_not_null(info_used, "info_used"));
  *info_used = weft::infos().create({{"thread_level", weft::thread_level_name(s->thread_level)}});
  return MPI_SUCCESS;
}

int PMPI_Group_from_session_pset(MPI_Session session, const char* pset_name, MPI_Group* newgroup) {
  constexpr const char* fn = "MPI_Group_from_session_pset";
  WEFT_REQUIRE_RUNNING(fn);
  weft::Session* s = nullptr;
  WEFT_SESSION_CHECK(session, fn, weft::lookup_session(session, "session", &s));
  WEFT_SESSION_CHECK(session, fn, check_name(pset_name, "pset_name"));
  WEFT_SESSION_CHECK(session, fn, capi::check_not_null(newgroup, "newgroup"));
  auto members = std::make_shared<weft::groups::Members>();
  WEFT_SESSION_CHECK(session, fn, weft::pset_members(pset_name, "pset_name", members.get()));
  *newgroup = world().groups.add(std::move(members), session);
  return MPI_SUCCESS;
}

int PMPI_Comm_create_from_group(MPI_Group group, const char* stringtag, MPI_Info info,
                                MPI_Errhandler errhandler, MPI_Comm* newcomm) {
  constexpr const char* fn = "MPI_Comm_create_from_group";
  WEFT_REQUIRE_RUNNING(fn);
  weft::GroupRef g;
  WEFT_CHECK(MPI_COMM_SELF, fn, weft::lookup_group(world().groups, group, "group", &g));
  WEFT_CHECK(MPI_COMM_SELF, fn, capi::check_stringtag(stringtag));
  WEFT_CHECK(MPI_COMM_SELF, fn, capi::check_hints(info));
  MPI_Errhandler handler = MPI_ERRHANDLER_NULL;
  WEFT_CHECK(MPI_COMM_SELF, fn, capi::new_comm_errhandler(errhandler, &handler));
  WEFT_CHECK(MPI_COMM_SELF, fn, capi::check_not_null(newcomm, "newcomm"));
  const weft::CommOrigin origin{handler, world().groups.session_of(group)};
  return capi::report(MPI_COMM_SELF, fn, weft::comm_from_group(*g, stringtag, origin, newcomm));
}

int PMPI_Session_create_errhandler(MPI_Session_errhandler_function* session_errhandler_fn,
                                   MPI_Errhandler* errhandler) {
  constexpr const char* fn = "MPI_Session_create_errhandler";
  weft::CallGuard guard;  // usable before any session exists
  if (session_errhandler_fn == nullptr) {
    return capi::report(MPI_COMM_SELF, fn,
                        Status::error(MPI_ERR_ARG, "invalid session_errhandler_fn=NULL"));
  }
  WEFT_CHECK(MPI_COMM_SELF, fn, capi::check_not_null(errhandler, "errhandler"));
  // Session and communicator handlers are called alike: (int handle*, int code*).
  *errhandler = weft::errhandlers().create(
      reinterpret_cast<MPI_Comm_errhandler_function*>(session_errhandler_fn));
  return MPI_SUCCESS;
}

int PMPI_Session_set_errhandler(MPI_Session session, MPI_Errhandler errhandler) {
  constexpr const char* fn = "MPI_Session_set_errhandler";
  WEFT_REQUIRE_RUNNING(fn);
  weft::Session* s = nullptr;
  WEFT_SESSION_CHECK(session, fn, weft::lookup_session(session, "session", &s));
  WEFT_SESSION_CHECK(session, fn, weft::errhandlers().check(errhandler, "errhandler"));
  weft::errhandler_replace(&s->errhandler, errhandler);
  return MPI_SUCCESS;
}

int PMPI_Session_get_errhandler(MPI_Session session, MPI_Errhandler* errhandler) {
  constexpr const char* fn = "MPI_Session_get_errhandler";
  WEFT_REQUIRE_RUNNING(fn);
  weft::Session* s = nullptr;
  WEFT_SESSION_CHECK(session, fn, weft::lookup_session(session, "session", &s));
  WEFT_SESSION_CHECK(session, fn, capi::check_not_null(errhandler, "errhandler"));
  weft::errhandler_retain(s->errhandler);
  *errhandler = s->errhandler;
  return MPI_SUCCESS;
}

int PMPI_Session_call_errhandler(MPI_Session session, int errorcode) {
  constexpr const char* fn = "MPI_Session_call_errhandler";
  WEFT_REQUIRE_RUNNING(fn);
  weft::Session* s = nullptr;
  WEFT_SESSION_CHECK(session, fn, weft::lookup_session(session, "session", &s));
  return capi::report_session(session, fn,
                              weft::call_errhandler(session, s->errhandler, fn, errorcode));
}

MPI_Fint PMPI_Session_c2f(MPI_Session session) { return static_cast<MPI_Fint>(session); }
MPI_Session PMPI_Session_f2c(MPI_Fint session) { return static_cast<MPI_Session>(session); }

}  // extern "C"

// The profiling interface: each MPI_X is a weak alias of PMPI_X (runtime/c_api/guard.hpp).
WEFT_MPI_ALIAS(MPI_Session_init)
WEFT_MPI_ALIAS(MPI_Session_finalize)
WEFT_MPI_ALIAS(MPI_Session_get_num_psets)
WEFT_MPI_ALIAS(MPI_Session_get_nth_pset)
WEFT_MPI_ALIAS(MPI_Session_get_pset_info)
WEFT_MPI_ALIAS(MPI_Session_get_info)
WEFT_MPI_ALIAS(MPI_Group_from_session_pset)
WEFT_MPI_ALIAS(MPI_Comm_create_from_group)
WEFT_MPI_ALIAS(MPI_Session_create_errhandler)
WEFT_MPI_ALIAS(MPI_Session_set_errhandler)
WEFT_MPI_ALIAS(MPI_Session_get_errhandler)
WEFT_MPI_ALIAS(MPI_Session_call_errhandler)
WEFT_MPI_ALIAS(MPI_Session_c2f)
WEFT_MPI_ALIAS(MPI_Session_f2c)
