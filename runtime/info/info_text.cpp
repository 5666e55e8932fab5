// weft_info's numbers in words (info_text.hpp).
#include "runtime/info/info_text.hpp"

#include <cstdio>

namespace weft::info {

std::string bytes_text(double n) {
  static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (n >= 1024 && u < 4) {
    n /= 1024;
    ++u;
  }
  char text[32];
  std::snprintf(text, sizeof text, u == 0 ? "%.0f %s" : "%.3g %s", n, kUnits[u]);
  return text;
}

std::string seconds_text(double s) {
  char text[32];
  if (s < 1e-3) {
    std::snprintf(text, sizeof text, "%.3g us", s * 1e6);
  } else if (s < 1) {
    std::snprintf(text, sizeof text, "%.3g ms", s * 1e3);
  } else {
    std::snprintf(text, sizeof text, "%.3g s", s);
  }
  return text;
}

}  // namespace weft::info
