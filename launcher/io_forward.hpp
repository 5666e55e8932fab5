// Forwarding of ranks' stdout/stderr: bytes are collected per rank and stream and written out
// only as whole lines (one write() each), so lines from different ranks never interleave.
#pragma once
#include <functional>
#include <string>
#include <string_view>

namespace weft::launcher {

class LineForwarder {
 public:
  LineForwarder(int out_fd, std::string prefix) : out_fd_(out_fd), prefix_(std::move(prefix)) {}
  // Takes bytes read from the rank; writes every completed line.
  void feed(const char* data, size_t len);
  // At end of stream: writes a last unterminated line, if any, with a newline.
  void flush();
  // Lines (newline included) for which `take` returns true are its, not written out.
  void take_lines(std::function<bool(std::string_view)> take) { take_ = std::move(take); }

 private:
  void emit(const char* line, size_t len);
  int out_fd_;
  std::string prefix_;
  std::string pending_;
  std::function<bool(std::string_view)> take_;
};

// write() all of `len` bytes, retrying on EINTR/partial writes.
void write_all(int fd, const char* data, size_t len);

}  // namespace weft::launcher
