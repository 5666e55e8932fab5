// The in-memory Kvs of a process started without a launcher: a 1-rank world; and the choice
// between it and PMIx.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

#include "mpi.h"
#include "runtime/kvs.hpp"

namespace weft {
namespace {

class SingletonKvs final : public Kvs {
 public:
  SingletonKvs() {
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    job_.hostname = host;
    job_.local_peers = {0};
  }
  const JobInfo& job() const override { return job_; }
  Status put(const std::string& key, const std::vector<uint8_t>& value) override {
    store_[key] = value;
    return Status::success();
  }
  Status commit() override { return Status::success(); }
  Status fence(const std::function<void()>&) override { return Status::success(); }
  Status get(int rank, const std::string& key, std::vector<uint8_t>& value) override {
    auto it = store_.find(key);
    if (rank != 0 || it == store_.end())
      return Status::error(MPI_ERR_OTHER, "no value for key " + key + " of rank " +
                                          std::to_string(rank));
    value = it->second;
    return Status::success();
  }
  void abort(int code, const std::string&) override {
    std::fflush(nullptr);
    _exit(code);
  }
  Status finalize() override { return Status::success(); }

 private:
  JobInfo job_;
  std::map<std::string, std::vector<uint8_t>> store_;
};

}  // namespace

std::unique_ptr<Kvs> make_singleton_kvs() { return std::make_unique<SingletonKvs>(); }

namespace {
Status no_launcher(const char* what) {
  return Status::error(MPI_ERR_UNSUPPORTED_OPERATION,
                       std::string(what) +
                           " needs a launcher that serves it (weftrun does; this process runs "
                           "without one, or under a PMIx server that lacks it)");
}
}  // namespace

Status Kvs::spawn(const std::vector<SpawnApp>&, std::string*) {
  return no_launcher("starting processes");
}
Status Kvs::publish(const std::string&, const std::string&) { return no_launcher("publishing names"); }
Status Kvs::lookup(const std::string&, bool, std::string*) { return no_launcher("looking up names"); }
Status Kvs::unpublish(const std::string&) { return no_launcher("unpublishing names"); }

Status singleton_refused(const std::function<const char*(const char*)>& getenv) {
  // The task count each launcher gives its tasks. SLURM_NTASKS is not one of them: a batch
  // script sees its allocation's count but is a single process that may run a singleton.
  struct Launcher {
    const char* variable;
    const char* fix;
  };
  static const Launcher kLaunchers[] = {
      {"SLURM_STEP_NUM_TASKS", "launch it with srun --mpi=pmix (or with weftrun)"},
      {"PMI_SIZE", "launch it with weftrun, or srun --mpi=pmix under Slurm"},
      {"OMPI_COMM_WORLD_SIZE", "launch it with weftrun, or srun --mpi=pmix under Slurm"},
  };
  for (const Launcher& l : kLaunchers) {
    const char* value = getenv(l.variable);
    if (value == nullptr || std::atol(value) <= 1) continue;
    return Status::error(MPI_ERR_OTHER,
                         std::string("this process was started as one of ") + value +
                             " tasks (" + l.variable + "=" + value +
                             ") but no PMIx server is reachable, so each task would run as a "
                             "separate one-rank world; " + l.fix);
  }
  return Status::success();
}

Status make_kvs(std::unique_ptr<Kvs>* out) {
  if (std::getenv("PMIX_NAMESPACE") == nullptr) {
    WEFT_TRY(singleton_refused([](const char* name) -> const char* { return std::getenv(name); }));
    *out = make_singleton_kvs();
    return Status::success();
  }
  return make_pmix_kvs(out);
}

}  // namespace weft
