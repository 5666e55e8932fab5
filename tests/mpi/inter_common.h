/* Shared by the inter_* tests: an intercommunicator between two interleaved groups of unequal
 * size (group A: world ranks r with r % 3 == 1; group B: the others), built with
 * MPI_Intercomm_create over MPI_COMM_WORLD. Needs at least 2 ranks. */
#ifndef WEFT_TESTS_INTER_COMMON_H
#define WEFT_TESTS_INTER_COMMON_H
#include "check.h"

/* MPI_Init with MPI_ERRORS_RETURN on the predefined communicators; 0 (MPI finalized again)
 * when the world has fewer than the 2 ranks an intercommunicator needs. */
static inline int inter_init(int* argc, char*** argv, int* world_rank, int* world_size) {
  MPI_Init(argc, argv);
  errors_return();
  world_ring(world_rank, world_size, NULL, NULL);
  if (*world_size >= 2) return 1;
  MPI_Finalize();
  return 0;
}

static inline int inter_in_a(int world_rank) { return world_rank % 3 == 1; }
/* How many of world ranks 0..n-1 are in group A. */
static inline int inter_size_a(int n) { return (n + 1) / 3; }
/* The world rank of local rank `r` of group A or B. */
static inline int inter_world_of(int in_a, int r, int n) {
  for (int w = 0; w < n; ++w)
    if (inter_in_a(w) == in_a && r-- == 0) return w;
  return -1;
}

/* This rank's group (*in_a), its local communicator and the intercommunicator. The leaders are
 * local rank `leader` of each group (clamped to the group's size). */
static inline void inter_make(int leader, int* in_a, MPI_Comm* local, MPI_Comm* inter) {
  int rank, size;
  world_ring(&rank, &size, NULL, NULL);
  *in_a = inter_in_a(rank);
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, *in_a, rank, local));
  const int na = inter_size_a(size), nb = size - na;
  const int lead_a = leader < na ? leader : na - 1, lead_b = leader < nb ? leader : nb - 1;
  const int my_leader = *in_a ? lead_a : lead_b;
  const int remote_leader =
      *in_a ? inter_world_of(0, lead_b, size) : inter_world_of(1, lead_a, size);
  CHECK_MPI(MPI_Intercomm_create(*local, my_leader, MPI_COMM_WORLD, remote_leader, 77, inter));
}

#endif
