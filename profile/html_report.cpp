// The HTML report: one page with its style inline, the two SVG pictures and the tables of the text
// report; it loads nothing and runs no script.
#include <algorithm>
#include <numeric>

#include "profile/html_charts.hpp"
#include "profile/report.hpp"

namespace weft::profile {
namespace {

constexpr const char* kStyle =
    "body{font-family:sans-serif;margin:24px;color:#222;max-width:1100px}"
    "h1{font-size:22px}h2{font-size:17px;margin-top:28px}"
    "table{border-collapse:collapse;font-size:13px}"
    "th,td{padding:2px 8px;text-align:right;border-bottom:1px solid #ddd}"
    "th{background:#f2f2f2}.name{text-align:left;font-family:monospace}"
    ".note{color:#555;font-size:13px}svg text{font-size:11px;fill:#333}";

std::string functions_table(const JobSummary& job) {
  std::string out =
      "<table id=\"functions\"><tr><th class=\"name\">MPI function</th><th>calls</th><th>bytes</th>"
      "<th>total ms</th><th>mean &micro;s</th><th>max &micro;s</th><th>min ms/rank</th>"
      "<th>mean ms/rank</th><th>max ms/rank</th><th>slowest rank</th></tr>";
  for (const FunctionSummary& f : job.functions)
    out += format("<tr><td class=\"name\">%s</td><td>%llu</td><td>%llu</td><td>%.3f</td><td>%.3f</td>"
                  "<td>%.3f</td><td>%.3f</td><td>%.3f</td><td>%.3f</td><td>%d</td></tr>",
                  f.name.c_str(), (unsigned long long)f.calls, (unsigned long long)f.bytes,
                  double(f.ns) / 1e6, f.mean_call_ns() / 1e3, double(f.max_ns) / 1e3,
                  double(f.rank_min_ns) / 1e6, f.rank_mean_ns / 1e6, double(f.rank_max_ns) / 1e6,
                  f.slowest_rank);
  return out + "</table>";
}

std::string sites_table(const JobSummary& job) {
  std::string out =
      "<table id=\"sites\"><tr><th>total ms</th><th>calls</th><th>ranks</th>"
      "<th class=\"name\">MPI function</th><th class=\"name\">called from</th></tr>";
  for (const SiteSummary& s : job.sites)
    out += format("<tr><td>%.3f</td><td>%llu</td><td>%d</td><td class=\"name\">%s</td>"
                  "<td class=\"name\">%s</td></tr>",
                  double(s.ns) / 1e6, (unsigned long long)s.calls, s.ranks,
                  escape_html(s.function).c_str(), escape_html(site_place(s)).c_str());
  return out + "</table>";
}

std::string ranks_table(const JobSummary& job) {
  std::string out =
      "<table id=\"ranks\"><tr><th>rank</th><th class=\"name\">host</th><th>run s</th>"
      "<th>in MPI s</th><th>MPI %</th></tr>";
  for (int r = 0; r < job.nranks; ++r)
    out += format("<tr><td>%d</td><td class=\"name\">%s</td><td>%.3f</td><td>%.3f</td><td>%.1f</td></tr>",
                  r, escape_html(job.hosts[size_t(r)]).c_str(), double(job.run_ns[size_t(r)]) / 1e9,
                  double(job.mpi_ns[size_t(r)]) / 1e9, 100 * job.mpi_share(r));
  return out + "</table>";
}

}  // namespace

std::string html_report(const JobSummary& job, const std::string& title) {
  const uint64_t longest = *std::max_element(job.run_ns.begin(), job.run_ns.end());
  const uint64_t run = std::accumulate(job.run_ns.begin(), job.run_ns.end(), uint64_t(0));
  const uint64_t mpi = std::accumulate(job.mpi_ns.begin(), job.mpi_ns.end(), uint64_t(0));
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" +
                    escape_html(title) + "</title><style>" + kStyle + "</style></head><body>\n";
  out += "<h1>" + escape_html(title) + "</h1>\n";
  out += format("<p id=\"overview\">%d ranks; %.3f s from MPI_Init to MPI_Finalize; time in MPI "
                "%.1f%% of the run over all ranks.</p>\n",
                job.nranks, double(longest) / 1e9, run ? 100.0 * double(mpi) / double(run) : 0.0);
  out += "<h2>Time in MPI by rank</h2>\n<p class=\"note\">Grey: the rank's run from MPI_Init to "
         "MPI_Finalize; coloured: its time inside MPI calls, by function.</p>\n";
  out += mpi_time_bars_svg(job) + "\n";
  out += "<h2>Communication matrix</h2>\n<p class=\"note\">Bytes sent by point-to-point calls from "
         "each rank of MPI_COMM_WORLD (rows) to each (columns), whatever communicator they used. "
         "The traffic of collectives, one-sided and I/O calls happens inside the library, below "
         "the MPI calls the profiler sees, and is not in it.";
  if (job.sent_outside_world.messages > 0)
    out += format(" Sent to processes outside MPI_COMM_WORLD: %llu bytes in %llu messages.",
                  (unsigned long long)job.sent_outside_world.bytes,
                  (unsigned long long)job.sent_outside_world.messages);
  out += "</p>\n" + matrix_svg(job) + "\n";
  out += "<h2>MPI functions</h2>\n" + functions_table(job) + "\n";
  out += "<h2>Busiest call sites</h2>\n" + sites_table(job) + "\n";
  out += "<h2>Ranks</h2>\n" + ranks_table(job) + "\n";
  return out + "</body></html>\n";
}

}  // namespace weft::profile
