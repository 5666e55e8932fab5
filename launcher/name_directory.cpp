// The published names of a job, and lookups waiting for them.
#include "launcher/name_directory.hpp"

namespace weft::launcher {

bool NameDirectory::try_lookup(const NameRequest& request, Answer* out) const {
  out->handle = request.handle;
  out->found.clear();
  for (const auto& [key, unused] : request.entries) {
    const auto it = names_.find(key);
    if (it == names_.end()) return false;
    out->found.emplace_back(key, it->second);
  }
  return !request.entries.empty();
}

std::vector<NameDirectory::Answer> NameDirectory::serve(const NameRequest& request) {
  std::vector<Answer> answers(1);
  Answer& own = answers[0];
  own.handle = request.handle;
  switch (request.kind) {
    case NameRequest::kPublish:
      for (const auto& [key, value] : request.entries)
        if (names_.count(key) != 0) own.outcome = NameOutcome::kDuplicate;
      if (own.outcome == NameOutcome::kOk)
        for (const auto& [key, value] : request.entries) names_[key] = value;
      break;
    case NameRequest::kUnpublish:
      for (const auto& [key, unused] : request.entries)
        if (names_.erase(key) == 0) own.outcome = NameOutcome::kNotFound;
      break;
    case NameRequest::kLookup:
      if (try_lookup(request, &own)) return answers;
      if (request.wait) {
        waiting_.push_back(request);
        return {};
      }
      own.outcome = NameOutcome::kNotFound;
      own.found.clear();
      return answers;
  }
  // A publish may complete waiting lookups.
  for (size_t i = 0; request.kind == NameRequest::kPublish && i < waiting_.size();) {
    Answer done;
    if (!try_lookup(waiting_[i], &done)) {
      ++i;
      continue;
    }
    answers.push_back(std::move(done));
    waiting_.erase(waiting_.begin() + long(i));
  }
  return answers;
}

std::vector<void*> NameDirectory::take_waiting() {
  std::vector<void*> out;
  for (const NameRequest& r : waiting_) out.push_back(r.handle);
  waiting_.clear();
  return out;
}

}  // namespace weft::launcher
