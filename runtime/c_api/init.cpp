// Environment chapter: init, finalize, abort, thread level, version, processor name, hardware
// resources (MPI_Get_hw_resource_info), timers.
#include <pmix.h>
#include <time.h>
#include <ucp/api/ucp.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "mpi.h"
#include "runtime/c_api/guard.hpp"
#include "runtime/c_api/out_string.hpp"
#include "runtime/comm/attributes.hpp"
#include "runtime/comm/connect.hpp"
#include "runtime/comm/info_objects.hpp"
#include "runtime/errors.hpp"
#include "runtime/hardware.hpp"
#include "runtime/streams/stream_queue.hpp"

using weft::world;

namespace {

int init_common(const char* fn, int required, int* provided) {
  if (world().world_model_initialized) {
    std::fprintf(stderr, "weft: %s called twice (MPI can be initialised only once)\n", fn);
    return weft::make_error_code(MPI_ERR_OTHER, std::string(fn) + ": MPI is already initialised");
  }
  int level = MPI_THREAD_SINGLE;
  // A session may have started the library already: then this is one more user of it.
  weft::Status s = weft::world_acquire(required, &level);
  // A process MPI_Comm_spawn started connects to its parents (MPI 4.1 §11.8.2).
  if (s.ok()) s = weft::attach_parent();
  if (!s.ok()) {
    // The initial error handler is MPI_ERRORS_ARE_FATAL (MPI 4.1 §9.3): a process that could
    // not initialise ends here rather than run on as something it is not.
    std::fprintf(stderr, "weft: %s failed: %s\n", fn, s.message.c_str());
    std::fflush(nullptr);
    std::exit(1);
  }
  world().world_model_initialized = true;
  if (provided != nullptr) *provided = level;
  return MPI_SUCCESS;
}

}  // namespace

void weft::capi::copy_out_string(const std::string& text, char* out, int* len, size_t capacity) {
  const size_t n = text.size() < capacity - 1 ? text.size() : capacity - 1;
  std::memcpy(out, text.data(), n);
  out[n] = '\0';
  *len = int(n);
}

