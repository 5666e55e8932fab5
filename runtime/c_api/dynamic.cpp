// Process creation and management (MPI 4.1 chapter 11): MPI_Comm_spawn(_multiple),
// MPI_Comm_get_parent, ports, MPI_Comm_accept/connect, the name service, MPI_Comm_disconnect and
// MPI_Comm_join. The work is in runtime/comm/connect.* and spawn.cpp.
#include <unistd.h>

#include <cstring>
#include <string>

#include "runtime/c_api/guard.hpp"
#include "runtime/comm/connect.hpp"
#include "runtime/comm/info_objects.hpp"

using weft::Comm;
using weft::SpawnApp;
using weft::Status;
using weft::world;
namespace capi = weft::capi;

namespace {

constexpr MPI_Comm kNoComm = MPI_COMM_SELF;  // errors outside any communicator
constexpr const char kPortPrefix[] = "weft-port:";
constexpr const char kServicePrefix[] = "weft-service:";

// The value of `key` in `info` (MPI_INFO_NULL: none), or "".
std::string info_value(MPI_Info info, const char* key) {
  const weft::InfoEntries* entries = nullptr;
  if (info == MPI_INFO_NULL || !weft::infos().entries(info, "info", &entries).ok()) return {};
  for (const auto& [k, v] : *entries)
    if (k == key) return v;
  return {};
}

Status check_info(MPI_Info info, const char* arg) {
  const weft::InfoEntries* entries = nullptr;
  return info == MPI_INFO_NULL ? Status::success() : weft::infos().entries(info, arg, &entries);
}

Status check_root(const Comm& c, int root) {
  if (root >= 0 && root < c.size) return Status::success();
  return Status::error(MPI_ERR_ROOT, "invalid root=" + std::to_string(root) + " (" +
                                         c.display_name() + " has " + std::to_string(c.size) +
                                         " ranks)");
}

Status check_port(const char* port, const char* arg) {
  WEFT_TRY(capi::check_not_null(port, arg));
  if (std::strncmp(port, kPortPrefix, sizeof kPortPrefix - 1) == 0 &&
      std::strlen(port) < MPI_MAX_PORT_NAME)
    return Status::success();
  return Status::error(MPI_ERR_PORT, std::string("invalid ") + arg + "=\"" + port +
                                         "\" (not a name MPI_Open_port gave)");
}

// One command of a spawn at the root, its MPI info keys applied: host, wdir, and path (the
// directories, colon-separated, where a command without a slash is looked for).
Status make_app(const char* command, char** argv, int maxprocs, MPI_Info info, const char* which,
                SpawnApp* app) {
  if (command == nullptr || *command == '\0')
    return Status::error(MPI_ERR_SPAWN, std::string("invalid ") + which + ": an empty command");
  if (maxprocs <= 0) {
    return Status::error(MPI_ERR_SPAWN, std::string("invalid maxprocs=") + std::to_string(maxprocs) +
                                            " for " + which + " " + command + " (must be >= 1)");
  }
  WEFT_TRY(check_info(info, "info"));
  std::string program = command;
  const std::string path = info_value(info, "path");
  for (size_t at = 0; !path.empty() && program.find('/') == std::string::npos && at <= path.size();) {
    size_t end = path.find(':', at);
    if (end == std::string::npos) end = path.size();
    const std::string candidate = path.substr(at, end - at) + "/" + command;
    if (access(candidate.c_str(), X_OK) == 0) program = candidate;
    at = end + 1;
  }
  app->argv = {program};
  for (char** a = argv; a != nullptr && *a != nullptr; ++a) app->argv.emplace_back(*a);
  app->maxprocs = maxprocs;
  app->host = info_value(info, "host");
  app->wdir = info_value(info, "wdir");
  return Status::success();
}

int finish_spawn(const char* fn, MPI_Comm comm, Comm* c, int root, const Status& root_args,
                 std::vector<SpawnApp> apps, MPI_Comm* intercomm, int* errcodes) {
  int nprocs = 0;
  Status s = weft::comm_spawn(*c, root, root_args, std::move(apps), intercomm, &nprocs);
  if (!s.ok()) *intercomm = MPI_COMM_NULL;
  for (int i = 0; errcodes != MPI_ERRCODES_IGNORE && i < nprocs; ++i)
    errcodes[i] = s.ok() ? MPI_SUCCESS : s.error_class;
  return capi::report(comm, fn, s);
}

int meet(const char* fn, weft::Side side, const char* port_name, MPI_Info info, int root,
                MPI_Comm comm, MPI_Comm* newcomm) {
  Comm* c = nullptr;
  WEFT_CHECK(comm, fn, capi::intra_comm_arg(comm, "comm", &c));
  WEFT_CHECK(comm, fn, check_root(*c, root));
  WEFT_CHECK(comm, fn, capi::check_not_null(newcomm, "newcomm"));
  // The root's own arguments fail the call on every rank.
  std::string port;
  Status root_args;
  if (c->rank == root) {
    root_args = check_port(port_name, "port_name");
    if (root_args.ok()) root_args = check_info(info, "info");
    if (root_args.ok()) port = port_name;
  }
  Status s = weft::comm_meet(*c, root, side, port, newcomm, root_args);
  if (!s.ok()) *newcomm = MPI_COMM_NULL;
  return capi::report(comm, fn, s);
}

}  // namespace

