// The PMIx server of one node. Facts relied on (docs/platform-facts.md §1): flat job keys
// plus one PMIX_PROC_DATA array per rank (PMIX_RANK first); every async call may complete in
// place (PMIX_OPERATION_SUCCEEDED, no callback); setup_fork edits a malloc'd environ array;
// a fence whose participants are all local completes inside the library, others come up as
// fence_nb with this node's blob, and are completed with every node's blobs concatenated raw
// (the buffer must live until the library's release callback).
#include "launcher/pmix_server.hpp"

#include <pmix.h>
#include <pmix_server.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>

namespace weft::launcher {
namespace {

struct SharedState {
  std::mutex lock;
  std::vector<AbortEvent> aborts;
  std::vector<PendingFence> fences;
  std::vector<SpawnRequest> spawns;
  std::vector<NameRequest> names;
  int notify_fd = -1;
};
SharedState g_state;

// What the PMIx callbacks queued in `queue` so far, taken out under the lock (weftrun's loop).
template <typename T>
std::vector<T> take_all(std::vector<T>* queue) {
  std::lock_guard<std::mutex> guard(g_state.lock);
  std::vector<T> out;
  out.swap(*queue);
  return out;
}

void notify() {
  const char byte = 'a';  // not a signal number: only wakes the loop
  if (g_state.notify_fd >= 0) (void)!write(g_state.notify_fd, &byte, 1);
}

// What PMIx gave with a fence, kept until the host completes it.
struct FenceCall {
  pmix_modex_cbfunc_t cbfunc;
  void* cbdata;
};

pmix_status_t on_fence(const pmix_proc_t[], size_t, const pmix_info_t[], size_t, char* data,
                       size_t ndata, pmix_modex_cbfunc_t cbfunc, void* cbdata) {
  {
    std::lock_guard<std::mutex> guard(g_state.lock);
    g_state.fences.push_back({std::string(data != nullptr ? data : "", ndata),
                              new FenceCall{cbfunc, cbdata}});
  }
  notify();
  return PMIX_SUCCESS;
}

pmix_status_t on_abort(const pmix_proc_t* proc, void*, int status, const char msg[],
                       pmix_proc_t[], size_t, pmix_op_cbfunc_t, void*) {
  {
    std::lock_guard<std::mutex> guard(g_state.lock);
    g_state.aborts.push_back({int(proc->rank), status, msg != nullptr ? msg : ""});
  }
  notify();
  // The calling rank stays blocked in PMIx_Abort until weftrun ends the job.
  return PMIX_SUCCESS;
}

// What PMIx gave with a spawn or a name request, kept until the launcher answers it.
struct SpawnCall {
  pmix_spawn_cbfunc_t cbfunc;
  void* cbdata;
};
struct NameCall {
  pmix_op_cbfunc_t op = nullptr;
  pmix_lookup_cbfunc_t lookup = nullptr;
  void* cbdata;
};

template <typename T>
pmix_status_t queue(std::vector<T> SharedState::*list, T item) {
  {
    std::lock_guard<std::mutex> guard(g_state.lock);
    (g_state.*list).push_back(std::move(item));
  }
  notify();
  return PMIX_SUCCESS;
}

std::string info_string(const pmix_info_t* info, size_t n, const char* key) {
  for (size_t i = 0; i < n; ++i)
    if (PMIX_CHECK_KEY(&info[i], key) && info[i].value.type == PMIX_STRING)
      return info[i].value.data.string;
  return {};
}

pmix_status_t on_spawn(const pmix_proc_t* proc, const pmix_info_t[], size_t,
                       const pmix_app_t apps[], size_t napps, pmix_spawn_cbfunc_t cbfunc,
                       void* cbdata) {
  SpawnRequest req;
  req.parent = std::string(proc->nspace) + " rank " + std::to_string(proc->rank);
  for (size_t a = 0; a < napps; ++a) {
    SpawnRequest::App app;
    for (char** arg = apps[a].argv; arg != nullptr && *arg != nullptr; ++arg)
      app.context.argv.emplace_back(*arg);
    if (app.context.argv.empty() && apps[a].cmd != nullptr) app.context.argv.emplace_back(apps[a].cmd);
    for (char** e = apps[a].env; e != nullptr && *e != nullptr; ++e) {
      const std::string entry = *e;
      const size_t eq = entry.find('=');
      if (eq != std::string::npos) app.context.env.emplace_back(entry.substr(0, eq), entry.substr(eq + 1));
    }
    if (apps[a].cwd != nullptr) app.context.wdir = apps[a].cwd;
    app.context.nranks = apps[a].maxprocs;
    app.host = info_string(apps[a].info, apps[a].ninfo, PMIX_HOST);
    req.apps.push_back(std::move(app));
  }
  req.handle = new SpawnCall{cbfunc, cbdata};
  return queue(&SharedState::spawns, std::move(req));
}

pmix_status_t on_publish(const pmix_proc_t*, const pmix_info_t info[], size_t ninfo,
                         pmix_op_cbfunc_t cbfunc, void* cbdata) {
  NameRequest req;
  for (size_t i = 0; i < ninfo; ++i) {
    // Directives (range, persistence) are PMIx's own keys; names are what the caller chose.
    if (std::strncmp(info[i].key, "pmix.", 5) == 0 || info[i].value.type != PMIX_STRING) continue;
    req.entries.emplace_back(info[i].key, info[i].value.data.string);
  }
  req.handle = new NameCall{cbfunc, nullptr, cbdata};
  return queue(&SharedState::names, std::move(req));
}

NameRequest keys_request(NameRequest::Kind kind, char** keys) {
  NameRequest req;
  req.kind = kind;
  for (char** k = keys; k != nullptr && *k != nullptr; ++k) req.entries.emplace_back(*k, "");
  return req;
}

pmix_status_t on_lookup(const pmix_proc_t*, char** keys, const pmix_info_t info[], size_t ninfo,
                        pmix_lookup_cbfunc_t cbfunc, void* cbdata) {
  NameRequest req = keys_request(NameRequest::kLookup, keys);
  for (size_t i = 0; i < ninfo; ++i)
    if (PMIX_CHECK_KEY(&info[i], PMIX_WAIT)) req.wait = true;
  req.handle = new NameCall{nullptr, cbfunc, cbdata};
  return queue(&SharedState::names, std::move(req));
}

pmix_status_t on_unpublish(const pmix_proc_t*, char** keys, const pmix_info_t[], size_t,
                           pmix_op_cbfunc_t cbfunc, void* cbdata) {
  NameRequest req = keys_request(NameRequest::kUnpublish, keys);
  req.handle = new NameCall{cbfunc, nullptr, cbdata};
  return queue(&SharedState::names, std::move(req));
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

std::string comma_list(const std::vector<int>& ranks) {
  std::string s;
  for (size_t i = 0; i < ranks.size(); ++i) s += (i == 0 ? "" : ",") + std::to_string(ranks[i]);
  return s;
}

}  // namespace

PmixServer::~PmixServer() { stop(); }

std::string PmixServer::start(const std::string& tmpdir, int notify_fd,
                              const std::string& hostname, int node_id, bool dynamic) {
  g_state.notify_fd = notify_fd;
  setenv("PMIX_MCA_psec", "native", 1);
  static pmix_server_module_t module;
  std::memset(&module, 0, sizeof module);
  module.abort = on_abort;
  module.fence_nb = on_fence;
  if (dynamic) {
    module.spawn = on_spawn;
    module.publish = on_publish;
    module.lookup = on_lookup;
    module.unpublish = on_unpublish;
  }
  const uint32_t id = uint32_t(node_id);
  const pmix_rank_t server_rank = pmix_rank_t(node_id);
  pmix_info_t info[5];
  PMIX_INFO_LOAD(&info[0], PMIX_SERVER_TMPDIR, tmpdir.c_str(), PMIX_STRING);
  PMIX_INFO_LOAD(&info[1], PMIX_SYSTEM_TMPDIR, tmpdir.c_str(), PMIX_STRING);
  PMIX_INFO_LOAD(&info[2], PMIX_HOSTNAME, hostname.c_str(), PMIX_STRING);
  PMIX_INFO_LOAD(&info[3], PMIX_NODEID, &id, PMIX_UINT32);
  PMIX_INFO_LOAD(&info[4], PMIX_SERVER_RANK, &server_rank, PMIX_PROC_RANK);
  pmix_status_t rc = PMIx_server_init(&module, info, 5);
  for (pmix_info_t& i : info) PMIX_INFO_DESTRUCT(&i);
  if (rc != PMIX_SUCCESS) return failure("PMIx_server_init", rc);
  started_ = true;
  return {};
}

std::string PmixServer::register_job(const JobSpec& job, int node, int universe) {
  const std::vector<int> local = job.ranks_on(node);
  const uint32_t n = uint32_t(job.nranks()), nlocal = uint32_t(local.size());
  const uint32_t univ = uint32_t(std::max(universe, job.nranks()));
  const uint32_t num_apps = uint32_t(job.apps.size());
  // The maps name only nodes with ranks: a job MPI_Comm_spawn starts has its parent's nodes but
  // ranks on one, and PMIx refuses an empty entry.
  std::string node_list, per_node;
  uint32_t num_nodes = 0;
  for (size_t k = 0; k < job.nodes.size(); ++k) {
    const std::vector<int> ranks = job.ranks_on(int(k));
    if (ranks.empty()) continue;
    node_list += (node_list.empty() ? "" : ",") + job.nodes[k];
    per_node += (per_node.empty() ? "" : ";") + comma_list(ranks);
    ++num_nodes;
  }
  char* node_map = nullptr;
  char* proc_map = nullptr;
  pmix_status_t rc = PMIx_generate_regex(node_list.c_str(), &node_map);
  if (rc != PMIX_SUCCESS) return failure("PMIx_generate_regex", rc);
  rc = PMIx_generate_ppn(per_node.c_str(), &proc_map);
  if (rc != PMIX_SUCCESS) return failure("PMIx_generate_ppn", rc);

  const std::string peers = comma_list(local);
  void* list = PMIx_Info_list_start();
  PMIx_Info_list_add(list, PMIX_JOB_SIZE, &n, PMIX_UINT32);
  PMIx_Info_list_add(list, PMIX_UNIV_SIZE, &univ, PMIX_UINT32);
  PMIx_Info_list_add(list, PMIX_MAX_PROCS, &n, PMIX_UINT32);
  PMIx_Info_list_add(list, PMIX_JOB_NUM_APPS, &num_apps, PMIX_UINT32);
  PMIx_Info_list_add(list, PMIX_NUM_NODES, &num_nodes, PMIX_UINT32);
  PMIx_Info_list_add(list, PMIX_LOCAL_SIZE, &nlocal, PMIX_UINT32);
  PMIx_Info_list_add(list, PMIX_NODE_SIZE, &nlocal, PMIX_UINT32);
  PMIx_Info_list_add(list, PMIX_JOBID, job.nspace.c_str(), PMIX_STRING);
  PMIx_Info_list_add(list, PMIX_LOCAL_PEERS, peers.c_str(), PMIX_STRING);
  PMIx_Info_list_add(list, PMIX_NODE_MAP, node_map, PMIX_REGEX);
  PMIx_Info_list_add(list, PMIX_PROC_MAP, proc_map, PMIX_REGEX);
  std::free(node_map);
  std::free(proc_map);
  for (int r = 0; r < job.nranks(); ++r) {
    const int app = job.app_of(r);
    int app_first = 0;
    for (int a = 0; a < app; ++a) app_first += job.apps[size_t(a)].nranks;
    const pmix_rank_t rank = pmix_rank_t(r), app_rank = pmix_rank_t(r - app_first);
    const uint16_t local_rank = uint16_t(job.local_rank_of(r));
    const uint32_t node_id = uint32_t(job.node_of_rank[size_t(r)]), appnum = uint32_t(app);
    void* proc = PMIx_Info_list_start();
    PMIx_Info_list_add(proc, PMIX_RANK, &rank, PMIX_PROC_RANK);
    PMIx_Info_list_add(proc, PMIX_GLOBAL_RANK, &rank, PMIX_PROC_RANK);
    PMIx_Info_list_add(proc, PMIX_LOCAL_RANK, &local_rank, PMIX_UINT16);
    PMIx_Info_list_add(proc, PMIX_NODE_RANK, &local_rank, PMIX_UINT16);
    PMIx_Info_list_add(proc, PMIX_NODEID, &node_id, PMIX_UINT32);
    PMIx_Info_list_add(proc, PMIX_APPNUM, &appnum, PMIX_UINT32);
    PMIx_Info_list_add(proc, PMIX_APP_RANK, &app_rank, PMIX_PROC_RANK);
    PMIx_Info_list_add(proc, PMIX_HOSTNAME, job.nodes[node_id].c_str(), PMIX_STRING);
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
    return PMIx_server_register_nspace(job.nspace.c_str(), int(nlocal), info, all.size, cb, arg);
  });
  PMIX_DATA_ARRAY_DESTRUCT(&all);
  if (rc != PMIX_SUCCESS) return failure("PMIx_server_register_nspace", rc);