extern "C" {

int PMPI_Init(int*, char***) { return init_common("MPI_Init", MPI_THREAD_SINGLE, nullptr); }

int PMPI_Init_thread(int*, char***, int required, int* provided) {
  return init_common("MPI_Init_thread", required, provided);
}

int PMPI_Finalize(void) {
  WEFT_REQUIRE_RUNNING("MPI_Finalize");
  if (!world().world_model_initialized || world().world_model_finalized) {
    // Sessions keep the library running, but the world model is not (or no longer) in use.
    return weft::capi::report(
        MPI_COMM_SELF, "MPI_Finalize",
        weft::Status::error(MPI_ERR_OTHER, world().world_model_finalized
                                               ? "MPI_Finalize was called already"
                                               : "MPI_Init was not called"));
  }
  // Calls enqueued on CUDA streams finish first: their work still calls MPI.
  const int drained = weft::capi::report(MPI_COMM_SELF, "MPI_Finalize", weft::streams::drain_all());
  if (drained != MPI_SUCCESS) return drained;
  // MPI_COMM_SELF is freed first: the delete callbacks of its attributes run, last set first.
  const int self_freed = weft::capi::report(MPI_COMM_SELF, "MPI_Finalize",
                                            weft::attributes_on_comm_free(MPI_COMM_SELF));
  world().world_model_finalized = true;
  // The library itself ends only with its last user (sessions may still use it).
  const int finalized = weft::capi::report(MPI_COMM_WORLD, "MPI_Finalize", weft::world_release());
  return finalized != MPI_SUCCESS ? finalized : self_freed;
}

int PMPI_Initialized(int* flag) {
  if (flag == nullptr) return MPI_ERR_ARG;
  *flag = world().world_model_initialized;  // sessions do not count (MPI 4.1 §11.2.2)
  return MPI_SUCCESS;
}

int PMPI_Finalized(int* flag) {
  if (flag == nullptr) return MPI_ERR_ARG;
  *flag = world().world_model_finalized;
  return MPI_SUCCESS;
}

int PMPI_Abort(MPI_Comm comm, int errorcode) {
  std::fflush(nullptr);
  if (world().phase != weft::Phase::kRunning) _exit(errorcode);
  const weft::Comm* c = world().comms.find(comm);
  const std::string message = "MPI_Abort(" + (c ? c->display_name() : std::to_string(comm)) + ", " +
                              std::to_string(errorcode) + ") called";
  world().kvs->abort(errorcode, message);
  _exit(errorcode);
}

int PMPI_Query_thread(int* provided) {
  WEFT_REQUIRE_RUNNING("MPI_Query_thread");
  WEFT_CHECK(MPI_COMM_WORLD, "MPI_Query_thread", weft::capi::check_not_null(provided, "provided"));
  *provided = world().thread_level;
  return MPI_SUCCESS;
}

int PMPI_Is_thread_main(int* flag) {
  WEFT_REQUIRE_RUNNING("MPI_Is_thread_main");
  WEFT_CHECK(MPI_COMM_WORLD, "MPI_Is_thread_main", weft::capi::check_not_null(flag, "flag"));
  *flag = std::this_thread::get_id() == world().main_thread;
  return MPI_SUCCESS;
}

int PMPI_Get_processor_name(char* name, int* resultlen) {
  if (name == nullptr || resultlen == nullptr) return MPI_ERR_ARG;
  // The node's name as the launcher planned it, once MPI knows it.
  char host[MPI_MAX_PROCESSOR_NAME] = {};
  if (world().phase == weft::Phase::kRunning && world().kvs) {
    world().kvs->job().hostname.copy(host, sizeof host - 1);
  } else {
    gethostname(host, sizeof host - 1);
  }
  weft::capi::copy_out_string(host, name, resultlen, MPI_MAX_PROCESSOR_NAME);
  return MPI_SUCCESS;
}

int PMPI_Get_version(int* version, int* subversion) {
  if (version == nullptr || subversion == nullptr) return MPI_ERR_ARG;
  *version = MPI_VERSION;
  *subversion = MPI_SUBVERSION;
  return MPI_SUCCESS;
}

int PMPI_Get_library_version(char* version, int* resultlen) {
  if (version == nullptr || resultlen == nullptr) return MPI_ERR_ARG;
  const std::string text = std::string("Weft ") + WEFT_VERSION_STRING + " (UCX " +
                           ucp_get_version_string() + ", " + PMIx_Get_version() + ")";
  weft::capi::copy_out_string(text, version, resultlen, MPI_MAX_LIBRARY_VERSION_STRING);
  return MPI_SUCCESS;
}

// MPI 4.1 §9.1.2: a new info object with one key per hardware resource type of this node, as
// hwloc names it ("hwloc://Core"), whose value says whether this process is restricted to one
// instance of it now ("true") or spans several ("false"). The same URIs guide
// MPI_Comm_split_type. Needs no initialised library.
int PMPI_Get_hw_resource_info(MPI_Info* hw_info) {
  constexpr const char* fn = "MPI_Get_hw_resource_info";
  WEFT_LOCKED_CALL();
  WEFT_CHECK(MPI_COMM_SELF, fn, weft::capi::check_not_null(hw_info, "hw_info"));
  weft::InfoEntries entries;
  for (const std::string& type : weft::hardware::present_types())
    entries.emplace_back(type, weft::hardware::restricted_instance(type) >= 0 ? "true" : "false");
  *hw_info = weft::infos().create(std::move(entries));
  return MPI_SUCCESS;
}

double PMPI_Wtime(void) {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

double PMPI_Wtick(void) {
  timespec res;
  clock_getres(CLOCK_MONOTONIC, &res);
  return double(res.tv_sec) + double(res.tv_nsec) * 1e-9;
}

}  // extern "C"

// The profiling interface: each MPI_X is a weak alias of PMPI_X (runtime/c_api/guard.hpp).
WEFT_MPI_ALIAS(MPI_Init)
WEFT_MPI_ALIAS(MPI_Init_thread)
WEFT_MPI_ALIAS(MPI_Finalize)
WEFT_MPI_ALIAS(MPI_Initialized)
WEFT_MPI_ALIAS(MPI_Finalized)
WEFT_MPI_ALIAS(MPI_Abort)
WEFT_MPI_ALIAS(MPI_Query_thread)
WEFT_MPI_ALIAS(MPI_Is_thread_main)
WEFT_MPI_ALIAS(MPI_Get_processor_name)
WEFT_MPI_ALIAS(MPI_Get_version)
WEFT_MPI_ALIAS(MPI_Get_library_version)
WEFT_MPI_ALIAS(MPI_Get_hw_resource_info)
WEFT_MPI_ALIAS(MPI_Wtime)
WEFT_MPI_ALIAS(MPI_Wtick)
