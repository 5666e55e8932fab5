// Bootstrap key-value interface: job identity plus put/commit/fence/get of small blobs.
// The library sees PMIx only through this, so it runs under weftrun, srun --mpi=pmix, any other
// PMIx server, or as a singleton (no server).
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "runtime/status.hpp"

namespace weft {

struct JobInfo {
  int rank = 0;
  int size = 1;
  int local_rank = 0;
  int local_size = 1;
  int universe_size = 1;
  int appnum = 0;
  std::string hostname;
  std::string nspace;  // the PMIx namespace ("" for a singleton): spawned jobs have their own
  // The ranks of this job on this node (PMIX_LOCAL_PEERS), ascending; this rank alone when the
  // launcher does not say.
  std::vector<int> local_peers;
};

// One command of MPI_Comm_spawn(_multiple) as the launcher gets it (runtime/comm/spawn.*).
struct SpawnApp {
  std::vector<std::string> argv;  // argv[0]: the program
  std::vector<std::string> env;   // "NAME=value" added to the children's environment
  std::string wdir;               // "": the launcher's choice
  std::string host;               // "": the launcher's choice
  int maxprocs = 1;
};

class Kvs {
 public:
  virtual ~Kvs() = default;
  virtual const JobInfo& job() const = 0;
  // Publishes `value` under `key` for every process of the job (visible after commit + fence).
  virtual Status put(const std::string& key, const std::vector<uint8_t>& value) = 0;
  virtual Status commit() = 0;
  // Waits until every rank has reached the fence; calls `progress` while waiting.
  virtual Status fence(const std::function<void()>& progress) = 0;
  virtual Status get(int rank, const std::string& key, std::vector<uint8_t>& value) = 0;
  // Asks the launcher to end the whole job with `code`. Returns only if it could not.
  virtual void abort(int code, const std::string& message) = 0;
  virtual Status finalize() = 0;

  // Dynamic processes, where the launcher serves them (else an error saying what is missing).
  // spawn starts `apps` as a new namespace and names it in *nspace; publish/lookup/unpublish
  // reach the launcher's directory of names (lookup with `wait` blocks until the key exists).
  virtual Status spawn(const std::vector<SpawnApp>& apps, std::string* nspace);
  virtual Status publish(const std::string& key, const std::string& value);
  virtual Status lookup(const std::string& key, bool wait, std::string* value);
  virtual Status unpublish(const std::string& key);
};

// PMIx when this process was started by a PMIx server (PMIX_NAMESPACE is set), else singleton,
// unless a launcher says this process is one of several tasks (see singleton_refused).
Status make_kvs(std::unique_ptr<Kvs>* out);
// An error when `getenv` shows a launcher that started this process as one of N > 1 tasks
// without a PMIx server (srun --mpi=none, MPICH's PMI, Open MPI without PMIx): running as a
// singleton would silently make N one-rank worlds. Success otherwise.
Status singleton_refused(const std::function<const char*(const char*)>& getenv);
std::unique_ptr<Kvs> make_singleton_kvs();
Status make_pmix_kvs(std::unique_ptr<Kvs>* out);

}  // namespace weft
