// Host lists, hostfiles and rank placement.
#include "launcher/hosts.hpp"

#include <cstdlib>
#include <map>
#include <sstream>

namespace weft::launcher {
bool parse_count(const std::string& text, int* out) {
  if (text.empty()) return false;
  char* end = nullptr;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (*end != '\0' || v < 1 || v > (1 << 20)) return false;
  *out = int(v);
  return true;
}

namespace {

// "name" or "name:N".
bool parse_host_entry(const std::string& entry, HostSlots* out) {
  const size_t colon = entry.rfind(':');
  out->name = entry.substr(0, colon);
  out->slots = 1;
  if (out->name.empty()) return false;
  return colon == std::string::npos || parse_count(entry.substr(colon + 1), &out->slots);
}

// Hosts named more than once become one host with their slots added, in first-seen order.
std::vector<HostSlots> merge(const std::vector<HostSlots>& hosts) {
  std::vector<HostSlots> out;
  std::map<std::string, size_t> index;
  for (const HostSlots& h : hosts) {
    auto [it, fresh] = index.emplace(h.name, out.size());
    if (fresh) out.push_back(h);
    else out[it->second].slots += h.slots;
  }
  return out;
}

}  // namespace

bool parse_host_list(const std::string& text, std::vector<HostSlots>* out, std::string* error) {
  std::vector<HostSlots> hosts;
  size_t at = 0;
  while (at <= text.size()) {
    const size_t comma = std::min(text.find(',', at), text.size());
    const std::string entry = text.substr(at, comma - at);
    HostSlots h;
    if (!parse_host_entry(entry, &h)) {
      *error = "invalid host '" + entry + "' in '" + text + "' (want name or name:slots)";
      return false;
    }
    hosts.push_back(h);
    at = comma + 1;
  }
  out->insert(out->end(), hosts.begin(), hosts.end());
  return true;
}

bool parse_hostfile(const std::string& text, const std::string& origin,
                    std::vector<HostSlots>* out, std::string* error) {
  std::istringstream lines(text);
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    line = line.substr(0, line.find('#'));
    std::istringstream words(line);
    std::string first, word;
    if (!(words >> first)) continue;
    HostSlots h;
    bool ok = parse_host_entry(first, &h);
    while (ok && words >> word) {
      if (word.rfind("slots=", 0) == 0) ok = parse_count(word.substr(6), &h.slots);
      else if (word.rfind("max_slots=", 0) == 0) ok = true;  // an upper bound: nothing to do
      else ok = false;
    }
    if (!ok) {
      *error = origin + ":" + std::to_string(number) + ": cannot read '" + line +
               "' (want: host, host:N or host slots=N)";
      return false;
    }
    out->push_back(h);
  }
  return true;
}

namespace {

// Splits at commas that are not inside brackets.
std::vector<std::string> split_top_level(const std::string& text) {
  std::vector<std::string> parts(1);
  int depth = 0;
  for (char c : text) {
    if (c == '[') ++depth;
    if (c == ']') --depth;
    if (c == ',' && depth == 0) parts.emplace_back();
    else parts.back().push_back(c);
  }
  return parts;
}

// "n[1-3,07]x" → n1x n2x n3x n07x (ranges keep the width of their first number).
bool expand_one(const std::string& item, std::vector<std::string>* out) {
  const size_t open = item.find('[');
  if (open == std::string::npos) {
    if (item.empty()) return false;
    out->push_back(item);
    return true;
  }
  const size_t close = item.find(']', open);
  if (close == std::string::npos) return false;
  const std::string prefix = item.substr(0, open), suffix = item.substr(close + 1);
  std::vector<std::string> tails;
  if (!suffix.empty() && !expand_one(suffix, &tails)) return false;
  if (tails.empty()) tails.push_back("");
  size_t at = open + 1;
  while (at < close) {
    const size_t comma = std::min(item.find(',', at), close);
    const std::string range = item.substr(at, comma - at);
    const size_t dash = range.find('-');
    const std::string lo = range.substr(0, dash), hi = dash == std::string::npos ? lo : range.substr(dash + 1);
    if (lo.empty() || hi.empty() || lo.find_first_not_of("0123456789") != std::string::npos ||
        hi.find_first_not_of("0123456789") != std::string::npos)
      return false;
    const long a = std::strtol(lo.c_str(), nullptr, 10), b = std::strtol(hi.c_str(), nullptr, 10);
    if (b < a || b - a > 100000) return false;
    for (long v = a; v <= b; ++v) {
      std::string number = std::to_string(v);
      if (number.size() < lo.size()) number.insert(0, lo.size() - number.size(), '0');
      for (const std::string& tail : tails) out->push_back(prefix + number + tail);
    }
    at = comma + 1;
  }
  return true;
}

}  // namespace

