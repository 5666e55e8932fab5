// MPI_T's init count, its lock and the string rule every *_get_info call follows.
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

}  // namespace weft::tools
