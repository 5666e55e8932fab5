// Request pool and status reporting.
#include "runtime/request.hpp"

#include <algorithm>
#include <cstdio>

#include "gpu/typed_copy.hpp"
#include "pt2pt/match_bits.hpp"
#include "runtime/datatype/datatype.hpp"
#include "runtime/fortran_handles.hpp"

namespace weft {
namespace {
constexpr int kChunk = 128;
}

Request* RequestPool::acquire() {
  if (free_ == nullptr) {
    chunks_.push_back(std::make_unique<Request[]>(kChunk));
    Request* chunk = chunks_.back().get();
    for (int i = 0; i < kChunk; ++i) {
      chunk[i].next_free = free_;
      free_ = &chunk[i];
    }
  }
  Request* r = free_;
  free_ = r->next_free;
  *r = Request{};
  return r;
}

void RequestPool::release(Request* r) {
  if (r->has_fint) fhandles::forget_request(r);  // its integer now converts to MPI_REQUEST_NULL
  deliver_staged(r);
  if (r->activity != nullptr) r->activity->release();
  r->activity = nullptr;
  r->plan.reset();
  r->generalized.reset();
  r->next_free = free_;
  free_ = r;
}

void RequestPool::adopt_orphan(Request* r) {
  r->freed = true;
  orphans_.push_back(r);
}

void RequestPool::sweep_orphans() {
  if (orphans_.empty()) return;
  auto done = std::partition(orphans_.begin(), orphans_.end(),
                             [](Request* r) { return !r->completion.done; });
  for (auto it = done; it != orphans_.end(); ++it) release(*it);
  orphans_.erase(done, orphans_.end());
}

void fill_received_status(const Completion& c, MPI_Status* status) {
  if (status == MPI_STATUS_IGNORE) return;
  status->weft_cancelled = c.cancelled ? 1 : 0;
  status->MPI_SOURCE = c.cancelled ? MPI_ANY_SOURCE : match_bits::source_of(c.sender_bits);
  status->MPI_TAG = c.cancelled ? MPI_ANY_TAG : match_bits::tag_of(c.sender_bits);
  status->weft_bytes = c.cancelled ? 0 : (long long)c.bytes;
}

void fill_status(const Request& r, MPI_Status* status) {
  if (status == MPI_STATUS_IGNORE) return;
  const Completion& c = r.completion;
  status->weft_cancelled = c.cancelled ? 1 : 0;
  switch (r.kind) {
    case WeftRequestKind::kRecv:
      return fill_received_status(c, status);
    case WeftRequestKind::kProcNull:
      status->MPI_SOURCE = MPI_PROC_NULL;
      status->MPI_TAG = MPI_ANY_TAG;
      status->weft_bytes = 0;
      break;
    case WeftRequestKind::kGeneralized:  // its query callback fills the status
      return;
    case WeftRequestKind::kActivity:
      if (const Request* received = r.activity->received()) return fill_status(*received, status);
      [[fallthrough]];
    case WeftRequestKind::kSend:
      status->MPI_SOURCE = MPI_ANY_SOURCE;
      status->MPI_TAG = MPI_ANY_TAG;
      status->weft_bytes = 0;
      break;
  }
}

void deliver_staged(Request* r) {
  Staging* st = r->staging.get();
  if (st == nullptr) return;
  const Completion& c = r->completion;
  if (st->type != nullptr && c.done && !c.cancelled) {
    const size_t capacity = st->count * st->type->size();
    // A short message fills a prefix; a truncated one fills the whole buffer.
    const Status s = gpu::unpack_typed(st->packed.get(), st->count, std::min(c.bytes, capacity),
                                       *st->type, st->user_buf);
    if (!s.ok()) {  // a failed copy to device memory: the receive did not deliver
      std::fprintf(stderr, "weft: %s\n", s.message.c_str());
      r->completion.error_class = s.error_class;
    }
  }
  r->staging.reset();
}

}  // namespace weft
