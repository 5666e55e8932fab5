// Node maps from per-rank node ids.
#include "coll/node_map.hpp"

#include <algorithm>
#include <map>

namespace weft::coll {

NodeMap NodeMap::from_ids(std::span<const int> ids) {
  NodeMap m;
  std::map<int, int> number;  // id -> node, in the order ids first appear
  m.node_of.reserve(ids.size());
  for (int id : ids) m.node_of.push_back(number.try_emplace(id, int(number.size())).first->second);
  const int nodes = int(number.size());
  m.first.assign(size_t(nodes) + 1, 0);
  for (int node : m.node_of) ++m.first[size_t(node) + 1];
  for (int k = 0; k < nodes; ++k) m.first[size_t(k) + 1] += m.first[size_t(k)];
  m.members.resize(ids.size());
  std::vector<int> next(m.first.begin(), m.first.end() - 1);
  for (int r = 0; r < int(ids.size()); ++r)
    m.members[size_t(next[size_t(m.node_of[size_t(r)])]++)] = r;
  for (int k = 0; k < nodes; ++k) {
    const std::span<const int> on = m.ranks_on(k);
    m.contiguous = m.contiguous && on.back() - on.front() + 1 == int(on.size());
  }
  return m;
}

int NodeMap::largest_node() const {
  int most = 0;
  for (int k = 0; k < nodes(); ++k) most = std::max(most, first[size_t(k) + 1] - first[size_t(k)]);
  return most;
}

}  // namespace weft::coll
