// The PMIx server side of weftrun. Facts relied on (docs/platform-facts.md §1): flat job keys
// plus one PMIX_PROC_DATA array per rank (PMIX_RANK first); every async call may complete in
// place (PMIX_OPERATION_SUCCEEDED, no callback); setup_fork edits a malloc'd environ array;
// a single-node job needs no fence, modex or connect/finalize upcall, only abort.
#include "launcher/pmix_server.hpp"

#include <pmix.h>
#include <pmix_server.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace weft::launcher {
namespace {

struct SharedState {
  std::mutex lock;
  std::vector<AbortEvent> aborts;
  int notify_fd = -1;
};
SharedState g_state;

pmix_status_t on_abort(const pmix_proc_t* proc, void*, int status, const char msg[],
                       pmix_proc_t[], size_t, pmix_op_cbfunc_t, void*) {
  {
    std::lock_guard<std::mutex> guard(g_state.lock);
    g_state.aborts.push_back({int(proc->rank), status, msg != nullptr ? msg : ""});
  }
  const char byte = 'a';  // not a signal number: only wakes the loop
  if (g_state.notify_fd >= 0) (void)!write(g_state.notify_fd, &byte, 1);
  // The calling rank stays blocked in PMIx_Abort until weftrun ends the job.
  return PMIX_SUCCESS;
}

// Runs an async PMIx call and waits for its callback (or its in-place completion).
template <typename Start>
pmix_status_t run_and_wait(Start start) {
  struct Done {
    std::atomic<bool> flag{false};
    pmix_status_t rc = PMIX_SUCCESS;
  } done;
  auto cb = [](pmix_status_t rc, void* arg) {
    auto* d = static_cast<Done*>(arg);
    d->rc = rc;
    d->flag.store(true);
  };
  pmix_status_t rc = start(+cb, &done);
  if (rc == PMIX_OPERATION_SUCCEEDED) return PMIX_SUCCESS;
  if (rc != PMIX_SUCCESS) return rc;
  while (!done.flag.load()) usleep(100);
  return done.rc;
}

std::string failure(const char* what, pmix_status_t rc) {
  return std::string(what) + " failed: " + PMIx_Error_string(rc);
}

std::string comma_list(int from, int to) {
  std::string s;
  for (int r = from; r < to; ++r) s += (r == from ? "" : ",") + std::to_string(r);
  return s;
}

}  // namespace

PmixServer::~PmixServer() { stop(); }

std::string PmixServer::start(const std::string& tmpdir, int notify_fd) {
  g_state.notify_fd = notify_fd;
  setenv("PMIX_MCA_psec", "native", 1);
  static pmix_server_module_t module;
  std::memset(&module, 0, sizeof module);
  module.abort = on_abort;
  pmix_info_t info[2];
  PMIX_INFO_LOAD(&info[0], PMIX_SERVER_TMPDIR, tmpdir.c_str(), PMIX_STRING);
  PMIX_INFO_LOAD(&info[1], PMIX_SYSTEM_TMPDIR, tmpdir.c_str(), PMIX_STRING);
  pmix_status_t rc = PMIx_server_init(&module, info, 2);
  PMIX_INFO_DESTRUCT(&info[0]);
  PMIX_INFO_DESTRUCT(&info[1]);
  if (rc != PMIX_SUCCESS) return failure("PMIx_server_init", rc);
  started_ = true;
  return {};
}

