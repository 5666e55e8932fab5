// Building and simplifying the strided-loop tree of a datatype's data.
#include "runtime/datatype/layout.hpp"

#include <algorithm>

namespace weft {
namespace {

// A strided run whose iterations touch end to end is one longer run.
void canonicalize_run(Segment* s) {
  if (s->count > 1 && s->stride == ptrdiff_t(s->bytes)) {
    s->bytes *= s->count;
    s->count = 1;
  }
  if (s->count == 1) s->stride = 0;
}

// Merges `s` into `last` when both are runs that continue each other; true if merged.
bool merge_runs(Segment* last, const Segment& s) {
  if (!last->leaf() || !s.leaf() || s.count != 1) return false;
  if (last->count == 1 && last->offset + ptrdiff_t(last->bytes) == s.offset) {
    last->bytes += s.bytes;  // back to back
    return true;
  }
  if (last->bytes != s.bytes) return false;
  if (last->count == 1) {  // two equal runs: a strided run of two
    last->stride = s.offset - last->offset;
    last->count = 2;
  } else if (last->offset + ptrdiff_t(last->count) * last->stride == s.offset) {
    ++last->count;  // the next one of an evenly spaced series
  } else {
    return false;
  }
  canonicalize_run(last);
  return true;
}

void push(Layout* out, Segment s) {
  if (s.leaf()) canonicalize_run(&s);
  if (!out->empty() && merge_runs(&out->back(), s)) return;
  out->push_back(std::move(s));
}

Segment shifted(const Segment& s, ptrdiff_t by) {
  Segment t = s;
  t.offset += by;
  return t;
}

}  // namespace

size_t layout_bytes(const Layout& layout) {
  size_t n = 0;
  for (const Segment& s : layout) n += s.total_bytes();
  return n;
}

size_t layout_entries(const Layout& layout) {
  size_t n = layout.size();
  for (const Segment& s : layout) n += layout_entries(s.body);
  return n;
}

void append_repeat(Layout* out, ptrdiff_t offset, size_t count, ptrdiff_t stride,
                   const Layout& body) {
  if (count == 0 || layout_bytes(body) == 0) return;
  if (count == 1) {
    for (const Segment& s : body) push(out, shifted(s, offset));
    return;
  }
  if (body.size() == 1) {
    const Segment& inner = body[0];
    if (inner.leaf() && inner.count == 1) {  // a loop over one run: a strided run
      push(out, Segment{offset + inner.offset, count, stride, inner.bytes, {}});
      return;
    }
    if (stride == ptrdiff_t(inner.count) * inner.stride) {  // the inner loop simply goes on
      push(out, Segment{offset + inner.offset, count * inner.count, inner.stride, inner.bytes,
                        inner.body});
      return;
    }
  }
  push(out, Segment{offset, count, stride, layout_bytes(body), body});
}

bool layout_data_bounds(const Layout& layout, ptrdiff_t* lo, ptrdiff_t* hi) {
  bool any = false;
  for (const Segment& s : layout) {
    ptrdiff_t body_lo = 0, body_hi = ptrdiff_t(s.bytes);
    if (!s.leaf() && !layout_data_bounds(s.body, &body_lo, &body_hi)) continue;
    const ptrdiff_t span = ptrdiff_t(s.count - 1) * s.stride;
    const ptrdiff_t first = s.offset + std::min<ptrdiff_t>(0, span);
    const ptrdiff_t last = s.offset + std::max<ptrdiff_t>(0, span);
    if (!any || first + body_lo < *lo) *lo = first + body_lo;
    if (!any || last + body_hi > *hi) *hi = last + body_hi;
    any = true;
  }
  return any;
}

}  // namespace weft
