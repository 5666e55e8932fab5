// MPI_T control variables: one per WEFT_* setting of runtime/config.cpp, in the table's order.
// A setting read at MPI_Init may be written before it (the library then uses the new value) and
// not after (MPI_T_ERR_CVAR_SET_NEVER); one read where it is used may be written at any time; one
// the launcher sets is read-only.
#include <cstring>
#include <set>

#include "runtime/config.hpp"
#include "runtime/tools/tools.hpp"
#include "runtime/world.hpp"

struct weft_t_cvar_handle {
  int index;
};

namespace weft::tools {
namespace {

// Characters of a string control variable (the `count` of its handle).
constexpr int kStringCount = 1024;

std::set<MPI_T_cvar_handle>& live_handles() {
  static std::set<MPI_T_cvar_handle> handles;
  return handles;
}

bool valid_index(int index) { return index >= 0 && index < cvar_count(); }

}  // namespace

int cvar_count() { return int(settings().size()); }

int cvar_category(int index) {
  const std::string name = settings()[index].name;
  if (name.find("ALGORITHM") != std::string::npos || name == "WEFT_TUNING_FILE" ||
      name == "WEFT_CHECK_COLLECTIVES" || name.rfind("WEFT_NCCL_", 0) == 0)
    return 1;                                                              // collectives
  if (name == "WEFT_RMA_PATH" || name == "WEFT_ASYNC_PROGRESS") return 2;  // one-sided
  if (settings()[index].set_by_launcher) return 3;                         // launcher settings
  return 0;                                                                // transport
}

int cvar_get_info(int index, char* name, int* name_len, int* verbosity, MPI_Datatype* datatype,
                  MPI_T_enum* enumtype, char* desc, int* desc_len, int* bind, int* scope) {
  if (!valid_index(index)) return MPI_T_ERR_INVALID_INDEX;
  const Setting& s = settings()[index];
  copy_string(s.name, name, name_len);
  copy_string(s.doc, desc, desc_len);
  if (verbosity) *verbosity = MPI_T_VERBOSITY_USER_BASIC;
  if (datatype) *datatype = s.numeric ? MPI_INT : MPI_CHAR;
  if (enumtype) *enumtype = MPI_T_ENUM_NULL;
  if (bind) *bind = MPI_T_BIND_NO_OBJECT;
  if (scope) *scope = s.set_by_launcher ? MPI_T_SCOPE_READONLY : MPI_T_SCOPE_LOCAL;
  return MPI_SUCCESS;
}

int cvar_get_index(const char* name, int* index) {
  return index_by_name(name, cvar_count(), [](int i) { return settings()[i].name; }, index);
}

int cvar_handle_alloc(int index, MPI_T_cvar_handle* handle, int* count) {
  if (!valid_index(index)) return MPI_T_ERR_INVALID_INDEX;
  if (handle == nullptr || count == nullptr) return MPI_T_ERR_INVALID;
  *handle = new weft_t_cvar_handle{index};
  live_handles().insert(*handle);
  *count = settings()[index].numeric ? 1 : kStringCount;
  return MPI_SUCCESS;
}

int cvar_handle_free(MPI_T_cvar_handle* handle) {
  if (handle == nullptr || live_handles().erase(*handle) == 0) return MPI_T_ERR_INVALID_HANDLE;
  delete *handle;
  *handle = MPI_T_CVAR_HANDLE_NULL;
  return MPI_SUCCESS;
}

int cvar_read(MPI_T_cvar_handle handle, void* buf) {
  if (live_handles().count(handle) == 0) return MPI_T_ERR_INVALID_HANDLE;
  if (buf == nullptr) return MPI_T_ERR_INVALID;
  const Setting& s = settings()[handle->index];
  if (s.numeric) {
    *static_cast<int*>(buf) = int(setting_long(s.name, 0));
  } else {
    int len = kStringCount;
    copy_string(setting_value(s.name), static_cast<char*>(buf), &len);
  }
  return MPI_SUCCESS;
}

int cvar_write(MPI_T_cvar_handle handle, const void* buf) {
  if (live_handles().count(handle) == 0) return MPI_T_ERR_INVALID_HANDLE;
  if (buf == nullptr) return MPI_T_ERR_INVALID;
  const Setting& s = settings()[handle->index];
  if (s.set_by_launcher) return MPI_T_ERR_CVAR_SET_NEVER;
  if (s.read_at_init && world().phase != Phase::kBeforeInit) return MPI_T_ERR_CVAR_SET_NEVER;
  if (s.numeric) {
    set_setting(s.name, std::to_string(*static_cast<const int*>(buf)));
  } else {
    set_setting(s.name, std::string(static_cast<const char*>(buf),
                                    strnlen(static_cast<const char*>(buf), kStringCount)));
  }
  return MPI_SUCCESS;
}

}  // namespace weft::tools
