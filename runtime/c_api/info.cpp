// Info chapter: info objects, MPI_INFO_ENV, and hints on communicators. The MPI_Info_* calls
// work before MPI_Init and after MPI_Finalize (MPI 4.0 §11.2.1).
#include <cstring>
#include <string>

#include "mpi.h"
#include "runtime/c_api/guard.hpp"
#include "runtime/comm/info_objects.hpp"

using weft::InfoEntries;
using weft::Status;
using weft::world;
namespace capi = weft::capi;

namespace {

// MPI 4.0 raises errors that concern no communicator on MPI_COMM_SELF.
constexpr MPI_Comm kNoComm = MPI_COMM_SELF;

// The value of `key` in `info`, or nullptr when the key is absent.
Status lookup(MPI_Info info, const char* key, const std::string** value) {
  const InfoEntries* entries = nullptr;
  WEFT_TRY(weft::infos().entries(info, "info", &entries));
  WEFT_TRY(weft::check_info_key(key, "key"));
  *value = nullptr;
  for (const auto& entry : *entries)
    if (entry.first == key) *value = &entry.second;
  return Status::success();
}

// Copies at most `room` characters of `text` and a terminating NUL.
void copy_out(const std::string& text, size_t room, char* out) {
  const size_t n = text.size() < room ? text.size() : room;
  std::memcpy(out, text.data(), n);
  out[n] = '\0';
}

}  // namespace

extern "C" {

int PMPI_Info_create(MPI_Info* info) {
  constexpr const char* fn = "MPI_Info_create";
  WEFT_LOCKED_CALL();  // works before MPI_Init too
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(info, "info"));
  *info = weft::infos().create();
  return MPI_SUCCESS;
}

int PMPI_Info_create_env(int argc, char* argv[], MPI_Info* info) {
  constexpr const char* fn = "MPI_Info_create_env";
  WEFT_LOCKED_CALL();  // works before MPI_Init too
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(info, "info"));
  *info = weft::infos().create(weft::environment_entries(argc, argv));
  return MPI_SUCCESS;
}

int PMPI_Info_set(MPI_Info info, const char* key, const char* value) {
  constexpr const char* fn = "MPI_Info_set";
  WEFT_LOCKED_CALL();  // works before MPI_Init too
  WEFT_CHECK(kNoComm, fn, weft::check_info_key(key, "key"));
  WEFT_CHECK(kNoComm, fn, weft::check_info_value(value, "value"));
  return capi::report(kNoComm, fn, weft::infos().set(info, key, value));
}

int PMPI_Info_get(MPI_Info info, const char* key, int valuelen, char* value, int* flag) {
  constexpr const char* fn = "MPI_Info_get";
  WEFT_LOCKED_CALL();  // works before MPI_Init too
  const std::string* found = nullptr;
  WEFT_CHECK(kNoComm, fn, lookup(info, key, &found));
  if (valuelen < 0) {
    return capi::report(kNoComm, fn,
                        Status::error(MPI_ERR_ARG, "invalid valuelen=" + std::to_string(valuelen) +
                                                       " (must be >= 0)"));
  }
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(value, "value"));
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(flag, "flag"));
  *flag = found != nullptr;
  if (found != nullptr) copy_out(*found, size_t(valuelen), value);
  return MPI_SUCCESS;
}

int PMPI_Info_get_string(MPI_Info info, const char* key, int* buflen, char* value, int* flag) {
  constexpr const char* fn = "MPI_Info_get_string";
  WEFT_LOCKED_CALL();  // works before MPI_Init too
  const std::string* found = nullptr;
  WEFT_CHECK(kNoComm, fn, lookup(info, key, &found));
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(buflen, "buflen"));
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(flag, "flag"));
  if (*buflen < 0) {
    return capi::report(kNoComm, fn,
                        Status::error(MPI_ERR_ARG, "invalid *buflen=" + std::to_string(*buflen) +
                                                       " (must be >= 0)"));
  }
  if (*buflen > 0) WEFT_CHECK(kNoComm, fn, capi::check_not_null(value, "value"));
  *flag = found != nullptr;
  if (found == nullptr) return MPI_SUCCESS;
  if (*buflen > 0) copy_out(*found, size_t(*buflen - 1), value);
  *buflen = int(found->size()) + 1;
  return MPI_SUCCESS;
}

int PMPI_Info_get_valuelen(MPI_Info info, const char* key, int* valuelen, int* flag) {
  constexpr const char* fn = "MPI_Info_get_valuelen";
  WEFT_LOCKED_CALL();  // works before MPI_Init too
  const std::string* found = nullptr;
  WEFT_CHECK(kNoComm, fn, lookup(info, key, &found));
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(valuelen, "valuelen"));
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(flag, "flag"));
  *flag = found != nullptr;
  if (found != nullptr) *valuelen = int(found->size());
  return MPI_SUCCESS;
}