extern "C" {

int PMPI_Comm_spawn(const char* command, char* argv[], int maxprocs, MPI_Info info, int root,
                    MPI_Comm comm, MPI_Comm* intercomm, int array_of_errcodes[]) {
  constexpr const char* fn = "MPI_Comm_spawn";
  WEFT_REQUIRE_RUNNING(fn);
  Comm* c = nullptr;
  WEFT_CHECK(comm, fn, capi::intra_comm_arg(comm, "comm", &c));
  WEFT_CHECK(comm, fn, check_root(*c, root));
  WEFT_CHECK(comm, fn, capi::check_not_null(intercomm, "intercomm"));
  std::vector<SpawnApp> apps(1);
  Status root_args;
  if (c->rank == root) root_args = make_app(command, argv, maxprocs, info, "command", &apps[0]);
  return finish_spawn(fn, comm, c, root, root_args, std::move(apps), intercomm, array_of_errcodes);
}

int PMPI_Comm_spawn_multiple(int count, char* array_of_commands[], char** array_of_argv[],
                             const int array_of_maxprocs[], const MPI_Info array_of_info[],
                             int root, MPI_Comm comm, MPI_Comm* intercomm,
                             int array_of_errcodes[]) {
  constexpr const char* fn = "MPI_Comm_spawn_multiple";
  WEFT_REQUIRE_RUNNING(fn);
  Comm* c = nullptr;
  WEFT_CHECK(comm, fn, capi::intra_comm_arg(comm, "comm", &c));
  WEFT_CHECK(comm, fn, check_root(*c, root));
  WEFT_CHECK(comm, fn, capi::check_not_null(intercomm, "intercomm"));
  std::vector<SpawnApp> apps;
  Status root_args;
  if (c->rank == root) {
    if (count <= 0) {
      root_args = Status::error(MPI_ERR_ARG, "invalid count=" + std::to_string(count) +
                                                 " (at least one command)");
    } else if (array_of_commands == nullptr || array_of_maxprocs == nullptr) {
      root_args = Status::error(MPI_ERR_ARG, "array_of_commands and array_of_maxprocs are needed");
    }
    apps.resize(root_args.ok() ? size_t(count) : 0);
    for (int i = 0; i < int(apps.size()) && root_args.ok(); ++i) {
      const std::string which = "array_of_commands[" + std::to_string(i) + "]";
      root_args = make_app(array_of_commands[i], array_of_argv ? array_of_argv[i] : nullptr,
                           array_of_maxprocs[i], array_of_info ? array_of_info[i] : MPI_INFO_NULL,
                           which.c_str(), &apps[size_t(i)]);
    }
  }
  return finish_spawn(fn, comm, c, root, root_args, std::move(apps), intercomm, array_of_errcodes);
}

int PMPI_Comm_get_parent(MPI_Comm* parent) {
  constexpr const char* fn = "MPI_Comm_get_parent";
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(parent, "parent"));
  // MPI_COMM_NULL where this process was not spawned, or its parent communicator is gone.
  *parent = world().comms.find(world().parent) != nullptr ? world().parent : MPI_COMM_NULL;
  return MPI_SUCCESS;
}

int PMPI_Open_port(MPI_Info info, char* port_name) {
  constexpr const char* fn = "MPI_Open_port";
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_CHECK(kNoComm, fn, check_info(info, "info"));
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(port_name, "port_name"));
  const std::string port = weft::open_port();
  port.copy(port_name, MPI_MAX_PORT_NAME - 1);
  port_name[std::min(port.size(), size_t(MPI_MAX_PORT_NAME - 1))] = '\0';
  return MPI_SUCCESS;
}

