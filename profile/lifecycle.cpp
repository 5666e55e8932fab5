// The wrappers that start and end the profile (MPI_Init, MPI_Init_thread, MPI_Finalize) and
// MPI_Pcontrol, which pauses (level 0) and resumes it; at MPI_Finalize the reports are made.
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "profile/collect.hpp"
#include "profile/kinds.hpp"
#include "profile/recorder.hpp"
#include "profile/report.hpp"
#include "profile/summary.hpp"
#include "profile/symbols.hpp"
#include "profile/trace.hpp"
#include "runtime/config.hpp"

namespace weft::profile {
namespace {

struct Run {
  Kinds kinds;
  bool started = false;
  ClockPoint start;
};
Run g_run;

[[noreturn]] void fail(const std::string& message) {
  std::fprintf(stderr, "weft profile: %s\n", message.c_str());
  PMPI_Abort(MPI_COMM_WORLD, 1);
  std::abort();
}

// Loaded without WEFT_PROFILE (LD_PRELOAD by hand): a summary.
Kinds kinds_wanted() {
  const char* text = std::getenv("WEFT_PROFILE");
  Kinds kinds;
  std::string error;
  if (text == nullptr) {
    kinds.summary = true;
  } else if (!parse_kinds(text, "WEFT_PROFILE", &kinds, &error)) {
    fail(error);
  }
  return kinds;
}

void start() {
  g_run.kinds = kinds_wanted();
  if (!g_run.kinds.any()) return;
  PMPI_Comm_rank(MPI_COMM_WORLD, &g_profile.world_rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &g_profile.world_size);
  if (g_run.kinds.trace) {
    const long budget = setting_long("WEFT_PROFILE_TRACE_EVENTS", -1);
    if (budget < 1)
      fail("invalid WEFT_PROFILE_TRACE_EVENTS '" + setting_value("WEFT_PROFILE_TRACE_EVENTS") +
           "' (want a number of events >= 1)");
    try {
      g_profile.trace_events.resize(size_t(budget));
    } catch (const std::exception&) {
      fail("cannot hold WEFT_PROFILE_TRACE_EVENTS=" + std::to_string(budget) + " trace events (" +
           std::to_string(budget / (1 << 20) * sizeof(TraceEvent)) + " MiB)");
    }
    g_profile.trace = true;
  }
  PMPI_Barrier(MPI_COMM_WORLD);  // the ranks' traces start together
  g_run.start = ClockPoint::read();
  g_run.started = true;
  set_recording(true);
}

// The job's name in file names: the Slurm job (and step), else weftrun's job number (its PMIx
// namespace is "weft.<pid>"), else this process's id. Rank 0's view.
std::string job_name() {
  if (const char* job = std::getenv("SLURM_JOB_ID")) {
    const char* step = std::getenv("SLURM_STEP_ID");
    return std::string(job) + (step ? std::string(".") + step : "");
  }
  if (const char* nspace = std::getenv("PMIX_NAMESPACE")) {
    std::string name = nspace;
    if (name.rfind("weft.", 0) == 0) name = name.substr(5);
    for (char& c : name)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-') c = '_';
    return name;
  }
  return std::to_string(getpid());
}

// A file setting's path: its value, or the default name for "auto", or "" for "off".
std::string output_path(const char* setting, const char* prefix, const char* suffix) {
  const std::string value = setting_value(setting);
  if (value == "off") return {};
  return value == "auto" ? prefix + job_name() + suffix : value;
}

void report(const std::vector<RankProfile>& ranks, const std::string& trace_path) {
  JobSummary job = summarize(ranks);
  resolve_locations(&job.sites);
  ReportFiles files{output_path("WEFT_PROFILE_HTML", "weft-profile.", ".html"), trace_path};
  if (!files.html.empty()) {
    std::FILE* out = std::fopen(files.html.c_str(), "w");
    const std::string page = html_report(job, "Weft profile: job " + job_name());
    if (out == nullptr || std::fwrite(page.data(), 1, page.size(), out) != page.size() ||
        std::fclose(out) != 0) {
      std::fprintf(stderr, "weft profile: cannot write %s\n", files.html.c_str());
      files.html.clear();
    }
  }
  std::fputs(text_report(job, files).c_str(), stderr);
  std::fflush(stderr);
}

int finish() {
  set_recording(false);
  g_run.started = false;
  const ClockPoint end = ClockPoint::read();
  MPI_Comm comm = MPI_COMM_NULL;
  PMPI_Comm_dup(MPI_COMM_WORLD, &comm);
  std::vector<RankProfile> ranks;
  if (g_run.kinds.summary) ranks = gather_profiles(comm, collect_rank(g_run.start, end));
  std::string trace_path;
  if (g_run.kinds.trace) {
    if (g_profile.world_rank == 0) trace_path = output_path("WEFT_PROFILE_TRACE", "weft-trace.", ".json");
    std::string error;
    if (!write_trace(comm, trace_path, g_run.start.tick, ns_per_tick(g_run.start, end), &error)) {
      std::fprintf(stderr, "weft profile: %s\n", error.c_str());
      trace_path.clear();
    }
  }
  PMPI_Comm_free(&comm);
  const int result = PMPI_Finalize();
  if (g_profile.world_rank == 0 && g_run.kinds.summary) {
    report(ranks, trace_path);
  } else if (g_profile.world_rank == 0 && !trace_path.empty()) {
    std::fprintf(stderr, "weft profile: trace: %s\n", trace_path.c_str());
  }
  return result;
}

}  // namespace
}  // namespace weft::profile

using namespace weft::profile;

#pragma GCC visibility push(default)
extern "C" {

int MPI_Init(int* argc, char*** argv) {
  const int result = PMPI_Init(argc, argv);
  if (result == MPI_SUCCESS) start();
  return result;
}

int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  const int result = PMPI_Init_thread(argc, argv, required, provided);
  if (result == MPI_SUCCESS) start();
  return result;
}

int MPI_Finalize(void) { return g_run.started ? finish() : PMPI_Finalize(); }

// The meanings MPI 4.1 asks for (MPI_PCONTROL, in the profiling interface's chapter): level 0
// disables profiling and level 1 enables it; 2 (flush buffers) and other levels change nothing.
int MPI_Pcontrol(const int level, ...) {
  if (g_run.started && (level == 0 || level == 1)) set_recording(level == 1);
  return PMPI_Pcontrol(level);
}

}  // extern "C"
#pragma GCC visibility pop
