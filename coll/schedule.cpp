// Schedule construction.
#include "coll/schedule.hpp"

namespace weft::coll {

void Schedule::clear() {
  steps_.clear();
  deps_.clear();
  scratch_bytes_ = 0;
  lane_ = 0;
  region_post_ = 0;
  floor_ = kNoStep;
}

StepId Schedule::add(Step s, std::span<const StepId> deps) {
  s.dep_begin = uint32_t(deps_.size());
  for (StepId d : deps)
    if (d != kNoStep) deps_.push_back(d);
  if (floor_ != kNoStep) deps_.push_back(floor_);
  s.dep_end = uint32_t(deps_.size());
  steps_.push_back(s);
  return StepId(steps_.size() - 1);
}

StepId Schedule::join(std::span<const StepId> deps) { return add({}, deps); }

StepId Schedule::arrive(int ranks, BufRef src, size_t bytes, BufRef dst) {
  Step s{StepKind::kArrive, 0, ranks, src, dst, bytes};
  s.dep_begin = s.dep_end = uint32_t(deps_.size());
  steps_.push_back(s);
  return StepId(steps_.size() - 1);
}

StepId Schedule::join_all() {
  const StepId n = StepId(steps_.size());
  const StepId id = add({}, {});
  for (StepId d = 0; d < n; ++d) deps_.push_back(d);
  steps_[id].dep_end = uint32_t(deps_.size());
  return id;
}

void Schedule::also_after(StepId dep) {
  if (dep == kNoStep || steps_.empty()) return;
  deps_.push_back(dep);
  steps_.back().dep_end = uint32_t(deps_.size());
}

StepId Schedule::append(const Schedule& part, BufRef send_as, BufRef recv_as, StepId after,
                        std::span<const int> peers) {
  const BufRef scratch_as = scratch(part.scratch_bytes());
  auto move = [&](BufRef r) {
    const BufRef base = r.buf == Buf::kSend ? send_as : r.buf == Buf::kRecv ? recv_as : scratch_as;
    return base.at(r.offset);
  };
  const StepId first = StepId(steps_.size());
  std::vector<StepId> deps;
  for (const Step& step : part.steps()) {
    Step s = step;
    s.src = move(step.src);
    s.dst = move(step.dst);
    if (!peers.empty() && s.peer >= 0) s.peer = peers[size_t(s.peer)];
    deps.clear();
    for (StepId d : part.deps_of(step)) deps.push_back(first + d);
    deps.push_back(after);
    add(s, deps);
  }
  deps.clear();
  for (StepId id = first; id < StepId(steps_.size()); ++id) deps.push_back(id);
  deps.push_back(after);
  return join(deps);
}

BufRef Schedule::scratch(size_t bytes) {
  const size_t offset = scratch_aligned(scratch_bytes_);
  scratch_bytes_ = offset + bytes;
  return BufRef{Buf::kScratch, offset};
}

}  // namespace weft::coll
