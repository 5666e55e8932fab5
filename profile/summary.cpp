// Folding the ranks' profiles into the job's: sums, the spread over ranks, the merged call sites.
#include "profile/summary.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace weft::profile {
namespace {

void spread_over_ranks(FunctionSummary* f) {
  const auto lowest = std::min_element(f->ns_by_rank.begin(), f->ns_by_rank.end());
  const auto highest = std::max_element(f->ns_by_rank.begin(), f->ns_by_rank.end());
  f->rank_min_ns = *lowest;
  f->rank_max_ns = *highest;
  f->slowest_rank = int(highest - f->ns_by_rank.begin());
  f->rank_mean_ns = double(f->ns) / double(f->ns_by_rank.size());
}

// Sites are the same on every rank running the same program: merged by function, module and
// offset.
std::vector<SiteSummary> merge_sites(const std::vector<RankProfile>& ranks) {
  std::map<std::tuple<std::string, std::string, uint64_t>, SiteSummary> merged;
  for (const RankProfile& r : ranks)
    for (const CallSite& s : r.sites) {
      SiteSummary& m = merged[{s.function, s.module, s.offset}];
      if (m.ranks == 0) {
        m.function = s.function;
        m.module = s.module;
        m.offset = s.offset;
        m.symbol = s.symbol;
      }
      m.calls += s.calls;
      m.ns += s.ns;
      ++m.ranks;
    }
  std::vector<SiteSummary> sites;
  for (auto& entry : merged) sites.push_back(std::move(entry.second));
  std::stable_sort(sites.begin(), sites.end(),
                   [](const SiteSummary& a, const SiteSummary& b) { return a.ns > b.ns; });
  if (sites.size() > size_t(kTopSites)) sites.resize(size_t(kTopSites));
  return sites;
}

}  // namespace

JobSummary summarize(const std::vector<RankProfile>& ranks) {
  JobSummary job;
  const size_t n = ranks.size();
  job.nranks = int(n);
  job.matrix_bytes.assign(n * n, 0);
  job.matrix_messages.assign(n * n, 0);
  std::map<std::string, FunctionSummary> functions;
  for (size_t rank = 0; rank < n; ++rank) {
    const RankProfile& r = ranks[rank];
    job.hosts.push_back(r.host);
    job.run_ns.push_back(r.run_ns);
    job.mpi_ns.push_back(r.mpi_ns);
    for (const FunctionTotal& t : r.functions) {
      FunctionSummary& f = functions[t.name];
      if (f.ns_by_rank.empty()) {
        f.name = t.name;
        f.ns_by_rank.assign(n, 0);
        f.calls_by_rank.assign(n, 0);
      }
      f.calls += t.calls;
      f.bytes += t.bytes;
      f.ns += t.ns;
      f.max_ns = std::max(f.max_ns, t.max_ns);
      f.ns_by_rank[rank] += t.ns;
      f.calls_by_rank[rank] += t.calls;
    }
    for (const PeerTraffic& t : r.sent) {
      if (t.peer < 0 || size_t(t.peer) >= n) continue;
      job.matrix_bytes[rank * n + size_t(t.peer)] += t.bytes;
      job.matrix_messages[rank * n + size_t(t.peer)] += t.messages;
    }
    job.sent_outside_world.bytes += r.sent_outside_world.bytes;
    job.sent_outside_world.messages += r.sent_outside_world.messages;
    job.unplaced_site_calls += r.unplaced_site_calls;
  }
  for (auto& entry : functions) {
    spread_over_ranks(&entry.second);
    job.functions.push_back(std::move(entry.second));
  }
  std::stable_sort(job.functions.begin(), job.functions.end(),
                   [](const FunctionSummary& a, const FunctionSummary& b) { return a.ns > b.ns; });
  job.sites = merge_sites(ranks);
  return job;
}

}  // namespace weft::profile