int PMPI_Info_delete(MPI_Info info, const char* key) {
  constexpr const char* fn = "MPI_Info_delete";
  WEFT_LOCKED_CALL();  // works before MPI_Init too
  WEFT_CHECK(kNoComm, fn, weft::check_info_key(key, "key"));
  return capi::report(kNoComm, fn, weft::infos().remove(info, key));
}

int PMPI_Info_dup(MPI_Info info, MPI_Info* newinfo) {
  constexpr const char* fn = "MPI_Info_dup";
  WEFT_LOCKED_CALL();  // works before MPI_Init too
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(newinfo, "newinfo"));
  return capi::report(kNoComm, fn, weft::infos().dup(info, newinfo));
}

int PMPI_Info_free(MPI_Info* info) {
  constexpr const char* fn = "MPI_Info_free";
  WEFT_LOCKED_CALL();  // works before MPI_Init too
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(info, "info"));
  WEFT_CHECK(kNoComm, fn, weft::infos().free(*info));
  *info = MPI_INFO_NULL;
  return MPI_SUCCESS;
}

int PMPI_Info_get_nkeys(MPI_Info info, int* nkeys) {
  constexpr const char* fn = "MPI_Info_get_nkeys";
  WEFT_LOCKED_CALL();  // works before MPI_Init too
  const InfoEntries* entries = nullptr;
  WEFT_CHECK(kNoComm, fn, weft::infos().entries(info, "info", &entries));
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(nkeys, "nkeys"));
  *nkeys = int(entries->size());
  return MPI_SUCCESS;
}

int PMPI_Info_get_nthkey(MPI_Info info, int n, char* key) {
  constexpr const char* fn = "MPI_Info_get_nthkey";
  WEFT_LOCKED_CALL();  // works before MPI_Init too
  const InfoEntries* entries = nullptr;
  WEFT_CHECK(kNoComm, fn, weft::infos().entries(info, "info", &entries));
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(key, "key"));
  if (n < 0 || size_t(n) >= entries->size()) {
    return capi::report(
        kNoComm, fn,
        Status::error(MPI_ERR_ARG, "invalid n=" + std::to_string(n) + " (the info object has " +
                                       std::to_string(entries->size()) + " keys)"));
  }
  copy_out((*entries)[size_t(n)].first, MPI_MAX_INFO_KEY, key);
  return MPI_SUCCESS;
}

int PMPI_Comm_set_info(MPI_Comm comm, MPI_Info info) {
  constexpr const char* fn = "MPI_Comm_set_info";
  WEFT_REQUIRE_RUNNING(fn);
  weft::Comm* c = nullptr;
  WEFT_CHECK(comm, fn, weft::lookup_comm(world().comms, comm, "comm", &c));
  return capi::report(comm, fn, weft::comm_info_set(comm, info));
}

int PMPI_Comm_get_info(MPI_Comm comm, MPI_Info* info_used) {
  constexpr const char* fn = "MPI_Comm_get_info";
  WEFT_REQUIRE_RUNNING(fn);
  weft::Comm* c = nullptr;
  WEFT_CHECK(comm, fn, weft::lookup_comm(world().comms, comm, "comm", &c));
  WEFT_CHECK(comm, fn, capi::check_not_null(info_used, "info_used"));
  *info_used = weft::comm_info_get(comm);
  return MPI_SUCCESS;
}

}  // extern "C"

// The profiling interface: each MPI_X is a weak alias of PMPI_X (runtime/c_api/guard.hpp).
WEFT_MPI_ALIAS(MPI_Info_create)
WEFT_MPI_ALIAS(MPI_Info_create_env)
WEFT_MPI_ALIAS(MPI_Info_set)
WEFT_MPI_ALIAS(MPI_Info_get)
WEFT_MPI_ALIAS(MPI_Info_get_string)
WEFT_MPI_ALIAS(MPI_Info_get_valuelen)
WEFT_MPI_ALIAS(MPI_Info_delete)
WEFT_MPI_ALIAS(MPI_Info_dup)
WEFT_MPI_ALIAS(MPI_Info_free)
WEFT_MPI_ALIAS(MPI_Info_get_nkeys)
WEFT_MPI_ALIAS(MPI_Info_get_nthkey)
WEFT_MPI_ALIAS(MPI_Comm_set_info)
WEFT_MPI_ALIAS(MPI_Comm_get_info)
