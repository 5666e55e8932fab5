/* Neighbourhood collectives on Cartesian grids, checked exactly at any world size (1 and 2
 * ranks per dimension included, where a rank is its own or both neighbours):
 * - a halo exchange with MPI_Neighbor_alltoall on a 2-D torus: every halo cell must hold the
 *   global periodic field's value there (what arrives from the negative neighbour is what it
 *   sent in its positive direction, MPI 4.0 §8.6);
 * - the same on a non-periodic grid, where halos at the edges stay untouched;
 * - MPI_Neighbor_allgather(v) and MPI_Neighbor_alltoall(v,w) on 1-D rings and 3-D grids with
 *   uneven counts, gaps and per-block types. */
#include <stddef.h>
#include <stdlib.h>

#include "check.h"

#define L 3 /* cells per side of a tile */
#define UNTOUCHED (-1)

static int wrap(int c, int d) { return ((c % d) + d) % d; }
static int field(int x, int y, int nx, int ny) { return wrap(x, nx) * 1000 + wrap(y, ny); }

static void halo_exchange(int rank, int size, int periodic) {
  int dims[2] = {0, 0}, periods[2] = {periodic, periodic}, coords[2];
  MPI_Dims_create(size, 2, dims);
  MPI_Comm grid;
  CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid));
  MPI_Cart_coords(grid, rank, 2, coords);
  const int nx = dims[0] * L, ny = dims[1] * L, x0 = coords[0] * L, y0 = coords[1] * L;
  /* Send: top row, bottom row, left column, right column. */
  int send[4 * L], recv[4 * L];
  for (int k = 0; k < L; ++k) {
    send[0 * L + k] = field(x0, y0 + k, nx, ny);
    send[1 * L + k] = field(x0 + L - 1, y0 + k, nx, ny);
    send[2 * L + k] = field(x0 + k, y0, nx, ny);
    send[3 * L + k] = field(x0 + k, y0 + L - 1, nx, ny);
  }
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < 4 * L; ++i) recv[i] = UNTOUCHED;
    CHECK_MPI(MPI_Neighbor_alltoall(send, L, MPI_INT, recv, L, MPI_INT, grid));
    /* Halo: the row above, the row below, the column left, the column right. */
    int want[4 * L];
    for (int k = 0; k < L; ++k) {
      const int above = x0 - 1, below = x0 + L, left = y0 - 1, right = y0 + L;
      want[0 * L + k] = periodic || above >= 0 ? field(above, y0 + k, nx, ny) : UNTOUCHED;
      want[1 * L + k] = periodic || below < nx ? field(below, y0 + k, nx, ny) : UNTOUCHED;
      want[2 * L + k] = periodic || left >= 0 ? field(x0 + k, left, nx, ny) : UNTOUCHED;
      want[3 * L + k] = periodic || right < ny ? field(x0 + k, right, nx, ny) : UNTOUCHED;
    }
    check_context("halo exchange on a %dx%d %s grid, round %d", dims[0], dims[1],
                  periodic ? "periodic" : "non-periodic", round);
    check_ints(recv, want, 4 * L, "halo");
  }
  check_context("%s", "");
  MPI_Comm_free(&grid);
}

/* The neighbours of this rank in the standard's order, via MPI_Cart_shift. */
static int neighbours(MPI_Comm grid, int n, int* nbr) {
  for (int d = 0; d < n; ++d) MPI_Cart_shift(grid, d, 1, &nbr[2 * d], &nbr[2 * d + 1]);
  return 2 * n;
}

/* Values rank r puts in its block j, element k. */
static int value(int r, int j, int k) { return r * 10000 + j * 100 + k; }
static int count_of(int r, int j) { return (r + 2 * j) % 4; } /* uneven, zeros included */

