// Message framing and bodies for weftrun ↔ weftd.
#include "launcher/wire.hpp"

#include <poll.h>
#include <unistd.h>

#include <cerrno>

namespace weft::launcher {

BodyWriter& BodyWriter::u32(uint32_t v) {
  for (int i = 0; i < 4; ++i) out_.push_back(char(v >> (8 * i)));
  return *this;
}

BodyWriter& BodyWriter::str(const std::string& s) {
  u32(uint32_t(s.size()));
  out_ += s;
  return *this;
}

BodyWriter& BodyWriter::strings(const std::vector<std::string>& list) {
  u32(uint32_t(list.size()));
  for (const std::string& s : list) str(s);
  return *this;
}

uint32_t BodyReader::u32() {
  if (!ok_ || body_.size() - at_ < 4) {
    ok_ = false;
    return 0;
  }
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= uint32_t(uint8_t(body_[at_ + size_t(i)])) << (8 * i);
  at_ += 4;
  return v;
}

std::string BodyReader::str() {
  const uint32_t n = u32();
  if (!ok_ || body_.size() - at_ < n) {
    ok_ = false;
    return {};
  }
  std::string s = body_.substr(at_, n);
  at_ += n;
  return s;
}

std::vector<std::string> BodyReader::strings() {
  const uint32_t n = u32();
  std::vector<std::string> list;
  for (uint32_t i = 0; i < n && ok_; ++i) list.push_back(str());
  return list;
}

void Channel::send(MsgType type, const std::string& body) {
  const uint32_t len = uint32_t(body.size() + 1);
  for (int i = 0; i < 4; ++i) out_.push_back(char(len >> (8 * i)));
  out_.push_back(char(type));
  out_ += body;
}

bool Channel::flush() {
  while (!out_.empty()) {
    const ssize_t n = write(fd_, out_.data(), out_.size());
    if (n > 0) {
      out_.erase(0, size_t(n));
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
    }
  }
  return true;
}

bool Channel::receive(std::vector<Message>* out) {
  bool open = true;
  char buf[65536];
  for (;;) {
    const ssize_t n = read(fd_, buf, sizeof buf);
    if (n > 0) {
      in_.append(buf, size_t(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    open = n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
    break;
  }
  size_t at = 0;
  while (in_.size() - at >= 5) {
    uint32_t len = 0;
    for (int i = 0; i < 4; ++i) len |= uint32_t(uint8_t(in_[at + size_t(i)])) << (8 * i);
    if (len == 0 || len > kMaxFrame) return false;
    if (in_.size() - at - 4 < len) break;
    out->push_back({MsgType(uint8_t(in_[at + 4])), in_.substr(at + 5, len - 1)});
    at += 4 + len;
  }
  in_.erase(0, at);
  return open;
}

bool Channel::flush_blocking(int timeout_ms) {
  while (wants_write()) {
    if (!flush()) return false;
    if (!wants_write()) break;
    pollfd p{fd_, POLLOUT, 0};
    if (poll(&p, 1, timeout_ms) <= 0) return false;
  }
  return true;
}

bool Channel::receive_blocking(std::vector<Message>* out, int timeout_ms) {
  const size_t before = out->size();
  while (out->size() == before) {
    pollfd p{fd_, POLLIN, 0};
    if (poll(&p, 1, timeout_ms) <= 0) return false;
    if (!receive(out)) return out->size() > before;
  }
  return true;
}

}  // namespace weft::launcher
