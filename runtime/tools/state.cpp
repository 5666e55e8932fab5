// MPI_T's init count, its lock, the string rule every *_get_info call follows and the name rule
// of every *_get_index call.
#include <algorithm>
#include <cstring>

#include "runtime/tools/tools.hpp"

namespace weft::tools {
namespace {
int g_init_count = 0;  // guarded by mutex()
}  // namespace

std::mutex& mutex() {
  static std::mutex m;
  return m;
}

bool initialized() { return g_init_count > 0; }

int init_thread(int required, int* provided) {
  if (required < MPI_THREAD_SINGLE || required > MPI_THREAD_MULTIPLE) return MPI_T_ERR_INVALID;
  ++g_init_count;
  // The tools state has its own lock, so every level is supported.
  if (provided != nullptr) *provided = required;
  return MPI_SUCCESS;
}

int finalize() {
  if (g_init_count == 0) return MPI_T_ERR_NOT_INITIALIZED;
  --g_init_count;
  return MPI_SUCCESS;
}

void copy_string(const std::string& s, char* out, int* len) {
  if (len == nullptr) return;
  if (out == nullptr || *len <= 0) {
    *len = int(s.size()) + 1;
    return;
  }
  const size_t n = std::min(size_t(*len - 1), s.size());
  std::memcpy(out, s.data(), n);
  out[n] = '\0';
  *len = int(n) + 1;
}

int index_by_name(const char* name, int count, const std::function<const char*(int)>& name_of,
                  int* index) {
  if (name == nullptr || index == nullptr) return MPI_T_ERR_INVALID;
  for (int i = 0; i < count; ++i)
    if (std::strcmp(name_of(i), name) == 0) {
      *index = i;
      return MPI_SUCCESS;
    }
  return MPI_T_ERR_INVALID_NAME;
}

}  // namespace weft::tools
