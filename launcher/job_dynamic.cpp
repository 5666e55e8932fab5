// The job's dynamic-process calls: MPI_Comm_spawn's children started on weftrun's node, and the
// name service (publish, lookup, unpublish), for this node's ranks (PMIx) and other nodes'
// (forwarded by their weftd).
#include <cstdio>

#include "launcher/job_state.hpp"

namespace weft::launcher {

std::string Job::start_spawn(const SpawnRequest& request, std::string* nspace) {
  std::string error = "the job is ending";
  if (local_node_ < 0)
    error = "weftrun's own host runs no rank of the job, and spawned processes start there";
  else if (!exit_code_)
    error = spawned_.start(spec_, local_node_, &server_, request, nspace);
  if (!error.empty())
    std::fprintf(stderr, "weftrun: MPI_Comm_spawn from %s failed: %s\n", request.parent.c_str(),
                 error.c_str());
  return error;
}

void Job::spawn_called(int node, uint32_t id, const SpawnRequest& request) {
  std::string nspace;
  const bool ok = start_spawn(request, &nspace).empty();
  remote_.answer(node, MsgType::kSpawnAnswer, encode_spawn_answer(id, nspace, ok));
}

void Job::name_called(int node, uint32_t id, const NameRequest& request) {
  auto call = std::make_unique<std::pair<int, uint32_t>>(node, id);
  NameRequest served = request;
  served.handle = call.get();
  remote_names_.emplace(call.get(), std::move(call));
  for (const NameDirectory::Answer& a : names_.serve(served)) answer_names(a);
}

void Job::answer_names(const NameDirectory::Answer& a) {
  auto it = remote_names_.find(a.handle);
  if (it == remote_names_.end()) {
    server_.complete_names(a.handle, a.outcome, a.found);
    return;
  }
  const auto [node, id] = *it->second;
  remote_.answer(node, MsgType::kNameAnswer, encode_name_answer(id, a.outcome, a.found));
  remote_names_.erase(it);
}

void Job::serve_dynamic() {
  for (const SpawnRequest& req : server_.take_spawns()) {
    std::string nspace;
    const bool ok = start_spawn(req, &nspace).empty();
    server_.complete_spawn(req.handle, nspace, ok);
  }
  for (const NameRequest& req : server_.take_names())
    for (const NameDirectory::Answer& a : names_.serve(req)) answer_names(a);
  // Lookups still waiting when the job ends get an answer, so no rank waits on them.
  if (exit_code_)
    for (void* handle : names_.take_waiting())
      answer_names(NameDirectory::Answer{handle, NameOutcome::kNotFound, {}});
}

}  // namespace weft::launcher
