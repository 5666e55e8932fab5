// weftrun's directory of published names (MPI_Publish_name, and the meeting points of
// MPI_Comm_accept/connect and MPI_Comm_spawn): one map for the whole job and its spawned jobs,
// lookups that wait until their keys appear, and a taken name that cannot be published again.
// Pure: the PMIx upcalls reach it as NameRequests (launcher/pmix_server.hpp) on the main thread.
#pragma once
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "launcher/pmix_server.hpp"

namespace weft::launcher {

class NameDirectory {
 public:
  // One answer to give: the request's handle, its outcome and a lookup's values.
  struct Answer {
    void* handle = nullptr;
    NameOutcome outcome = NameOutcome::kOk;
    std::vector<std::pair<std::string, std::string>> found;
  };
  // Serves `request`; returns the answers now due (its own, unless it waits, and those of
  // waiting lookups it completes).
  std::vector<Answer> serve(const NameRequest& request);
  // The handles of lookups still waiting (answered NOT_FOUND when the job ends).
  std::vector<void*> take_waiting();

 private:
  // A lookup's answer if every key is here.
  bool try_lookup(const NameRequest& request, Answer* out) const;
  std::map<std::string, std::string> names_;
  std::vector<NameRequest> waiting_;
};

}  // namespace weft::launcher