bool slurm_allocation(const std::string& nodelist, const std::string& tasks_per_node,
                      std::vector<HostSlots>* out, std::string* error) {
  std::vector<std::string> names;
  for (const std::string& item : split_top_level(nodelist)) {
    if (!expand_one(item, &names)) {
      *error = "cannot read the Slurm node list '" + nodelist + "'";
      return false;
    }
  }
  // "2(x3),1": counts, each repeated (xN) times.
  std::vector<int> slots;
  for (const std::string& item : split_top_level(tasks_per_node)) {
    int count = 0, times = 1;
    const size_t paren = item.find("(x");
    if (!parse_count(item.substr(0, paren), &count) ||
        (paren != std::string::npos &&
         !parse_count(item.substr(paren + 2, item.size() - paren - 3), &times))) {
      *error = "cannot read the Slurm tasks per node '" + tasks_per_node + "'";
      return false;
    }
    slots.insert(slots.end(), size_t(times), count);
  }
  if (slots.size() != names.size()) {
    *error = "the Slurm node list '" + nodelist + "' has " + std::to_string(names.size()) +
             " nodes but '" + tasks_per_node + "' gives slots for " + std::to_string(slots.size());
    return false;
  }
  for (size_t i = 0; i < names.size(); ++i) out->push_back({names[i], slots[i]});
  return true;
}

std::vector<int> Placement::ranks_on(int node) const {
  std::vector<int> ranks;
  for (size_t r = 0; r < node_of_rank.size(); ++r)
    if (node_of_rank[r] == node) ranks.push_back(int(r));
  return ranks;
}

bool place_ranks(const std::vector<HostSlots>& given, int nranks, MapBy map_by, int per_node,
                 Placement* out, std::string* error) {
  const std::vector<HostSlots> hosts = merge(given);
  if (hosts.empty()) {
    *error = "no hosts to place ranks on";
    return false;
  }
  if (per_node > 0 && size_t(per_node) * hosts.size() < size_t(nranks)) {
    *error = std::to_string(nranks) + " ranks do not fit " + std::to_string(per_node) +
             " per node on " + std::to_string(hosts.size()) + " hosts";
    return false;
  }
  std::vector<int> host_of_rank(static_cast<size_t>(nranks));
  if (per_node > 0) {
    for (int r = 0; r < nranks; ++r) host_of_rank[size_t(r)] = r / per_node;
  } else if (map_by == MapBy::kNode) {
    for (int r = 0; r < nranks; ++r) host_of_rank[size_t(r)] = int(size_t(r) % hosts.size());
  } else {
    size_t host = 0;
    int used = 0;
    for (int r = 0; r < nranks; ++r) {
      if (used == hosts[host].slots) {
        host = (host + 1) % hosts.size();
        used = 0;
      }
      host_of_rank[size_t(r)] = int(host);
      ++used;
    }
  }
  // Keep only hosts that got ranks, numbered in host order.
  std::vector<int> node_of_host(hosts.size(), -1);
  Placement p;
  for (int h : host_of_rank) node_of_host[size_t(h)] = 0;
  for (size_t h = 0; h < hosts.size(); ++h) {
    if (node_of_host[h] < 0) continue;
    node_of_host[h] = int(p.nodes.size());
    p.nodes.push_back(hosts[h].name);
  }
  for (int h : host_of_rank) p.node_of_rank.push_back(node_of_host[size_t(h)]);
  *out = std::move(p);
  return true;
}

}  // namespace weft::launcher
