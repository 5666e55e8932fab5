// Cartesian process topologies (MPI 4.0 §8.5.1, §8.5.5, §8.5.6): the balanced factorization
// of MPI_Dims_create and the pure rank/coordinate math of a grid. Weft never reorders, so grid
// rank r is communicator rank r, laid out in row-major order (the last coordinate fastest).
#pragma once
#include <span>
#include <vector>

#include "runtime/status.hpp"

namespace weft::topo {

// MPI_Dims_create: fills the zero entries of `dims` so that the product of all entries is
// `nnodes`, the filled entries as close to each other as possible (the smallest spread, and of
// equal spreads the larger smallest factor) and non-increasing; the non-zero entries are kept. MPI_ERR_DIMS when a given entry is negative or the given entries
// do not divide `nnodes`; MPI_ERR_ARG when nnodes < 1.
Status dims_create(int nnodes, std::span<int> dims);

struct CartGrid {
  std::vector<int> dims;     // every entry >= 1
  std::vector<int> periods;  // 1: periodic in that dimension

  int ndims() const { return int(dims.size()); }
  // Ranks in the grid: the product of dims (1 for a zero-dimensional grid).
  int size() const;
  // The coordinates of grid rank `rank` (0 <= rank < size()), ndims() of them.
  void coords_of(int rank, std::span<int> coords) const;
  // The rank at `coords`; a coordinate outside 0..dims-1 wraps around in a periodic dimension.
  // Returns false (and leaves *rank) when one is out of range in a non-periodic dimension.
  bool rank_at(std::span<const int> coords, int* rank) const;
  // MPI_Cart_shift: the ranks `disp` steps before and after `rank` along `direction`;
  // MPI_PROC_NULL past the edge of a non-periodic dimension.
  void shift(int rank, int direction, int disp, int* source, int* dest) const;
  // The neighbours of the neighbourhood collectives (MPI 4.0 §8.6): for each dimension, the
  // rank one step in the negative then one step in the positive direction (MPI_PROC_NULL
  // included), so 2·ndims() entries; sources and destinations alike.
  std::vector<int> neighbors(int rank) const;
  // MPI_Cart_sub: the grid of the dimensions whose `remain` entry is non-zero, and the grid
  // ranks of the subgrid `rank` belongs to, in the subgrid's rank order.
  CartGrid sub(std::span<const int> remain) const;
  std::vector<int> subgrid_members(int rank, std::span<const int> remain) const;
};

}  // namespace weft::topo
