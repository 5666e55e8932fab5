// Cartesian grids: factorization for MPI_Dims_create, coordinates, shifts and subgrids.
#include "runtime/topology/cart.hpp"

#include <algorithm>
#include <functional>
#include <string>

#include "mpi.h"

namespace weft::topo {
namespace {

// The most balanced split of `n` into non-increasing factors: the smallest spread (largest -
// smallest); among splits of equal spread the largest smallest factor, then the largest next
// one, and so on (5040 = 21·16·15, not 20·18·14: the same spread, a smaller ratio, as MPICH
// chooses). A search over the divisors of n, largest first; a split of any n an MPI job has into
// k factors has at most a few hundred candidates.
class Split {
 public:
  Split(int n, int parts) {
    for (int f = 1; static_cast<long long>(f) * f <= n; ++f) {
      if (n % f != 0) continue;
      divisors_.push_back(f);
      if (f != n / f) divisors_.push_back(n / f);
    }
    std::sort(divisors_.begin(), divisors_.end(), std::greater<int>());
    search(n, parts, n);
  }
  const std::vector<int>& best() const { return best_; }

 private:
  // Chooses the remaining `parts` factors of `n`, each at most `cap`.
  void search(int n, int parts, int cap) {
    if (parts == 1) {
      if (n <= cap) {
        chosen_.push_back(n);
        consider();
        chosen_.pop_back();
      }
      return;
    }
    for (int f : divisors_) {
      if (f > cap || n % f != 0) continue;
      if (!covers(f, parts, n)) break;  // parts factors of at most f stay below n
      chosen_.push_back(f);
      search(n / f, parts - 1, f);
      chosen_.pop_back();
    }
  }
  // Whether f^parts >= n.
  static bool covers(long long f, int parts, long long n) {
    long long power = 1;
    for (int i = 0; i < parts && power < n; ++i) power *= f;
    return power >= n;
  }
  void consider() {
    if (!best_.empty()) {
      const int spread = chosen_.front() - chosen_.back();
      const int best_spread = best_.front() - best_.back();
      if (spread > best_spread) return;
      // Equal spreads: the split that is lexicographically larger from its smallest factor up.
      if (spread == best_spread &&
          !std::lexicographical_compare(best_.rbegin(), best_.rend(), chosen_.rbegin(),
                                        chosen_.rend()))
        return;
    }
    best_ = chosen_;
  }

  std::vector<int> divisors_, chosen_, best_;
};

}  // namespace

Status dims_create(int nnodes, std::span<int> dims) {
  if (nnodes < 1) {
    return Status::error(MPI_ERR_ARG,
                         "invalid nnodes=" + std::to_string(nnodes) + " (must be >= 1)");
  }
  long long fixed = 1;
  int free_entries = 0;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 0) {
      return Status::error(MPI_ERR_DIMS, "invalid dims[" + std::to_string(i) +
                                             "]=" + std::to_string(dims[i]) + " (must be >= 0)");
    }
    if (dims[i] == 0) {
      ++free_entries;
    } else {
      fixed *= dims[i];
      if (fixed > nnodes) break;
    }
  }
  const bool divides = fixed <= nnodes && nnodes % fixed == 0;
  if (!divides || (free_entries == 0 && fixed != nnodes)) {
    std::string given;
    for (int d : dims) given += (given.empty() ? "" : ",") + std::to_string(d);
    return Status::error(
        MPI_ERR_DIMS, "nnodes=" + std::to_string(nnodes) + " cannot be split into dims=[" + given +
                          "] (the non-zero entries must " +
                          (free_entries == 0 ? "multiply to" : "divide") + " nnodes)");
  }
  if (free_entries == 0) return Status::success();
  const Split split(int(nnodes / fixed), free_entries);
  size_t next = 0;
  for (int& d : dims)
    if (d == 0) d = split.best()[next++];
  return Status::success();
}

int CartGrid::size() const {
  int n = 1;
  for (int d : dims) n *= d;
  return n;
}

void CartGrid::coords_of(int rank, std::span<int> coords) const {
  for (int i = ndims() - 1; i >= 0; --i) {
    coords[size_t(i)] = rank % dims[size_t(i)];
    rank /= dims[size_t(i)];
  }
}

bool CartGrid::rank_at(std::span<const int> coords, int* rank) const {
  long long r = 0;
  for (size_t i = 0; i < dims.size(); ++i) {
    long long c = coords[i];
    if (c < 0 || c >= dims[i]) {
      if (!periods[i]) return false;
      c = ((c % dims[i]) + dims[i]) % dims[i];
    }
    r = r * dims[i] + c;
  }
  *rank = int(r);
  return true;
}

void CartGrid::shift(int rank, int direction, int disp, int* source, int* dest) const {
  std::vector<int> coords(dims.size());
  coords_of(rank, coords);
  const int d = dims[size_t(direction)];
  const long long here = coords[size_t(direction)];
  // One step of `by` along `direction`, MPI_PROC_NULL off a non-periodic edge.
  auto moved = [&](long long by) {
    long long c = here + by;
    if (c < 0 || c >= d) {
      if (!periods[size_t(direction)]) return MPI_PROC_NULL;
      c = ((c % d) + d) % d;
    }
    coords[size_t(direction)] = int(c);
    int r = MPI_PROC_NULL;
    rank_at(coords, &r);
    return r;
  };
  *source = moved(-static_cast<long long>(disp));
  *dest = moved(disp);
}

std::vector<int> CartGrid::neighbors(int rank) const {
  std::vector<int> out;
  out.reserve(2 * dims.size());
  for (int d = 0; d < ndims(); ++d) {
    int negative = MPI_PROC_NULL, positive = MPI_PROC_NULL;
    shift(rank, d, 1, &negative, &positive);
    out.push_back(negative);
    out.push_back(positive);
  }
  return out;
}

CartGrid CartGrid::sub(std::span<const int> remain) const {
  CartGrid g;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (!remain[i]) continue;
    g.dims.push_back(dims[i]);
    g.periods.push_back(periods[i]);
  }
  return g;
}

std::vector<int> CartGrid::subgrid_members(int rank, std::span<const int> remain) const {
  std::vector<int> mine(dims.size()), other(dims.size());
  coords_of(rank, mine);
  std::vector<int> members;
  for (int r = 0; r < size(); ++r) {
    coords_of(r, other);
    bool same = true;
    for (size_t i = 0; i < dims.size() && same; ++i) same = remain[i] || other[i] == mine[i];
    if (same) members.push_back(r);
  }
  return members;
}

}  // namespace weft::topo
