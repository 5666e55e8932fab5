// Starting and ending one node's part of a job.
#include "launcher/node_session.hpp"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <filesystem>

#include "launcher/session_dir.hpp"
#include "pt2pt/shm/segment_name.hpp"

namespace weft::launcher {

std::string NodeSession::start(const JobSpec& spec, int node, int notify_fd, bool dynamic) {
  // Launchers killed with SIGKILL could not remove their session directories: do it for them.
  remove_stale_session_dirs(temp_base());
  if (std::string e = create_session_dir(temp_base(), &tmpdir_); !e.empty()) return e;
  if (std::string e = server_.start(tmpdir_, notify_fd, spec.nodes[size_t(node)], node, dynamic);
      !e.empty())
    return e;
  if (std::string e = server_.register_job(spec, node, spec.universe_size); !e.empty()) return e;
  shm_segment_ = shm::segment_name(spec.nspace, spec.nodes[size_t(node)]);
  return ranks_.start(spec, node, &server_, spec.node_of_rank[0] == node);
}

void NodeSession::finish() {
  ranks_.signal_all(SIGKILL);  // also whatever the ranks left in their process group
  if (ranks_.running() > 0) {
    while (ranks_.running() > 0) {
      ranks_.reap([](int, pid_t, int) {});
      usleep(1000);
    }
  }
  // The ranks unlink it once all have mapped it; not if the job died before that.
  if (!shm_segment_.empty()) {
    shm_unlink(shm_segment_.c_str());
    shm_segment_.clear();
  }
  // Before the server stops: PMIx_server_finalize can take 5 s when a rank was killed while it
  // connected (seen when a job ends during start-up), and a weftd that its parent or weftrun
  // kills meanwhile would leave the directory behind.
  if (!tmpdir_.empty()) {
    std::error_code ignored;
    std::filesystem::remove_all(tmpdir_, ignored);
    tmpdir_.clear();
  }
  server_.stop();
}

}  // namespace weft::launcher
