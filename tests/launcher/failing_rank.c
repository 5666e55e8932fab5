/* A job that misbehaves on purpose, chosen by argv[1]; used by check_launcher.sh.
 * Every rank first prints "pid <rank> <pid>" so the driver can check nothing survives. */
#include <dirent.h>
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The last rank waits (up to 10 s) until its node's shared-memory segment exists (the first
 * rank creates it inside MPI_Init, before the start-up fence), says so, and exits without
 * MPI_Init: the others are then stuck in that fence until the launcher ends the job. */
static void exit_before_init(void) {
  const char* rank = getenv("WEFT_RANK");
  const char* size = getenv("WEFT_SIZE");
  const char* nspace = getenv("PMIX_NAMESPACE");
  if (!rank || !size || !nspace || atoi(rank) != atoi(size) - 1) return;
  char prefix[256];
  snprintf(prefix, sizeof prefix, "weft-shm.%s.", nspace);
  for (int i = 0; i < 1000; ++i) {
    DIR* d = opendir("/dev/shm");
    struct dirent* e;
    int seen = 0;
    while (d && (e = readdir(d)) != NULL) seen |= strncmp(e->d_name, prefix, strlen(prefix)) == 0;
    if (d) closedir(d);
    if (seen) {
      printf("segment seen\n");
      fflush(stdout);
      /* Let the other ranks finish opening UCX, whose own shared-memory files a rank killed
       * inside ucp_init can leave behind (a UCX window Weft cannot close): what this case
       * checks is that the job's segment goes, with the ranks killed in the start-up fence. */
      usleep(500000);
      exit(5);
    }
    usleep(10000);
  }
  exit(4);
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "ok";
  if (strcmp(mode, "exit_before_init") == 0) exit_before_init();
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  printf("pid %d %d\n", rank, (int)getpid());
  fflush(stdout);
  MPI_Barrier(MPI_COMM_WORLD);
  const int victim = size - 1;
  int token = 0;
  if (strcmp(mode, "exit3") == 0 && rank == victim) exit(3);
  if (strcmp(mode, "segv") == 0 && rank == victim) raise(SIGSEGV);
  if (strcmp(mode, "abort7") == 0 && rank == victim) MPI_Abort(MPI_COMM_WORLD, 7);
  if (strcmp(mode, "fatal") == 0 && rank == victim) MPI_Send(&token, 1, MPI_INT, 99, 0, MPI_COMM_WORLD);
  if (strcmp(mode, "nofinalize") == 0 && rank == victim) return 0;
  /* Spawned children that fail (the last of two): the parents and the other child wait forever. */
  if (strncmp(mode, "spawn_", 6) == 0) {
    char child_mode[32];
    snprintf(child_mode, sizeof child_mode, "child_%s", mode + 6);
    char* args[] = {child_mode, NULL};
    MPI_Comm inter;
    MPI_Comm_spawn(argv[0], args, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter, MPI_ERRCODES_IGNORE);
    MPI_Recv(&token, 1, MPI_INT, 0, 42, inter, MPI_STATUS_IGNORE);
  }
  if (strncmp(mode, "child_", 6) == 0) {
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    if (rank == victim && strcmp(mode, "child_exit3") == 0) exit(3);
    if (rank == victim && strcmp(mode, "child_segv") == 0) raise(SIGSEGV);
    MPI_Recv(&token, 1, MPI_INT, 0, 42, parent, MPI_STATUS_IGNORE);
  }
  if (strcmp(mode, "lines") == 0) {
    /* Long lines written in pieces: the launcher must still deliver each line whole. */
    char chunk[301];
    memset(chunk, 'a' + rank % 26, 300);
    chunk[300] = '\0';
    for (int i = 0; i < 200; ++i) {
      printf("line rank=%d i=%d ", rank, i);
      fflush(stdout);
      printf("%s", chunk);
      fflush(stdout);
      printf("%s end\n", chunk);
      fflush(stdout);
    }
  }
  if (strcmp(mode, "stdin") == 0 && rank == 0) {
    char line[256];
    int lines = 0;
    while (fgets(line, sizeof line, stdin) != NULL) ++lines;
    printf("rank 0 read %d lines\n", lines);
  }
  if (strcmp(mode, "hang") == 0 || strcmp(mode, "exit3") == 0 || strcmp(mode, "segv") == 0 ||
      strcmp(mode, "abort7") == 0 || strcmp(mode, "fatal") == 0 || strcmp(mode, "nofinalize") == 0) {
    /* Survivors wait for a message that never comes: only the launcher can end them. */
    if (rank != victim) MPI_Recv(&token, 1, MPI_INT, victim, 42, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (strcmp(mode, "hang") == 0) MPI_Recv(&token, 1, MPI_INT, 0, 42, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  if (strcmp(mode, "stuck") == 0) {
    /* A classic hang: all ranks but the last enter an allreduce; the last waits for a message
     * nobody sends. The hang report must name the last rank. */
    if (rank == victim) MPI_Recv(&token, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    else MPI_Allreduce(MPI_IN_PLACE, &token, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