static void collectives(MPI_Comm grid, int n, int rank) {
  int nbr[6];
  const int deg = neighbours(grid, n, nbr);
  /* allgather: each neighbour's rank, PROC_NULL blocks untouched. */
  int got[6];
  for (int i = 0; i < deg; ++i) got[i] = UNTOUCHED;
  CHECK_MPI(MPI_Neighbor_allgather(&rank, 1, MPI_INT, got, 1, MPI_INT, grid));
  for (int i = 0; i < deg; ++i) CHECK(got[i] == (nbr[i] == MPI_PROC_NULL ? UNTOUCHED : nbr[i]));

  /* allgatherv: count_of(r, 0) values from r, blocks in reverse order with gaps. */
  int mine[4], recvcounts[6], displs[6], buf[64], at = 0;
  for (int k = 0; k < count_of(rank, 0); ++k) mine[k] = value(rank, 0, k);
  for (int i = deg - 1; i >= 0; --i) {
    recvcounts[i] = nbr[i] == MPI_PROC_NULL ? 2 : count_of(nbr[i], 0);
    displs[i] = at;
    at += recvcounts[i] + 1;
  }
  for (int i = 0; i < 64; ++i) buf[i] = UNTOUCHED;
  CHECK_MPI(MPI_Neighbor_allgatherv(mine, count_of(rank, 0), MPI_INT, buf, recvcounts, displs,
                                    MPI_INT, grid));
  int want[64];
  for (int i = 0; i < 64; ++i) want[i] = UNTOUCHED;
  for (int i = 0; i < deg; ++i)
    for (int k = 0; nbr[i] != MPI_PROC_NULL && k < recvcounts[i]; ++k)
      want[displs[i] + k] = value(nbr[i], 0, k);
  check_ints(buf, want, 64, "MPI_Neighbor_allgatherv");

  /* alltoallv: block j has count_of(rank, j) values; block i arrives from the neighbour's
   * block i^1. */
  int send[64], sendcounts[6], sdispls[6], rdispls[6];
  at = 0;
  for (int j = 0; j < deg; ++j) {
    sendcounts[j] = count_of(rank, j);
    sdispls[j] = at;
    for (int k = 0; k < sendcounts[j]; ++k) send[at + k] = value(rank, j, k);
    at += sendcounts[j];
  }
  at = 0;
  for (int i = deg - 1; i >= 0; --i) {
    recvcounts[i] = nbr[i] == MPI_PROC_NULL ? 1 : count_of(nbr[i], i ^ 1);
    rdispls[i] = at;
    at += recvcounts[i] + 2;
  }
  for (int i = 0; i < 64; ++i) buf[i] = want[i] = UNTOUCHED;
  CHECK_MPI(MPI_Neighbor_alltoallv(send, sendcounts, sdispls, MPI_INT, buf, recvcounts, rdispls,
                                   MPI_INT, grid));
  for (int i = 0; i < deg; ++i)
    for (int k = 0; nbr[i] != MPI_PROC_NULL && k < recvcounts[i]; ++k)
      want[rdispls[i] + k] = value(nbr[i], i ^ 1, k);
  check_ints(buf, want, 64, "MPI_Neighbor_alltoallv");

  /* alltoallw: dimension 0 moves ints, the others shorts, at byte displacements. */
  struct mixed_blocks {
    int ints[2][4];
    short shorts[4][4];
  } wsend, wrecv;
  MPI_Aint bytes[6];
  MPI_Datatype types[6];
  for (int j = 0; j < deg; ++j) {
    types[j] = j < 2 ? MPI_INT : MPI_SHORT;
    bytes[j] =
        j < 2
            ? (MPI_Aint)(offsetof(struct mixed_blocks, ints) + j * sizeof wsend.ints[0])
            : (MPI_Aint)(offsetof(struct mixed_blocks, shorts) + (j - 2) * sizeof wsend.shorts[0]);
    sendcounts[j] = count_of(rank, j);
    recvcounts[j] = nbr[j] == MPI_PROC_NULL ? 0 : count_of(nbr[j], j ^ 1);
    for (int k = 0; k < 4; ++k) {
      if (j < 2) {
        wsend.ints[j][k] = value(rank, j, k);
        wrecv.ints[j][k] = UNTOUCHED;
      } else {
        wsend.shorts[j - 2][k] = (short)(rank * 64 + j * 8 + k);
        wrecv.shorts[j - 2][k] = UNTOUCHED;
      }
    }
  }
  CHECK_MPI(MPI_Neighbor_alltoallw(&wsend, sendcounts, bytes, types, &wrecv, recvcounts, bytes,
                                   types, grid));
  for (int i = 0; i < deg; ++i) {
    for (int k = 0; k < 4; ++k) {
      const int arrived = nbr[i] != MPI_PROC_NULL && k < recvcounts[i];
      if (i < 2) {
        CHECK(wrecv.ints[i][k] == (arrived ? value(nbr[i], i ^ 1, k) : UNTOUCHED));
      } else {
        CHECK(wrecv.shorts[i - 2][k] ==
              (arrived ? (short)(nbr[i] * 64 + (i ^ 1) * 8 + k) : UNTOUCHED));
      }
    }
  }
}

static void grid_collectives(int rank, int size, int n, const int* periods) {
  int dims[3] = {0, 0, 0};
  MPI_Dims_create(size, n, dims);
  MPI_Comm grid;
  CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, n, dims, periods, 0, &grid));
  check_context("neighbourhood collectives on a %d-D grid %dx%dx%d periods %d%d%d", n, dims[0],
                n > 1 ? dims[1] : 1, n > 2 ? dims[2] : 1, periods[0], n > 1 ? periods[1] : 0,
                n > 2 ? periods[2] : 0);
  collectives(grid, n, rank);
  check_context("%s", "");
  MPI_Comm_free(&grid);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  int rank, size;
  world_ring(&rank, &size, NULL, NULL);
  halo_exchange(rank, size, 1);
  halo_exchange(rank, size, 0);
  const int ring[1] = {1}, line[1] = {0}, torus[3] = {1, 1, 1}, mixed[3] = {1, 0, 1};
  grid_collectives(rank, size, 1, ring);
  grid_collectives(rank, size, 1, line);
  grid_collectives(rank, size, 3, torus);
  grid_collectives(rank, size, 3, mixed);
  MPI_Finalize();
  return 0;
}
