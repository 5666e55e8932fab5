// The table of live windows (rma/window.hpp).
#include "rma/window.hpp"

namespace weft::rma {

MPI_Win WindowTable::add(std::unique_ptr<Window> w) {
  if (windows_.empty()) windows_.emplace_back();  // MPI_WIN_NULL
  size_t slot = 1;
  while (slot < windows_.size() && windows_[slot] != nullptr) ++slot;
  if (slot == windows_.size()) windows_.emplace_back();
  w->handle = MPI_Win(slot);
  windows_[slot] = std::move(w);
  return MPI_Win(slot);
}

void WindowTable::remove(MPI_Win handle) {
  if (find(handle) != nullptr) windows_[size_t(handle)].reset();
}

bool WindowTable::empty() const {
  for (const auto& w : windows_)
    if (w != nullptr) return false;
  return true;
}

Status lookup_window(MPI_Win handle, const char* arg, Window** out) {
  *out = windows().find(handle);
  if (*out != nullptr) return Status::success();
  return Status::error(MPI_ERR_WIN, std::string("invalid ") + arg + "=" +
                                        (handle == MPI_WIN_NULL ? std::string("MPI_WIN_NULL")
                                                                : std::to_string(handle)) +
                                        " (not a live window)");
}

const AttachedRegion* attached_region(const Window& w, uint64_t address, uint64_t bytes,
                                      uint64_t* start) {
  auto it = w.attached.upper_bound(address);
  if (it == w.attached.begin()) return nullptr;
  --it;
  if (address + bytes > it->first + it->second.bytes) return nullptr;
  *start = it->first;
  return &it->second;
}

}  // namespace weft::rma
