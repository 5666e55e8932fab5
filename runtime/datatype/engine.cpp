// Compiling layouts into loop arrays, and the copy loops of pack and unpack.
#include "runtime/datatype/engine.hpp"

#include <algorithm>
#include <cstring>

namespace weft {
namespace {

// Fills out[at, at + body.size()) with `body`, then appends the children of each entry.
void compile(const Layout& body, std::vector<Loop>* out, size_t at) {
  for (size_t i = 0; i < body.size(); ++i) {
    const Segment& s = body[i];
    (*out)[at + i] = Loop{s.offset, s.stride, s.count, s.bytes, 0, 0};
  }
  for (size_t i = 0; i < body.size(); ++i) {
    if (body[i].leaf()) continue;
    const size_t first = out->size();
    out->resize(first + body[i].body.size());
    (*out)[at + i].first = uint32_t(first);
    (*out)[at + i].n = uint32_t(body[i].body.size());
    compile(body[i].body, out, first);
  }
}

unsigned char* at_address(uintptr_t a) { return reinterpret_cast<unsigned char*>(a); }

// `n` runs of B bytes, `stride` apart in typed memory, packed back to back.
template <size_t B, bool kPack>
void copy_fixed(uintptr_t mem, ptrdiff_t stride, size_t n, unsigned char* packed) {
  for (size_t i = 0; i < n; ++i, mem += uintptr_t(stride), packed += B) {
    if constexpr (kPack) {
      std::memcpy(packed, at_address(mem), B);
    } else {
      std::memcpy(at_address(mem), packed, B);
    }
  }
}

template <bool kPack>
void copy_runs(uintptr_t mem, ptrdiff_t stride, size_t bytes, size_t n, unsigned char* packed) {
  switch (bytes) {
    case 4:
      return copy_fixed<4, kPack>(mem, stride, n, packed);
    case 8:
      return copy_fixed<8, kPack>(mem, stride, n, packed);
    case 16:
      return copy_fixed<16, kPack>(mem, stride, n, packed);
    case 32:
      return copy_fixed<32, kPack>(mem, stride, n, packed);
    case 64:
      return copy_fixed<64, kPack>(mem, stride, n, packed);
    default:
      break;
  }
  for (size_t i = 0; i < n; ++i, mem += uintptr_t(stride), packed += bytes) {
    if constexpr (kPack) {
      std::memcpy(packed, at_address(mem), bytes);
    } else {
      std::memcpy(at_address(mem), packed, bytes);
    }
  }
}

// Walks loops, skipping the first `skip` packed bytes and stopping after `left` more.
template <bool kPack>
class Walker {
 public:
  Walker(const Loop* loops, unsigned char* packed, size_t skip, size_t left)
      : loops_(loops), packed_(packed), skip_(skip), left_(left) {}

  // Returns false once `left` bytes have been copied.
  bool walk(const Loop& l, uintptr_t base) {
    const size_t all = l.count * l.bytes;
    if (skip_ >= all) {
      skip_ -= all;
      return true;
    }
    size_t i = skip_ / l.bytes;
    skip_ -= i * l.bytes;
    uintptr_t at = base + uintptr_t(l.offset) + uintptr_t(ptrdiff_t(i) * l.stride);
    if (l.n == 0) return runs(l, i, at);
    for (; i < l.count; ++i, at += uintptr_t(l.stride)) {
      for (uint32_t c = 0; c < l.n; ++c)
        if (!walk(loops_[l.first + c], at)) return false;
    }
    return true;
  }

 private:
  void part(uintptr_t at, size_t bytes) {
    if constexpr (kPack) {
      std::memcpy(packed_, at_address(at), bytes);
    } else {
      std::memcpy(at_address(at), packed_, bytes);
    }
    packed_ += bytes;
    left_ -= bytes;
  }

  // Runs i.. of leaf `l`, the first at `at`.
  bool runs(const Loop& l, size_t i, uintptr_t at) {
    if (skip_ > 0) {  // resume inside run i
      part(at + skip_, std::min(l.bytes - skip_, left_));
      skip_ = 0;
      ++i;
      at += uintptr_t(l.stride);
      if (left_ == 0) return false;
    }
    const size_t whole = std::min(l.count - i, left_ / l.bytes);
    copy_runs<kPack>(at, l.stride, l.bytes, whole, packed_);
    packed_ += whole * l.bytes;
    left_ -= whole * l.bytes;
    i += whole;
    at += uintptr_t(ptrdiff_t(whole) * l.stride);
    if (i < l.count && left_ > 0) part(at, left_);
    return left_ > 0;
  }

  const Loop* loops_;
  unsigned char* packed_;
  size_t skip_;
  size_t left_;
};

}  // namespace

PackProgram::PackProgram(const Layout& layout, ptrdiff_t extent, size_t size)
    : roots_(uint32_t(layout.size())), extent_(extent), size_(size) {
  loops_.resize(layout.size());
  compile(layout, &loops_, 0);
}

Loop PackProgram::element_loop(size_t count) const {
  Loop top{0, extent_, count, size_, 0, roots_};
  if (roots_ != 1 || loops_[0].n != 0) return top;
  const Loop& run = loops_[0];
  if (run.count == 1) {
    top = Loop{run.offset, extent_, count, run.bytes, 0, 0};
  } else if (extent_ == ptrdiff_t(run.count) * run.stride) {
    top = Loop{run.offset, run.stride, count * run.count, run.bytes, 0, 0};
  }
  if (top.n == 0 && top.count > 1 && top.stride == ptrdiff_t(top.bytes)) {
    top.bytes *= top.count;  // back-to-back runs: one copy
    top.count = 1;
  }
  return top;
}

void PackProgram::pack(const void* buf, size_t count, size_t first, size_t len,
                       void* packed) const {
  if (len == 0) return;
  Walker<true> w(loops_.data(), static_cast<unsigned char*>(packed), first, len);
  w.walk(element_loop(count), reinterpret_cast<uintptr_t>(buf));
}

void PackProgram::unpack(const void* packed, size_t count, size_t first, size_t len,
                         void* buf) const {
  if (len == 0) return;
  Walker<false> w(loops_.data(), static_cast<unsigned char*>(const_cast<void*>(packed)), first,
                  len);
  w.walk(element_loop(count), reinterpret_cast<uintptr_t>(buf));
}

}  // namespace weft
