// The name in /dev/shm of a job's node segment (pt2pt/shm/segment.hpp), shared by the ranks that
// create it and the launcher that removes it when the job ends on that node.
#pragma once
#include <string>

namespace weft::shm {

// "/weft-shm.<namespace>.<node>", with any character a file name should not hold replaced.
inline std::string segment_name(const std::string& nspace, const std::string& node) {
  std::string name = "/weft-shm." + nspace + "." + node;
  for (size_t i = 1; i < name.size(); ++i) {
    const char c = name[i];
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '.' || c == '-' || c == '_';
    if (!plain) name[i] = '_';
  }
  if (name.size() > 200) name.resize(200);
  return name;
}

}  // namespace weft::shm
