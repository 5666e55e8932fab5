// The count of work for the library's own MPI-calling threads (library_threads.hpp).
#include "runtime/threads/library_threads.hpp"

#include <mutex>

#include "runtime/call_lock.hpp"

namespace weft::library_threads {
namespace {
std::mutex g_count_mutex;
int g_count = 0;  // guarded by g_count_mutex
}  // namespace

void retain() {
  {
    std::lock_guard<std::mutex> g(g_count_mutex);
    if (g_count++ == 0) call_lock::need(call_lock::kLibraryThreads);
  }
  // This call entered while no lock was needed: it takes the lock for the rest of the call.
  if (!CallGuard::holds()) {
    call_lock::lock();
    CallGuard::adopt();
  }
}

void release() {
  std::lock_guard<std::mutex> g(g_count_mutex);
  if (--g_count == 0) call_lock::no_longer_need(call_lock::kLibraryThreads);
}

}  // namespace weft::library_threads
