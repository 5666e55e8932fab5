/* Run across simulated hosts (tests/multihost, tests/slurm): each rank's processor name is its
 * node's name (the launcher's plan; the namespace hosts also have it as their hostname, checked
 * unless argv[1] is "any-name"), MPI_COMM_TYPE_SHARED groups exactly the ranks of one node and
 * WEFT_LOCAL_SIZE (when set) agrees, and point-to-point and collectives cross the nodes. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, failures = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  char name[MPI_MAX_PROCESSOR_NAME] = {0}, host[256] = {0};
  int len = 0;
  MPI_Get_processor_name(name, &len);
  gethostname(host, sizeof host - 1);
  const int check_host = !(argc > 1 && strcmp(argv[1], "any-name") == 0);
  if (check_host && strcmp(name, host) != 0) {
    fprintf(stderr, "rank %d: processor name %s, but this host is %s\n", rank, name, host);
    failures++;
  }

  /* Shared-memory split: my node's communicator has exactly the ranks with my name. */
  char* names = malloc((size_t)size * MPI_MAX_PROCESSOR_NAME);
  MPI_Allgather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, names, MPI_MAX_PROCESSOR_NAME, MPI_CHAR,
                MPI_COMM_WORLD);
  int same = 0;
  for (int r = 0; r < size; ++r) same += strcmp(names + (size_t)r * MPI_MAX_PROCESSOR_NAME, name) == 0;
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int node_size = 0;
  MPI_Comm_size(node, &node_size);
  if (node_size != same) {
    fprintf(stderr, "rank %d on %s: shared communicator has %d ranks, the node has %d\n", rank,
            name, node_size, same);
    failures++;
  }
  const char* local_size = getenv("WEFT_LOCAL_SIZE");
  if (local_size != NULL && atoi(local_size) != same) {
    fprintf(stderr, "rank %d: WEFT_LOCAL_SIZE=%s, the node has %d\n", rank,
            local_size ? local_size : "(unset)", same);
    failures++;
  }

  /* A token around the ring, which crosses every node boundary. */
  int token = rank == 0 ? 1 : 0;
  if (size > 1) {
    if (rank == 0) {
      MPI_Send(&token, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
      MPI_Recv(&token, 1, MPI_INT, size - 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (token != size) {
        fprintf(stderr, "token came back as %d, expected %d\n", token, size);
        failures++;
      }
    } else {
      MPI_Recv(&token, 1, MPI_INT, rank - 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      token++;
      MPI_Send(&token, 1, MPI_INT, (rank + 1) % size, 7, MPI_COMM_WORLD);
    }
  }
  /* A 1 MiB allreduce: the network path's rendezvous, not only eager messages. */
  const int n = 1 << 18;
  int* v = malloc(sizeof(int) * (size_t)n);
  for (int i = 0; i < n; ++i) v[i] = rank + i;
  MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  for (int i = 0; i < n; i += 4099) {
    if (v[i] != size * (size - 1) / 2 + size * i) {
      fprintf(stderr, "rank %d: allreduce[%d] = %d\n", rank, i, v[i]);
      failures++;
      break;
    }
  }
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("hosts_check: %d ranks, %s\n", size, all == 0 ? "ok" : "FAILED");
  if (getenv("HOSTS_CHECK_VERBOSE") != NULL) printf("rank %d on %s (%d there)\n", rank, name, same);
  free(v);
  free(names);
  MPI_Comm_free(&node);
  MPI_Finalize();
  return all == 0 ? 0 : 1;
}
