// Kvs over the PMIx client API: job identity from PMIx keys, blobs via Put/Commit/Fence/Get.
// Facts relied on (docs/platform-facts.md §2): rank comes from PMIx_Init's proc; job keys are
// read with {nspace, PMIX_RANK_WILDCARD}; numeric keys vary in type, so read them generically.
#include <pmix.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>

#include "mpi.h"
#include "runtime/kvs.hpp"

namespace weft {
namespace {

Status pmix_error(const char* what, pmix_status_t rc) {
  return Status::error(MPI_ERR_OTHER, std::string(what) + " failed: " + PMIx_Error_string(rc));
}

// "0,3,5" as ranks, ascending; {me} when the list is missing, malformed or leaves `me` out.
std::vector<int> parse_peers(const std::string& list, int me) {
  std::vector<int> peers;
  const char* p = list.c_str();
  while (*p != '\0') {
    char* end = nullptr;
    const long r = std::strtol(p, &end, 10);
    if (end == p || r < 0) return {me};
    peers.push_back(int(r));
    p = *end == ',' ? end + 1 : end;
    if (*end != ',' && *end != '\0') return {me};
  }
  std::sort(peers.begin(), peers.end());
  if (!std::binary_search(peers.begin(), peers.end(), me)) return {me};
  return peers;
}

class PmixKvs final : public Kvs {
 public:
  Status init() {
    pmix_status_t rc = PMIx_Init(&me_, nullptr, 0);
    if (rc != PMIX_SUCCESS) return pmix_error("PMIx_Init", rc);
    initialized_ = true;
    job_.rank = int(me_.rank);
    job_.nspace = me_.nspace;
    job_.size = int(read_number(PMIX_JOB_SIZE, true, 1));
    job_.universe_size = int(read_number(PMIX_UNIV_SIZE, true, job_.size));
    job_.local_size = int(read_number(PMIX_LOCAL_SIZE, true, 1));
    job_.local_rank = int(read_number(PMIX_LOCAL_RANK, false, 0));
    job_.appnum = int(read_number(PMIX_APPNUM, false, 0));
    // The node as the launcher planned it (two simulated hosts on one machine are two nodes);
    // the machine's own name only where the server says nothing.
    job_.local_peers = parse_peers(read_string(PMIX_LOCAL_PEERS, true), job_.rank);
    job_.hostname = read_string(PMIX_HOSTNAME);
    if (job_.hostname.empty()) {
      char host[256] = {};
      gethostname(host, sizeof host - 1);
      job_.hostname = host;
    }
    return Status::success();
  }
  ~PmixKvs() override {
    if (initialized_) (void)finalize();
  }

  const JobInfo& job() const override { return job_; }

  Status put(const std::string& key, const std::vector<uint8_t>& value) override {
    pmix_value_t v;
    PMIX_VALUE_CONSTRUCT(&v);
    v.type = PMIX_BYTE_OBJECT;
    v.data.bo.bytes = reinterpret_cast<char*>(const_cast<uint8_t*>(value.data()));
    v.data.bo.size = value.size();
    pmix_status_t rc = PMIx_Put(PMIX_GLOBAL, key.c_str(), &v);
    return rc == PMIX_SUCCESS ? Status::success() : pmix_error("PMIx_Put", rc);
  }

  Status commit() override {
    pmix_status_t rc = PMIx_Commit();
    return rc == PMIX_SUCCESS ? Status::success() : pmix_error("PMIx_Commit", rc);
  }

  Status fence(const std::function<void()>& progress) override {
    struct Done {
      std::atomic<bool> flag{false};
      pmix_status_t rc = PMIX_SUCCESS;
    } done;
    pmix_info_t info;
    bool collect = true;
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
    auto cb = [](pmix_status_t rc, void* arg) {
      auto* d = static_cast<Done*>(arg);
      d->rc = rc;
      d->flag.store(true, std::memory_order_release);
    };
    pmix_status_t rc = PMIx_Fence_nb(nullptr, 0, &info, 1, cb, &done);
    PMIX_INFO_DESTRUCT(&info);
    if (rc == PMIX_OPERATION_SUCCEEDED) return Status::success();
    if (rc != PMIX_SUCCESS) return pmix_error("PMIx_Fence_nb", rc);
    while (!done.flag.load(std::memory_order_acquire)) {
      if (progress) progress();
      usleep(20);
    }
    return done.rc == PMIX_SUCCESS ? Status::success() : pmix_error("PMIx_Fence", done.rc);
  }

  Status get(int rank, const std::string& key, std::vector<uint8_t>& value) override {
    pmix_proc_t peer;
    PMIX_LOAD_PROCID(&peer, me_.nspace, pmix_rank_t(rank));
    pmix_value_t* v = nullptr;
    pmix_status_t rc = PMIx_Get(&peer, key.c_str(), nullptr, 0, &v);
    if (rc != PMIX_SUCCESS) return pmix_error(("PMIx_Get of " + key).c_str(), rc);
    if (v->type != PMIX_BYTE_OBJECT) {
      PMIX_VALUE_RELEASE(v);
      return Status::error(MPI_ERR_INTERN, "PMIx key " + key + " has an unexpected type");
    }
    auto* bytes = reinterpret_cast<const uint8_t*>(v->data.bo.bytes);
    value.assign(bytes, bytes + v->data.bo.size);
    PMIX_VALUE_RELEASE(v);
    return Status::success();
  }

  void abort(int code, const std::string& message) override {
    std::fflush(nullptr);
    (void)PMIx_Abort(code, message.c_str(), nullptr, 0);
    // The launcher kills the job; if it did not, end this process ourselves.
    sleep(5);
    _exit(code);
  }

