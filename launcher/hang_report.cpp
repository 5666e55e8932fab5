// Collecting the ranks' state lines and summarising them.
#include "launcher/hang_report.hpp"

#include <signal.h>

#include <algorithm>
#include <cstdlib>

#include "runtime/wait_state.hpp"

namespace weft::launcher {

int state_signal() { return SIGRTMIN + 7; }

bool StateReport::take(std::string_view line) {
  const std::string_view marker = weft::wait_state::kMarker;
  if (line.substr(0, marker.size()) != marker) return false;
  line.remove_prefix(marker.size());
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
  const size_t space = line.find(' ');
  const std::string number(line.substr(0, space));
  char* end = nullptr;
  const long rank = std::strtol(number.c_str(), &end, 10);
  if (number.empty() || *end != '\0' || space == std::string_view::npos) return true;
  states_[int(rank)] = std::string(line.substr(space + 1));
  return true;
}

std::string rank_ranges(const std::vector<int>& ranks) {
  std::string out;
  for (size_t i = 0; i < ranks.size();) {
    size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
    if (!out.empty()) out += ", ";
    out += std::to_string(ranks[i]);
    if (j > i) out += "-" + std::to_string(ranks[j]);
    i = j + 1;
  }
  return out;
}

std::vector<std::string> StateReport::summary(int nranks,
                                              const std::vector<std::string>& host_of_rank) const {
  // Ranks per state, states in order of their first rank.
  std::vector<std::pair<std::string, std::vector<int>>> groups;
  std::vector<int> silent;
  for (int r = 0; r < nranks; ++r) {
    auto it = states_.find(r);
    if (it == states_.end()) {
      silent.push_back(r);
      continue;
    }
    auto g = std::find_if(groups.begin(), groups.end(),
                          [&](const auto& group) { return group.first == it->second; });
    if (g == groups.end()) groups.push_back({it->second, {r}});
    else g->second.push_back(r);
  }
  auto who = [&](const std::vector<int>& ranks) {
    std::string text = (ranks.size() == 1 ? "rank " : "ranks ") + rank_ranges(ranks);
    if (ranks.size() == 1 && size_t(ranks[0]) < host_of_rank.size() &&
        !host_of_rank[size_t(ranks[0])].empty())
      text += " on " + host_of_rank[size_t(ranks[0])];
    return text;
  };
  std::vector<std::string> lines;
  lines.push_back("state of the job's " + std::to_string(nranks) + " ranks:");
  for (const auto& [state, ranks] : groups) lines.push_back("  " + who(ranks) + ": " + state);
  if (!silent.empty())
    lines.push_back("  " + who(silent) + ": no answer (ended, or not running MPI under weftrun)");
  // The culprit: where most ranks agree and the others are elsewhere, the others.
  if (groups.size() >= 2) {
    const auto most = std::max_element(groups.begin(), groups.end(), [](const auto& a, const auto& b) {
      return a.second.size() < b.second.size();
    });
    if (most->second.size() * 2 > size_t(nranks) - silent.size() || groups.size() == 2) {
      std::vector<int> others;
      for (const auto& g : groups)
        if (&g != &*most) others.insert(others.end(), g.second.begin(), g.second.end());
      std::sort(others.begin(), others.end());
      lines.push_back("likely culprit: " + who(others) + ", not where " + who(most->second) +
                      " wait (" + most->first + ")");
    }
  }
  return lines;
}

}  // namespace weft::launcher
