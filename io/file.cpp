// Open files and their table.
#include "io/file.hpp"

#include "runtime/threads/job_queue.hpp"

namespace weft::io {

File::File() = default;
File::~File() = default;

MPI_File FileTable::add(std::unique_ptr<File> f) {
  const MPI_File h = next_++;
  f->handle = h;
  files_[h] = std::move(f);
  return h;
}

File* FileTable::find(MPI_File handle) const {
  auto it = files_.find(handle);
  return it == files_.end() ? nullptr : it->second.get();
}

void FileTable::remove(MPI_File handle) { files_.erase(handle); }

bool FileTable::is_open(const std::string& path) const {
  for (const auto& [h, f] : files_)
    if (f->real_path == path) return true;
  return false;
}

FileTable& files() {
  static FileTable table;
  return table;
}

Status lookup_file(MPI_File handle, File** out) {
  File* f = files().find(handle);
  if (f == nullptr)
    return Status::error(MPI_ERR_FILE,
                         handle == MPI_FILE_NULL
                             ? std::string("invalid fh=MPI_FILE_NULL")
                             : "invalid fh=" + std::to_string(handle) + " (not an open file)");
  *out = f;
  return Status::success();
}

}  // namespace weft::io