  Status spawn(const std::vector<SpawnApp>& apps, std::string* nspace) override;
  Status publish(const std::string& key, const std::string& value) override {
    pmix_info_t info;
    PMIX_INFO_LOAD(&info, key.c_str(), value.c_str(), PMIX_STRING);
    pmix_status_t rc = PMIx_Publish(&info, 1);
    PMIX_INFO_DESTRUCT(&info);
    if (rc == PMIX_ERR_DUPLICATE_KEY)
      return Status::error(MPI_ERR_SERVICE, "the name " + key + " is already published");
    return rc == PMIX_SUCCESS ? Status::success() : pmix_error("PMIx_Publish", rc);
  }
  Status lookup(const std::string& key, bool wait, std::string* value) override {
    pmix_pdata_t data;
    PMIX_PDATA_CONSTRUCT(&data);
    PMIX_LOAD_KEY(data.key, key.c_str());
    pmix_info_t info;
    const int all = 0;  // wait for every key asked
    PMIX_INFO_LOAD(&info, PMIX_WAIT, &all, PMIX_INT);
    pmix_status_t rc = PMIx_Lookup(&data, 1, wait ? &info : nullptr, wait ? 1 : 0);
    PMIX_INFO_DESTRUCT(&info);
    Status out = Status::success();
    if (rc == PMIX_ERR_NOT_FOUND || (rc == PMIX_SUCCESS && data.value.type != PMIX_STRING))
      out = Status::error(MPI_ERR_NAME, "no name " + key + " is published");
    else if (rc != PMIX_SUCCESS)
      out = pmix_error("PMIx_Lookup", rc);
    else
      *value = data.value.data.string;
    PMIX_PDATA_DESTRUCT(&data);
    return out;
  }
  Status unpublish(const std::string& key) override {
    char* keys[2] = {const_cast<char*>(key.c_str()), nullptr};
    pmix_status_t rc = PMIx_Unpublish(keys, nullptr, 0);
    if (rc == PMIX_ERR_NOT_FOUND)
      return Status::error(MPI_ERR_SERVICE, "the name " + key + " is not published");
    return rc == PMIX_SUCCESS ? Status::success() : pmix_error("PMIx_Unpublish", rc);
  }

  Status finalize() override {
    if (!initialized_) return Status::success();
    initialized_ = false;
    pmix_status_t rc = PMIx_Finalize(nullptr, 0);
    return rc == PMIX_SUCCESS ? Status::success() : pmix_error("PMIx_Finalize", rc);
  }

 private:
  // A string key of this process, or "".
  // A string key of this process, or of the job (wildcard rank).
  std::string read_string(const char* key, bool job_level = false) {
    pmix_proc_t who;
    PMIX_LOAD_PROCID(&who, me_.nspace, job_level ? PMIX_RANK_WILDCARD : me_.rank);
    pmix_value_t* v = nullptr;
    if (PMIx_Get(&who, key, nullptr, 0, &v) != PMIX_SUCCESS || v == nullptr) return {};
    std::string out = v->type == PMIX_STRING && v->data.string != nullptr ? v->data.string : "";
    PMIX_VALUE_RELEASE(v);
    return out;
  }
  // A numeric key of the job (wildcard rank) or of this process, whatever its integer type.
  uint64_t read_number(const char* key, bool job_level, uint64_t fallback) {
    pmix_proc_t who;
    PMIX_LOAD_PROCID(&who, me_.nspace, job_level ? PMIX_RANK_WILDCARD : me_.rank);
    pmix_value_t* v = nullptr;
    if (PMIx_Get(&who, key, nullptr, 0, &v) != PMIX_SUCCESS || v == nullptr) return fallback;
    uint64_t out = fallback;
    pmix_status_t rc;
    PMIX_VALUE_GET_NUMBER(rc, v, out, uint64_t);
    if (rc != PMIX_SUCCESS) out = fallback;
    PMIX_VALUE_RELEASE(v);
    return out;
  }

  pmix_proc_t me_{};
  JobInfo job_;
  bool initialized_ = false;
};

Status PmixKvs::spawn(const std::vector<SpawnApp>& apps, std::string* nspace) {
  std::vector<pmix_app_t> papps(apps.size());
  for (size_t i = 0; i < apps.size(); ++i) {
    pmix_app_t& a = papps[i];
    PMIX_APP_CONSTRUCT(&a);
    a.cmd = strdup(apps[i].argv[0].c_str());
    for (const std::string& arg : apps[i].argv) pmix_argv_append_nosize(&a.argv, arg.c_str());
    for (const std::string& e : apps[i].env) pmix_argv_append_nosize(&a.env, e.c_str());
    if (!apps[i].wdir.empty()) a.cwd = strdup(apps[i].wdir.c_str());
    a.maxprocs = apps[i].maxprocs;
    if (!apps[i].host.empty()) {
      PMIX_INFO_CREATE(a.info, 1);
      a.ninfo = 1;
      PMIX_INFO_LOAD(&a.info[0], PMIX_HOST, apps[i].host.c_str(), PMIX_STRING);
    }
  }
  pmix_nspace_t child;
  pmix_status_t rc = PMIx_Spawn(nullptr, 0, papps.data(), papps.size(), child);
  for (pmix_app_t& a : papps) PMIX_APP_DESTRUCT(&a);
  if (rc != PMIX_SUCCESS) {
    return Status::error(MPI_ERR_SPAWN, std::string("the launcher could not start them (PMIx_Spawn: ") +
                                            PMIx_Error_string(rc) + "; weftrun says why)");
  }
  *nspace = child;
  return Status::success();
}

}  // namespace

Status make_pmix_kvs(std::unique_ptr<Kvs>* out) {
  auto kvs = std::make_unique<PmixKvs>();
  WEFT_TRY(kvs->init());
  *out = std::move(kvs);
  return Status::success();
}

}  // namespace weft
