// Kvs over the PMIx client API: job identity from PMIx keys, blobs via Put/Commit/Fence/Get.
// Facts relied on (docs/platform-facts.md §2): rank comes from PMIx_Init's proc; job keys are
// read with {nspace, PMIX_RANK_WILDCARD}; numeric keys vary in type, so read them generically.
#include <pmix.h>
#include <unistd.h>

#include <atomic>
#include <cstring>

#include "mpi.h"
#include "runtime/kvs.hpp"

namespace weft {
namespace {

Status pmix_error(const char* what, pmix_status_t rc) {
  return Status::error(MPI_ERR_OTHER, std::string(what) + " failed: " + PMIx_Error_string(rc));
}

class PmixKvs final : public Kvs {
 public:
  Status init() {
    pmix_status_t rc = PMIx_Init(&me_, nullptr, 0);
    if (rc != PMIX_SUCCESS) return pmix_error("PMIx_Init", rc);
    initialized_ = true;
    job_.rank = int(me_.rank);
    job_.size = int(read_number(PMIX_JOB_SIZE, true, 1));
    job_.universe_size = int(read_number(PMIX_UNIV_SIZE, true, job_.size));
    job_.local_size = int(read_number(PMIX_LOCAL_SIZE, true, 1));
    job_.local_rank = int(read_number(PMIX_LOCAL_RANK, false, 0));
    job_.appnum = int(read_number(PMIX_APPNUM, false, 0));
    // The node as the launcher planned it (two simulated hosts on one machine are two nodes);
    // the machine's own name only where the server says nothing.
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

  Status finalize() override {
    if (!initialized_) return Status::success();
    initialized_ = false;
    pmix_status_t rc = PMIx_Finalize(nullptr, 0);
    return rc == PMIX_SUCCESS ? Status::success() : pmix_error("PMIx_Finalize", rc);
  }

 private:
  // A string key of this process, or "".
  std::string read_string(const char* key) {
    pmix_value_t* v = nullptr;
    if (PMIx_Get(&me_, key, nullptr, 0, &v) != PMIX_SUCCESS || v == nullptr) return {};
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

}  // namespace

Status make_pmix_kvs(std::unique_ptr<Kvs>* out) {
  auto kvs = std::make_unique<PmixKvs>();
  WEFT_TRY(kvs->init());
  *out = std::move(kvs);
  return Status::success();
}

}  // namespace weft