std::string PmixServer::register_job(const JobLayout& job) {
  job_ = job;
  const uint32_t n = uint32_t(job.nranks), one = 1;
  char* node_map = nullptr;
  char* proc_map = nullptr;
  pmix_status_t rc = PMIx_generate_regex(job.hostname.c_str(), &node_map);
  if (rc != PMIX_SUCCESS) return failure("PMIx_generate_regex", rc);
  const std::string peers = comma_list(0, job.nranks);
  rc = PMIx_generate_ppn(peers.c_str(), &proc_map);
  if (rc != PMIX_SUCCESS) return failure("PMIx_generate_ppn", rc);

  void* list = PMIx_Info_list_start();
  PMIx_Info_list_add(list, PMIX_JOB_SIZE, &n, PMIX_UINT32);
  PMIx_Info_list_add(list, PMIX_UNIV_SIZE, &n, PMIX_UINT32);
  PMIx_Info_list_add(list, PMIX_MAX_PROCS, &n, PMIX_UINT32);
  PMIx_Info_list_add(list, PMIX_JOB_NUM_APPS, &one, PMIX_UINT32);
  PMIx_Info_list_add(list, PMIX_NUM_NODES, &one, PMIX_UINT32);
  PMIx_Info_list_add(list, PMIX_LOCAL_SIZE, &n, PMIX_UINT32);
  PMIx_Info_list_add(list, PMIX_NODE_SIZE, &n, PMIX_UINT32);
  PMIx_Info_list_add(list, PMIX_JOBID, job.nspace.c_str(), PMIX_STRING);
  PMIx_Info_list_add(list, PMIX_LOCAL_PEERS, peers.c_str(), PMIX_STRING);
  PMIx_Info_list_add(list, PMIX_NODE_MAP, node_map, PMIX_REGEX);
  PMIx_Info_list_add(list, PMIX_PROC_MAP, proc_map, PMIX_REGEX);
  std::free(node_map);
  std::free(proc_map);
  for (int r = 0; r < job.nranks; ++r) {
    const pmix_rank_t rank = pmix_rank_t(r);
    const uint16_t local = uint16_t(r);
    const uint32_t zero = 0;
    void* proc = PMIx_Info_list_start();
    PMIx_Info_list_add(proc, PMIX_RANK, &rank, PMIX_PROC_RANK);
    PMIx_Info_list_add(proc, PMIX_GLOBAL_RANK, &rank, PMIX_PROC_RANK);
    PMIx_Info_list_add(proc, PMIX_LOCAL_RANK, &local, PMIX_UINT16);
    PMIx_Info_list_add(proc, PMIX_NODE_RANK, &local, PMIX_UINT16);
    PMIx_Info_list_add(proc, PMIX_NODEID, &zero, PMIX_UINT32);
    PMIx_Info_list_add(proc, PMIX_APPNUM, &zero, PMIX_UINT32);
    PMIx_Info_list_add(proc, PMIX_HOSTNAME, job.hostname.c_str(), PMIX_STRING);
    pmix_data_array_t array;
    PMIx_Info_list_convert(proc, &array);
    PMIx_Info_list_add(list, PMIX_PROC_DATA, &array, PMIX_DATA_ARRAY);
    PMIX_DATA_ARRAY_DESTRUCT(&array);
    PMIx_Info_list_release(proc);
  }
  pmix_data_array_t all;
  PMIx_Info_list_convert(list, &all);
  PMIx_Info_list_release(list);
  auto* info = static_cast<pmix_info_t*>(all.array);
  rc = run_and_wait([&](pmix_op_cbfunc_t cb, void* arg) {
    return PMIx_server_register_nspace(job.nspace.c_str(), job.nranks, info, all.size, cb, arg);
  });
  PMIX_DATA_ARRAY_DESTRUCT(&all);
  if (rc != PMIX_SUCCESS) return failure("PMIx_server_register_nspace", rc);

  for (int r = 0; r < job.nranks; ++r) {
    pmix_proc_t proc;
    PMIX_LOAD_PROCID(&proc, job.nspace.c_str(), pmix_rank_t(r));
    rc = run_and_wait([&](pmix_op_cbfunc_t cb, void* arg) {
      return PMIx_server_register_client(&proc, geteuid(), getegid(), nullptr, cb, arg);
    });
    if (rc != PMIX_SUCCESS) return failure("PMIx_server_register_client", rc);
  }
  return {};
}

std::string PmixServer::add_client_env(int rank, std::vector<std::string>* env) {
  pmix_proc_t proc;
  PMIX_LOAD_PROCID(&proc, job_.nspace.c_str(), pmix_rank_t(rank));
  char** extra = static_cast<char**>(std::calloc(1, sizeof(char*)));
  pmix_status_t rc = PMIx_server_setup_fork(&proc, &extra);
  if (rc == PMIX_SUCCESS)
    for (char** e = extra; e != nullptr && *e != nullptr; ++e) env->push_back(*e);
  for (char** e = extra; e != nullptr && *e != nullptr; ++e) std::free(*e);
  std::free(extra);
  return rc == PMIX_SUCCESS ? std::string() : failure("PMIx_server_setup_fork", rc);
}

std::vector<AbortEvent> PmixServer::take_aborts() {
  std::lock_guard<std::mutex> guard(g_state.lock);
  std::vector<AbortEvent> out;
  out.swap(g_state.aborts);
  return out;
}

void PmixServer::stop() {
  if (!started_) return;
  PMIx_server_finalize();  // also drops the job's namespace
  started_ = false;
  g_state.notify_fd = -1;
}

}  // namespace weft::launcher
