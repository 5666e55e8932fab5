// Running collective calls: blocking, nonblocking and persistent, all through CollOp.
#include "coll/coll.hpp"

#include <algorithm>
#include <cstring>

#include "coll/call_cache.hpp"
#include "coll/coll_op.hpp"
#include "coll/nccl_path.hpp"
#include "coll/node_region.hpp"
#include "coll/registry.hpp"
#include "gpu/memory.hpp"
#include "pt2pt/match_bits.hpp"
#include "pt2pt/pt2pt.hpp"
#include "runtime/comm/nodes.hpp"
#include "runtime/config.hpp"
#include "runtime/tools/events.hpp"
#include "runtime/wait_state.hpp"
#include "runtime/world.hpp"

namespace weft::coll {

tools::Counter* call_counter(const Algorithm& a) {
  const auto list = algorithms_for(a.kind);
  for (size_t i = 0; i < list.size() && i < size_t(tools::kMaxAlgorithms); ++i)
    if (list[i] == &a) return &tools::g_counters.coll_calls[int(a.kind)][i];
  return nullptr;
}

int CommChannel::tag(int lane) const {
  return int(((seq_ << kLaneBits) | uint32_t(lane)) & match_bits::kTagMask);
}

CommChannel::Route CommChannel::route(int peer) const {
  if (!comm_->is_inter()) return {comm_, peer};
  if (peer < comm_->size) return {comm_->local.get(), peer};  // a local phase
  return {comm_, peer - comm_->size};
}

Status CommChannel::start_send(int peer, int lane, const void* buf, size_t bytes, Completion* c) {
  const Route r = route(peer);
  return pt2pt::start_coll_send(*r.comm, buf, bytes, r.rank, tag(lane), c);
}

Status CommChannel::start_recv(int peer, int lane, void* buf, size_t bytes, Completion* c) {
  const Route r = route(peer);
  return pt2pt::start_coll_recv(*r.comm, buf, bytes, r.rank, tag(lane), c);
}

bool CommChannel::takes_device_memory(int peer, size_t bytes) const {
  const Route r = route(peer);
  return world().transport->takes_device_memory(r.comm->peer_world_rank(r.rank), bytes);
}

bool CommChannel::try_region(RegionWait& w) {
  if (w.arrival != 0) return try_arrive(w);
  if (w.post && w.how.by_reference) return try_post_reference(w);
  if (w.post) {
    return comm_->region.held->region->try_post(region_call(w.how.which), w.buf, w.bytes,
                                                w.peer_or_readers);
  }
  return try_fetch(w);
}

bool CommChannel::try_post_reference(RegionWait& w) {
  NodeRegion* region = comm_->region.held->region.get();
  const uint64_t call = region_call(w.how.which);
  if (!w.published)
    w.published = region->try_post_reference(call, w.buf, w.bytes, w.peer_or_readers);
  if (!w.published) return false;
  if (region->fetched_by_all(call)) return true;
  region->help_readers(call);  // while it waits, the poster copies for readers that are slow
  return region->fetched_by_all(call);
}

bool CommChannel::try_arrive(RegionWait& w) {
  NodeRegion* region = comm_->region.held->region.get();
  if (!w.published) w.published = region->try_arrive(w.arrival, w.data, w.bytes);
  OddArrival odd;
  if (!w.published || !region->try_complete(w.arrival, w.buf, w.bytes, &odd)) return false;
  if (odd.member >= 0) w.c->error_class = MPI_ERR_TRUNCATE;
  return true;
}

bool CommChannel::try_fetch(const RegionWait& w) {
  NodeRegion* region = comm_->region.held->region.get();
  const uint64_t call = region_call(w.how.which);
  const bool part = w.from != kWholePost;
  const size_t from = part ? w.from : 0;
  size_t posted = 0;
  if (w.how.by_reference) {
    const Read read = region->try_read(w.peer_or_readers, call, from, w.buf, w.bytes, &posted);
    if (read == Read::kNotYet) return false;
    if (read == Read::kFailed) {
      w.c->error_class = MPI_ERR_OTHER;
      return true;
    }
  } else if (!region->try_fetch(w.peer_or_readers, call, from, w.buf, w.bytes, &posted)) {
    return false;
  }
  w.c->bytes = std::min(posted > from ? posted - from : 0, w.bytes);
  w.c->error_class = fetch_matches(posted, part, from, w.bytes) ? 0 : MPI_ERR_TRUNCATE;
  return true;
}

Status CommChannel::start_region(RegionWait w) {
  if (try_region(w)) {
    w.c->done = true;
  } else {
    region_waits_.push_back(w);
  }
  return Status::success();
}

Status CommChannel::start_post(const void* buf, size_t bytes, int readers, RegionMove how,
                               Completion* c) {
  return start_region({true, readers, const_cast<void*>(buf), bytes, c, kWholePost, how});
}

Status CommChannel::start_fetch(int peer, size_t from, void* buf, size_t bytes, RegionMove how,
                                Completion* c) {
  return start_region({false, peer, buf, bytes, c, from, how});
}

Status CommChannel::start_arrive(const void* src, size_t bytes, void* dst, Completion* c) {
  RegionWait w{true, 0, dst, bytes, c};
  w.arrival = comm_->region.held->region->next_arrival();
  w.data = src;
  return start_region(w);
}

bool CommChannel::region_ready() const {
  const NodeRegion* region = comm_->region.held->region.get();
  for (const RegionWait& w : region_waits_) {
    if (w.arrival != 0) {
      if (w.published ? region->all_arrived(w.arrival) : region->arrival_complete(w.arrival - 1))
        return true;
      continue;
    }
    const uint64_t call = region_call(w.how.which);
    if (w.post ? (w.published ? region->fetched_by_all(call)
                              : region->can_post(call, w.how.by_reference ? 0 : w.bytes))
               : region->has_posted(w.peer_or_readers, call))
      return true;
  }
  return false;
}

unsigned CommChannel::poll_region() {
  unsigned done = 0;
  for (size_t i = 0; i < region_waits_.size();) {
    if (!try_region(region_waits_[i])) {
      ++i;
      continue;
    }
    region_waits_[i].c->done = true;
    region_waits_[i] = region_waits_.back();
    region_waits_.pop_back();
    ++done;
  }
  return done;
}

void CollOp::prepare(Comm& comm, const CallSpec& spec) {
  if (!prepared_for(spec.args)) {
    spec_.args = spec.args;
    algorithm_ = world().selector.choose(spec_.args);
    calls_ = call_counter(*algorithm_);
    schedule_.clear();
    algorithm_->build(spec_.args, schedule_);
    executor_.plan(schedule_);
  }
  bind(comm, spec);
}

void CollOp::bind(Comm& comm, const CallSpec& spec) {
  spec_.binding = spec.binding;
  spec_.reduction = spec.reduction;
  if (!spec.send_typed.empty() || !spec_.send_typed.empty()) spec_.send_typed = spec.send_typed;
  if (!spec.recv_typed.empty() || !spec_.recv_typed.empty()) spec_.recv_typed = spec.recv_typed;
  spec_.send_in_packed_recv = spec.send_in_packed_recv;
  spec_.recv_in_packed_send = spec.recv_in_packed_send;
  spec_.stage_recv_bytes = spec.stage_recv_bytes;
  if (world().check_collectives) spec_.label = spec.label;  // what the check shows
  channel_.bind(&comm, comm.coll_seq++);
  comm_ = &comm;
  report_ = nullptr;
  stage_.resize(spec_.stage_recv_bytes);
  packed_send_.resize(spec_.send_typed.packed_bytes());
  packed_recv_.resize(spec_.recv_typed.packed_bytes());
}

size_t CollOp::retained_bytes() const {
  return executor_.scratch_capacity() + stage_.capacity() + packed_send_.capacity() +
         packed_recv_.capacity();
}

void CollOp::start() {
  finished_ = false;
  channel_.begin_run();
  if (calls_ != nullptr) {
    calls_->add(1);
    tools::coll_algorithm_event(*algorithm_, spec_.args, comm_->context);
  }
  ++comm_->ops_in_flight;
  Binding binding = spec_.binding;
  staging_ = Status::success();
  // Packed copies of non-contiguous sides live in host memory, whatever the user's buffer is.
  if (!spec_.send_typed.empty()) {
    note_staging(spec_.send_typed.pack(binding.send, packed_send_.data()));
    binding.send = packed_send_.data();
  }
  if (!spec_.recv_typed.empty()) {
    note_staging(spec_.recv_typed.pack(binding.recv, packed_recv_.data()));
    binding.recv = packed_recv_.data();
  }
  if (spec_.send_in_packed_recv >= 0)
    binding.send = packed_recv_.data() + spec_.send_in_packed_recv;
  if (spec_.recv_in_packed_send >= 0)
    binding.recv = packed_send_.data() + spec_.recv_in_packed_send;
  binding.recv_on_device = gpu::on_device(binding.recv);
  if (!stage_.empty()) {
    if (binding.recv_on_device) {
      note_staging(gpu::device_memory()->copy(stage_.data(), binding.recv, stage_.size()));
    } else {
      std::memcpy(stage_.data(), binding.recv, stage_.size());
    }
    binding.send = stage_.data();
  }
  binding.send_on_device =
      binding.send == binding.recv ? binding.recv_on_device : gpu::on_device(binding.send);
  binding.device_mirror_limit = device_mirror_limit();
  const Reduction* reduction = spec_.reduction.elem_size > 0 ? &spec_.reduction : nullptr;
  executor_.start(reduction, binding, &channel_);
  if (executor_.done()) finish();
}

unsigned CollOp::advance() {
  if (finished_) return 0;
  const unsigned n = executor_.advance();
  if (executor_.done()) finish();
  return n;
}

void CollOp::finish() {
  finished_ = true;
  if (!spec_.recv_typed.empty())
    note_staging(spec_.recv_typed.unpack(packed_recv_.data(), spec_.binding.recv));
  world().comms.op_done(comm_);
  if (report_ != nullptr) {
    report_->error_class = outcome().error_class;
    report_->done = true;
  }
}

void CollOp::release() {
  std::unique_ptr<CollOp> self(this);
  if (const std::shared_ptr<CallCache> home = home_.lock()) home->give_back(std::move(self));
}

Status CollOp::restart() {
  WEFT_TRY(check_matching_calls(*comm_, spec_));
  start();
  if (!finished_) world().progress.activate(this);
  return Status::success();
}

namespace {

void complete_args(const Comm& comm, CallSpec& spec) {
  spec.args.rank = comm.rank;
  spec.args.size = comm.size;
  spec.args.remote_size = comm.remote_size();
  spec.args.nodes = comm.nodes;
  spec.args.region_bytes = region_room(comm);
  spec.args.segment_bytes = world().selector.model().segment_bytes;
}

// A pooled request owning a prepared (not started) CollOp from the communicator's cache.
Request* new_request(Comm& comm, CallSpec& spec, bool persistent) {
  complete_args(comm, spec);
  const std::shared_ptr<CallCache>& cache = call_cache(comm);
  CollOp* op = cache->take(comm, spec).release();
  op->lent_by(cache);
  Request* r = world().requests.acquire();
  r->kind = WeftRequestKind::kActivity;
  r->comm = comm.handle;
  r->activity = op;
  r->persistent = persistent;
  op->report_to(&r->completion);
  return r;
}

// Starts a prepared op and waits for its end.
Status run_prepared(CollOp& op) {
  op.start();
  if (!op.finished()) {
    World& w = world();
    w.progress.activate(&op);
    w.progress.wait_until([&op] { return op.finished(); });
  }
  return op.outcome();
}

}  // namespace

const Algorithm* choose(const Comm& comm, CallSpec& spec) {
  complete_args(comm, spec);
  return world().selector.choose(spec.args);
}

Status run_to_completion(CollOp& op, Comm& comm, CallSpec& spec) {
  complete_args(comm, spec);
  op.prepare(comm, spec);
  return run_prepared(op);
}

Status run_blocking(Comm& comm, CallSpec& spec) {
  WEFT_TRY(learn_nodes(comm));  // the first blocking call on a communicator that may span nodes
  wait_state::note_collective(comm, comm.coll_seq + 1);  // the number the call will take
  WEFT_TRY(check_matching_calls(comm, spec));
  complete_args(comm, spec);
  if (Status ran; run_on_nccl(comm, spec, &ran)) return ran;  // device buffers NCCL takes
  // The op is this call's alone until given back, so threads of MPI_THREAD_MULTIPLE running
  // blocking collectives at once (on different communicators) each have their own.
  CallCache& cache = *call_cache(comm);
  std::unique_ptr<CollOp> op = cache.take(comm, spec);
  Status s = run_prepared(*op);
  cache.give_back(std::move(op));
  return s;
}

Status start_nonblocking(Comm& comm, CallSpec& spec, Request** out) {
  WEFT_TRY(check_matching_calls(comm, spec));
  Request* r = new_request(comm, spec, false);
  static_cast<CollOp*>(r->activity)->start();
  if (!r->activity->finished()) world().progress.activate(r->activity);
  *out = r;
  return Status::success();
}

Status init_persistent(Comm& comm, CallSpec& spec, Request** out) {
  Request* r = new_request(comm, spec, true);
  r->active = false;
  r->completion.done = true;  // inactive until MPI_Start
  *out = r;
  return Status::success();
}

}  // namespace weft::coll