int PMPI_Close_port(const char* port_name) {
  constexpr const char* fn = "MPI_Close_port";
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_CHECK(kNoComm, fn, check_port(port_name, "port_name"));
  weft::close_port(port_name);
  return MPI_SUCCESS;
}

int PMPI_Comm_accept(const char* port_name, MPI_Info info, int root, MPI_Comm comm,
                     MPI_Comm* newcomm) {
  WEFT_REQUIRE_RUNNING("MPI_Comm_accept");
  return meet("MPI_Comm_accept", weft::Side::kAccept, port_name, info, root, comm, newcomm);
}

int PMPI_Comm_connect(const char* port_name, MPI_Info info, int root, MPI_Comm comm,
                      MPI_Comm* newcomm) {
  WEFT_REQUIRE_RUNNING("MPI_Comm_connect");
  return meet("MPI_Comm_connect", weft::Side::kConnect, port_name, info, root, comm, newcomm);
}

int PMPI_Publish_name(const char* service_name, MPI_Info info, const char* port_name) {
  constexpr const char* fn = "MPI_Publish_name";
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(service_name, "service_name"));
  WEFT_CHECK(kNoComm, fn, check_info(info, "info"));
  WEFT_CHECK(kNoComm, fn, check_port(port_name, "port_name"));
  return capi::report(kNoComm, fn,
                      world().kvs->publish(kServicePrefix + std::string(service_name), port_name));
}

int PMPI_Unpublish_name(const char* service_name, MPI_Info info, const char* port_name) {
  constexpr const char* fn = "MPI_Unpublish_name";
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(service_name, "service_name"));
  WEFT_CHECK(kNoComm, fn, check_info(info, "info"));
  WEFT_CHECK(kNoComm, fn, check_port(port_name, "port_name"));
  return capi::report(kNoComm, fn, world().kvs->unpublish(kServicePrefix + std::string(service_name)));
}

int PMPI_Lookup_name(const char* service_name, MPI_Info info, char* port_name) {
  constexpr const char* fn = "MPI_Lookup_name";
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(service_name, "service_name"));
  WEFT_CHECK(kNoComm, fn, check_info(info, "info"));
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(port_name, "port_name"));
  std::string port;
  WEFT_CHECK(kNoComm, fn, world().kvs->lookup(kServicePrefix + std::string(service_name), false, &port));
  port.copy(port_name, MPI_MAX_PORT_NAME - 1);
  port_name[std::min(port.size(), size_t(MPI_MAX_PORT_NAME - 1))] = '\0';
  return MPI_SUCCESS;
}

int PMPI_Comm_disconnect(MPI_Comm* comm) {
  constexpr const char* fn = "MPI_Comm_disconnect";
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(comm, "comm"));
  Comm* c = nullptr;
  WEFT_CHECK(*comm, fn, capi::comm_arg(*comm, "comm", &c));
  if (*comm == MPI_COMM_WORLD || *comm == MPI_COMM_SELF) {
    return capi::report(*comm, fn,
                        Status::error(MPI_ERR_COMM, "invalid comm=" + c->display_name() +
                                                        " (a predefined communicator)"));
  }
  const MPI_Comm handle = *comm;
  Status s = weft::comm_disconnect(handle);
  if (s.ok()) *comm = MPI_COMM_NULL;
  return capi::report(s.ok() ? kNoComm : handle, fn, s);
}

int PMPI_Comm_join(int fd, MPI_Comm* intercomm) {
  constexpr const char* fn = "MPI_Comm_join";
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(intercomm, "intercomm"));
  Status s = weft::comm_join(fd, intercomm);
  if (!s.ok()) *intercomm = MPI_COMM_NULL;
  return capi::report(kNoComm, fn, s);
}

}  // extern "C"

WEFT_MPI_ALIAS(MPI_Comm_spawn)
WEFT_MPI_ALIAS(MPI_Comm_spawn_multiple)
WEFT_MPI_ALIAS(MPI_Comm_get_parent)
WEFT_MPI_ALIAS(MPI_Open_port)
WEFT_MPI_ALIAS(MPI_Close_port)
WEFT_MPI_ALIAS(MPI_Comm_accept)
WEFT_MPI_ALIAS(MPI_Comm_connect)
WEFT_MPI_ALIAS(MPI_Publish_name)
WEFT_MPI_ALIAS(MPI_Unpublish_name)
WEFT_MPI_ALIAS(MPI_Lookup_name)
WEFT_MPI_ALIAS(MPI_Comm_disconnect)
WEFT_MPI_ALIAS(MPI_Comm_join)
