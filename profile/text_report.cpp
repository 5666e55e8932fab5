// The text report rank 0 writes to stderr at MPI_Finalize.
#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <numeric>

#include "profile/report.hpp"

namespace weft::profile {

std::string format(const char* pattern, ...) {
  va_list args, again;
  va_start(args, pattern);
  va_copy(again, args);
  const int n = std::vsnprintf(nullptr, 0, pattern, args);
  va_end(args);
  std::string out(size_t(n > 0 ? n : 0), '\0');
  std::vsnprintf(out.data(), out.size() + 1, pattern, again);
  va_end(again);
  return out;
}

std::string site_place(const SiteSummary& site) {
  const size_t slash = site.module.rfind('/');
  const std::string module = slash == std::string::npos ? site.module : site.module.substr(slash + 1);
  std::string where = !site.location.empty() ? site.location + " " : !site.symbol.empty() ? site.symbol + " " : "";
  return where + format("in %s+0x%llx", module.c_str(), (unsigned long long)site.offset);
}

namespace {

double ms(uint64_t ns) { return double(ns) / 1e6; }

std::string mpi_share_line(const JobSummary& job) {
  int low = 0, high = 0;
  for (int r = 1; r < job.nranks; ++r) {
    if (job.mpi_share(r) < job.mpi_share(low)) low = r;
    if (job.mpi_share(r) > job.mpi_share(high)) high = r;
  }
  const uint64_t run = std::accumulate(job.run_ns.begin(), job.run_ns.end(), uint64_t(0));
  const uint64_t mpi = std::accumulate(job.mpi_ns.begin(), job.mpi_ns.end(), uint64_t(0));
  return format("time in MPI %.1f%% of the run (ranks: min %.1f%% on rank %d, max %.1f%% on rank %d)",
                run ? 100.0 * double(mpi) / double(run) : 0.0, 100 * job.mpi_share(low), low,
                100 * job.mpi_share(high), high);
}

// Per function: calls, bytes and time over all ranks, then the spread of the time (ms) over the
// ranks and the rank with the most.
void functions_table(const JobSummary& job, std::string* out) {
  *out += "per function, all ranks together; rank min/mean/max: the ms one rank spent in it, "
          "slowest: the rank that spent the most\n";
  *out += format("%-26s %10s %14s %11s %10s %10s | %9s %10s %10s %8s\n", "MPI function", "calls",
                 "bytes", "total ms", "mean us", "max us", "rank min", "rank mean", "rank max",
                 "slowest");
  for (const FunctionSummary& f : job.functions)
    *out += format("%-26s %10llu %14llu %11.3f %10.3f %10.3f | %9.3f %10.3f %10.3f %8d\n",
                   f.name.c_str(), (unsigned long long)f.calls, (unsigned long long)f.bytes,
                   ms(f.ns), f.mean_call_ns() / 1e3, double(f.max_ns) / 1e3, ms(f.rank_min_ns),
                   f.rank_mean_ns / 1e6, ms(f.rank_max_ns), f.slowest_rank);
}

void sites_table(const JobSummary& job, std::string* out) {
  *out += "\nbusiest call sites (all ranks):\n";
  *out += format("%11s %10s %6s  %-22s %s\n", "total ms", "calls", "ranks", "MPI function", "called from");
  for (const SiteSummary& s : job.sites)
    *out += format("%11.3f %10llu %6d  %-22s %s\n", ms(s.ns), (unsigned long long)s.calls, s.ranks,
                   s.function.c_str(), site_place(s).c_str());
  if (job.unplaced_site_calls > 0)
    *out += format("(%llu calls at sites a thread had no room to tell apart are not shown)\n",
                   (unsigned long long)job.unplaced_site_calls);
}

void ranks_table(const JobSummary& job, std::string* out) {
  *out += "\ntime in MPI by rank:\n";
  *out += format("%6s  %-20s %10s %10s %7s\n", "rank", "host", "run s", "in MPI s", "MPI %");
  for (int r = 0; r < job.nranks; ++r)
    *out += format("%6d  %-20s %10.3f %10.3f %7.1f\n", r, job.hosts[size_t(r)].c_str(),
                   double(job.run_ns[size_t(r)]) / 1e9, double(job.mpi_ns[size_t(r)]) / 1e9,
                   100 * job.mpi_share(r));
}

void matrix_table(const JobSummary& job, std::string* out) {
  const size_t n = size_t(job.nranks);
  *out += "\npoint-to-point sends between MPI_COMM_WORLD ranks, bytes/messages (the traffic of "
          "collectives, one-sided and I/O calls inside the library is not seen by the profiler):\n";
  if (job.nranks <= kTextMatrixRanks) {
    *out += format("%9s", "from\\to");
    for (size_t to = 0; to < n; ++to) *out += format(" %14zu", to);
    *out += "\n";
    for (size_t from = 0; from < n; ++from) {
      *out += format("%9zu", from);
      for (size_t to = 0; to < n; ++to) {
        const size_t i = from * n + to;
        *out += job.matrix_messages[i] == 0
                    ? format(" %14s", "-")
                    : format(" %14s", format("%llu/%llu", (unsigned long long)job.matrix_bytes[i],
                                             (unsigned long long)job.matrix_messages[i]).c_str());
      }
      *out += "\n";
    }
  } else {
    std::vector<size_t> pairs(n * n);
    std::iota(pairs.begin(), pairs.end(), size_t(0));
    std::stable_sort(pairs.begin(), pairs.end(), [&](size_t a, size_t b) {
      return job.matrix_bytes[a] > job.matrix_bytes[b];
    });
    *out += format("(%zu ranks: the %d heaviest pairs; the HTML report has the whole matrix)\n", n,
                   kTextMatrixRanks);
    for (int i = 0; i < kTextMatrixRanks && job.matrix_messages[pairs[size_t(i)]] > 0; ++i) {
      const size_t p = pairs[size_t(i)];
      *out += format("%9zu -> %-9zu %llu/%llu\n", p / n, p % n,
                     (unsigned long long)job.matrix_bytes[p], (unsigned long long)job.matrix_messages[p]);
    }
  }
  if (job.sent_outside_world.messages > 0)
    *out += format("to processes outside MPI_COMM_WORLD: %llu/%llu\n",
                   (unsigned long long)job.sent_outside_world.bytes,
                   (unsigned long long)job.sent_outside_world.messages);
}

}  // namespace

std::string text_report(const JobSummary& job, const ReportFiles& files) {
  const uint64_t longest = *std::max_element(job.run_ns.begin(), job.run_ns.end());
  std::string out = format("weft profile: %d ranks, %.3f s from MPI_Init to MPI_Finalize; %s\n",
                           job.nranks, double(longest) / 1e9, mpi_share_line(job).c_str());
  if (!files.html.empty()) out += "HTML report: " + files.html + "\n";
  if (!files.trace.empty()) out += "trace: " + files.trace + "\n";
  out += "\n";
  functions_table(job, &out);
  sites_table(job, &out);
  ranks_table(job, &out);
  matrix_table(job, &out);
  return out;
}

}  // namespace weft::profile
