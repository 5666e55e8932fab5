// Line-atomic output forwarding.
#include "launcher/io_forward.hpp"

#include <errno.h>
#include <unistd.h>

#include <cstring>

namespace weft::launcher {

void write_all(int fd, const char* data, size_t len) {
  while (len > 0) {
    const ssize_t n = write(fd, data, len);
    if (n < 0) {
      if (errno == EINTR) continue;
      return;  // the reader went away: output is dropped, the job goes on
    }
    data += n;
    len -= size_t(n);
  }
}

void LineForwarder::emit(const char* line, size_t len) {
  if (take_ && take_(std::string_view(line, len))) return;
  if (prefix_.empty()) {
    write_all(out_fd_, line, len);
    return;
  }
  std::string whole;
  whole.reserve(prefix_.size() + len);
  whole.append(prefix_).append(line, len);
  write_all(out_fd_, whole.data(), whole.size());
}

void LineForwarder::feed(const char* data, size_t len) {
  while (len > 0) {
    const char* nl = static_cast<const char*>(std::memchr(data, '\n', len));
    if (nl == nullptr) {
      pending_.append(data, len);
      return;
    }
    const size_t upto = size_t(nl - data) + 1;
    if (pending_.empty()) {
      emit(data, upto);
    } else {
      pending_.append(data, upto);
      emit(pending_.data(), pending_.size());
      pending_.clear();
    }
    data += upto;
    len -= upto;
  }
}

void LineForwarder::flush() {
  if (pending_.empty()) return;
  pending_.push_back('\n');
  emit(pending_.data(), pending_.size());
  pending_.clear();
}

}  // namespace weft::launcher
