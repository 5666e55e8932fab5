// Folding the thread logs into the rank's profile (call sites named by dladdr) and gathering the
// ranks' profiles at rank 0.
#include "profile/collect.hpp"

#include <dlfcn.h>
#include <elf.h>
#include <limits.h>
#include <link.h>
#include <stdlib.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <utility>

#include "profile/recorder.hpp"
#include "profile/report.hpp"

namespace weft::profile {
namespace {

uint64_t to_ns(Tick ticks, double ns_per_tick) { return uint64_t(double(ticks) * ns_per_tick); }

// Names a return address the same way on every rank: module path and offset in the module (the
// address itself in an executable that is not position-independent, as its debug information
// has it), plus the exported symbol around it if there is one.
CallSite name_site(const void* address) {
  CallSite site;
  Dl_info info{};
  if (dladdr(address, &info) == 0 || info.dli_fname == nullptr) {
    site.module = "?";
    site.offset = uint64_t(uintptr_t(address));
    return site;
  }
  char resolved[PATH_MAX];
  site.module = realpath(info.dli_fname, resolved) ? resolved : info.dli_fname;
  const auto* header = static_cast<const ElfW(Ehdr)*>(info.dli_fbase);
  const bool fixed = header != nullptr && header->e_type == ET_EXEC;
  site.offset = uint64_t(uintptr_t(address)) - (fixed ? 0 : uint64_t(uintptr_t(info.dli_fbase)));
  if (info.dli_sname != nullptr)
    site.symbol = format("%s+0x%llx", info.dli_sname,
                         (unsigned long long)(uintptr_t(address) - uintptr_t(info.dli_saddr)));
  return site;
}

}  // namespace

std::string host_name() {
  char host[MPI_MAX_PROCESSOR_NAME] = {};
  int length = 0;
  PMPI_Get_processor_name(host, &length);
  return host;
}

RankProfile collect_rank(const ClockPoint& start, const ClockPoint& end) {
  const double k = ns_per_tick(start, end);
  RankProfile p;
  p.rank = g_profile.world_rank;
  p.host = host_name();
  p.run_ns = end.ns - start.ns;

  struct FunctionTotals {
    uint64_t calls = 0;
    uint64_t bytes = 0;
    Tick ticks = 0;
    Tick max_ticks = 0;
  } functions[kFunctionCount] = {};
  std::map<std::pair<const void*, uint32_t>, SiteStats> sites;
  const size_t world_size = size_t(g_profile.world_size);
  std::vector<Traffic> sent(world_size + 1);  // the last: to processes of other jobs
  Tick mpi_ticks = 0;
  for (const ThreadLog* log : all_thread_logs()) {
    for (int f = 0; f < kFunctionCount; ++f) {
      functions[f].calls += log->functions[f].calls;
      functions[f].bytes += log->functions[f].bytes;
      functions[f].ticks += log->times[f].ticks;
      functions[f].max_ticks = std::max(functions[f].max_ticks, log->times[f].max_ticks);
    }
    for (const SiteStats& s : log->sites) {
      if (s.address == nullptr) continue;
      SiteStats& merged = sites[{s.address, s.function}];
      merged.address = s.address;
      merged.function = s.function;
      merged.calls += s.calls;
      merged.ticks += s.ticks;
    }
    // The calls at each function's last site are not in its record yet (recorder.hpp).
    for (uint32_t f = 0; f < uint32_t(kFunctionCount); ++f) {
      const FunctionRecord& record = log->functions[f];
      if (record.site_address != nullptr)
        sites[{record.site_address, f}].calls += record.calls - record.calls_before_site;
    }
    p.unplaced_site_calls += log->unplaced_sites.calls;
    for (size_t slot = 0; slot < log->sent.size(); ++slot) {
      sent[slot].bytes += log->sent[slot].bytes;
      sent[slot].messages += log->sent[slot].messages;
    }
    mpi_ticks += log->mpi_ticks;
  }
  p.sent_outside_world.bytes = sent[world_size].bytes;
  p.sent_outside_world.messages = sent[world_size].messages;
  p.mpi_ns = std::min(to_ns(mpi_ticks, k), p.run_ns);
  for (int f = 0; f < kFunctionCount; ++f)
    if (functions[f].calls > 0)
      p.functions.push_back({kFunctionNames[f], functions[f].calls, to_ns(functions[f].ticks, k),
                             to_ns(functions[f].max_ticks, k), functions[f].bytes});
  std::vector<SiteStats> busiest;
  for (const auto& entry : sites) busiest.push_back(entry.second);
  std::stable_sort(busiest.begin(), busiest.end(),
                   [](const SiteStats& a, const SiteStats& b) { return a.ticks > b.ticks; });
  if (busiest.size() > size_t(kSitesPerRank)) busiest.resize(size_t(kSitesPerRank));
  for (const SiteStats& s : busiest) {
    CallSite site = name_site(s.address);
    site.function = kFunctionNames[s.function];
    site.calls = s.calls;
    site.ns = to_ns(s.ticks, k);
    p.sites.push_back(std::move(site));
  }
  for (size_t peer = 0; peer < world_size; ++peer)
    if (sent[peer].messages > 0) p.sent.push_back({int(peer), sent[peer].bytes, sent[peer].messages});
  return p;
}

std::vector<RankProfile> gather_profiles(MPI_Comm comm, const RankProfile& mine) {
  int rank = 0, size = 1;
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &size);
  const std::string bytes = encode(mine);
  int length = int(bytes.size());
  std::vector<int> lengths(rank == 0 ? size_t(size) : 0), offsets(lengths.size());
  PMPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, comm);
  std::string all;
  if (rank == 0) {
    for (int r = 1; r < size; ++r) offsets[size_t(r)] = offsets[size_t(r) - 1] + lengths[size_t(r) - 1];
    all.resize(size_t(offsets.back()) + size_t(lengths.back()));
  }
  PMPI_Gatherv(bytes.data(), length, MPI_BYTE, all.data(), lengths.data(), offsets.data(), MPI_BYTE,
               0, comm);
  std::vector<RankProfile> profiles;
  if (rank != 0) return profiles;
  profiles.resize(size_t(size));
  for (int r = 0; r < size; ++r) {
    if (!decode(all.substr(size_t(offsets[size_t(r)]), size_t(lengths[size_t(r)])), &profiles[size_t(r)]))
      std::fprintf(stderr, "weft profile: the profile of rank %d did not arrive whole; left out\n", r);
    profiles[size_t(r)].rank = r;
  }
  return profiles;
}

}  // namespace weft::profile
