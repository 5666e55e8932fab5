// The integer tables behind MPI_Request_c2f/f2c and MPI_Message_c2f/f2c (fortran_handles.hpp).
#include "runtime/fortran_handles.hpp"

#include <mutex>
#include <unordered_map>
#include <vector>

#include "pt2pt/pt2pt.hpp"
#include "runtime/request.hpp"

namespace weft::fhandles {
namespace {

// Pointer <-> integer, integers from `first` up; freed slots are reused (lowest first is not
// promised). Guarded by a mutex: conversions may come from any thread.
class Table {
 public:
  explicit Table(MPI_Fint first) : first_(first) {}

  MPI_Fint to_int(void* p) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = ints_.find(p);
    if (it != ints_.end()) return it->second;
    size_t slot;
    if (!free_.empty()) {
      slot = free_.back();
      free_.pop_back();
      slots_[slot] = p;
    } else {
      slot = slots_.size();
      slots_.push_back(p);
    }
    const MPI_Fint f = first_ + static_cast<MPI_Fint>(slot);
    ints_.emplace(p, f);
    return f;
  }

  void* to_ptr(MPI_Fint f) {
    std::lock_guard<std::mutex> lock(mu_);
    if (f < first_) return nullptr;
    const size_t slot = static_cast<size_t>(f - first_);
    return slot < slots_.size() ? slots_[slot] : nullptr;
  }

  void forget(void* p) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = ints_.find(p);
    if (it == ints_.end()) return;
    const size_t slot = static_cast<size_t>(it->second - first_);
    slots_[slot] = nullptr;
    free_.push_back(slot);
    ints_.erase(it);
  }

 private:
  const MPI_Fint first_;
  std::mutex mu_;
  std::vector<void*> slots_;
  std::vector<size_t> free_;
  std::unordered_map<void*, MPI_Fint> ints_;
};

// Function-local statics: conversions may run before MPI_Init and after MPI_Finalize.
Table& requests() {
  static Table* t = new Table(1);  // never destroyed: requests may be released at exit
  return *t;
}
Table& messages() {
  static Table* t = new Table(2);  // 0 = MPI_MESSAGE_NULL, 1 = MPI_MESSAGE_NO_PROC
  return *t;
}
constexpr MPI_Fint kMessageNoProc = 1;

}  // namespace

MPI_Fint request_c2f(MPI_Request request) {
  if (request == MPI_REQUEST_NULL) return 0;
  request->has_fint = true;
  return requests().to_int(request);
}

MPI_Request request_f2c(MPI_Fint handle) {
  if (handle == 0) return MPI_REQUEST_NULL;
  return static_cast<MPI_Request>(requests().to_ptr(handle));
}

void forget_request(MPI_Request request) {
  request->has_fint = false;
  requests().forget(request);
}

MPI_Fint message_c2f(MPI_Message message) {
  if (message == MPI_MESSAGE_NULL) return 0;
  if (message == MPI_MESSAGE_NO_PROC) return kMessageNoProc;
  return messages().to_int(message);
}

MPI_Message message_f2c(MPI_Fint handle) {
  if (handle == 0) return MPI_MESSAGE_NULL;
  if (handle == kMessageNoProc) return MPI_MESSAGE_NO_PROC;
  return static_cast<MPI_Message>(messages().to_ptr(handle));
}

void forget_message(MPI_Message message) { messages().forget(message); }

}  // namespace weft::fhandles
