// Cutting a collective call's file range into aligned domains (file_domains.hpp).
#include "io/file_domains.hpp"

#include <algorithm>

namespace weft::io {

std::vector<MPI_Offset> domain_bounds(MPI_Offset lo, MPI_Offset hi, int n, MPI_Offset align) {
  std::vector<MPI_Offset> bounds(size_t(n) + 1, lo);
  bounds[size_t(n)] = hi;
  const MPI_Offset span = hi - lo;
  for (int i = 1; i < n; ++i) {
    // Even split first; i × span / n without overflow for any file size.
    MPI_Offset b = lo + span / n * i + span % n * i / n;
    if (align > 1) b = (b + align / 2) / align * align;
    bounds[size_t(i)] = std::clamp(b, bounds[size_t(i) - 1], hi);
  }
  return bounds;
}

}  // namespace weft::io
