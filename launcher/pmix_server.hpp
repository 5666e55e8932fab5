// weftrun's embedded PMIx server (single node): registers the job and its ranks, gives each rank
// its PMIx environment, and turns PMIx_Abort upcalls into events for the launcher's loop.
// Threading: PMIx calls the upcalls on its own progress thread; they only queue an event and
// write one byte to the notify fd. Everything else runs on weftrun's main thread.
#pragma once
#include <string>
#include <vector>

namespace weft::launcher {

struct AbortEvent {
  int rank = -1;
  int code = 1;
  std::string message;
};

struct JobLayout {
  std::string nspace;
  std::string hostname;
  int nranks = 1;
  // Ranks per app context, in order (MPMD); their sum is nranks. Empty: one context.
  std::vector<int> app_sizes;
};

class PmixServer {
 public:
  ~PmixServer();
  // Starts the server with its files under `tmpdir`; upcalls write a byte to `notify_fd`.
  // Each returns an empty string on success, else what failed.
  std::string start(const std::string& tmpdir, int notify_fd);
  std::string register_job(const JobLayout& job);
  // Adds the PMIx variables rank `rank` needs to `env` ("NAME=value" strings).
  std::string add_client_env(int rank, std::vector<std::string>* env);
  std::vector<AbortEvent> take_aborts();
  void stop();

 private:
  JobLayout job_;
  bool started_ = false;
};

}  // namespace weft::launcher