  for (int r : local) {
    pmix_proc_t proc;
    PMIX_LOAD_PROCID(&proc, job.nspace.c_str(), pmix_rank_t(r));
    rc = run_and_wait([&](pmix_op_cbfunc_t cb, void* arg) {
      return PMIx_server_register_client(&proc, geteuid(), getegid(), nullptr, cb, arg);
    });
    if (rc != PMIX_SUCCESS) return failure("PMIx_server_register_client", rc);
  }
  return {};
}

std::string PmixServer::add_client_env(const std::string& nspace, int rank,
                                       std::vector<std::string>* env) {
  pmix_proc_t proc;
  PMIX_LOAD_PROCID(&proc, nspace.c_str(), pmix_rank_t(rank));
  char** extra = static_cast<char**>(std::calloc(1, sizeof(char*)));
  pmix_status_t rc = PMIx_server_setup_fork(&proc, &extra);
  if (rc == PMIX_SUCCESS)
    for (char** e = extra; e != nullptr && *e != nullptr; ++e) env->push_back(*e);
  for (char** e = extra; e != nullptr && *e != nullptr; ++e) std::free(*e);
  std::free(extra);
  return rc == PMIX_SUCCESS ? std::string() : failure("PMIx_server_setup_fork", rc);
}

std::vector<AbortEvent> PmixServer::take_aborts() { return take_all(&g_state.aborts); }

std::vector<PendingFence> PmixServer::take_fences() { return take_all(&g_state.fences); }

std::vector<SpawnRequest> PmixServer::take_spawns() { return take_all(&g_state.spawns); }

void PmixServer::complete_spawn(void* handle, const std::string& nspace, bool ok) {
  auto* call = static_cast<SpawnCall*>(handle);
  pmix_nspace_t ns;
  PMIX_LOAD_NSPACE(ns, nspace.c_str());
  call->cbfunc(ok ? PMIX_SUCCESS : PMIX_ERR_JOB_FAILED_TO_LAUNCH, ns, call->cbdata);
  delete call;
}

std::vector<NameRequest> PmixServer::take_names() { return take_all(&g_state.names); }

void PmixServer::complete_names(void* handle, NameOutcome outcome,
                                const std::vector<std::pair<std::string, std::string>>& found) {
  auto* call = static_cast<NameCall*>(handle);
  const pmix_status_t rc = outcome == NameOutcome::kOk         ? PMIX_SUCCESS
                           : outcome == NameOutcome::kNotFound ? PMIX_ERR_NOT_FOUND
                                                               : PMIX_ERR_DUPLICATE_KEY;
  if (call->op != nullptr) {
    call->op(rc, call->cbdata);
  } else {
    // The library copies the values before the callback returns.
    std::vector<pmix_pdata_t> data(found.size());
    for (size_t i = 0; i < found.size(); ++i) {
      PMIX_PDATA_CONSTRUCT(&data[i]);
      PMIX_LOAD_KEY(data[i].key, found[i].first.c_str());
      PMIX_VALUE_LOAD(&data[i].value, found[i].second.c_str(), PMIX_STRING);
    }
    call->lookup(rc, data.data(), data.size(), call->cbdata);
    for (pmix_pdata_t& d : data) PMIX_PDATA_DESTRUCT(&d);
  }
  delete call;
}

void PmixServer::complete_fence(void* handle, const std::string& all_blobs) {
  auto* call = static_cast<FenceCall*>(handle);
  // The library reads the data after this returns, on its own thread: it lives until release.
  auto* data = new std::string(all_blobs);
  auto release = [](void* cbdata) { delete static_cast<std::string*>(cbdata); };
  call->cbfunc(PMIX_SUCCESS, data->data(), data->size(), call->cbdata, release, data);
  delete call;
}

namespace {
std::atomic<bool> g_finalize_left_hanging{false};
}  // namespace

void PmixServer::stop() {
  if (!started_) return;
  auto finished = std::make_shared<std::atomic<bool>>(false);
  std::thread([finished] {
    PMIx_server_finalize();  // also drops the job's namespace
    finished->store(true);
  }).detach();
  for (int i = 0; i < 200 && !finished->load(); ++i) usleep(10000);
  if (!finished->load()) g_finalize_left_hanging = true;
  started_ = false;
  g_state.notify_fd = -1;
}

void exit_after_server(int code) {
  std::fflush(nullptr);
  if (g_finalize_left_hanging) _exit(code);
  std::exit(code);
}

}  // namespace weft::launcher
