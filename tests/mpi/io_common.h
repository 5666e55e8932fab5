/* Shared by the io_* tests: a private temporary directory per run (made by rank 0, named to all,
 * removed with everything in it at the end), paths inside it, and MPI_ERRORS_ARE_FATAL-free
 * checks of file calls (files return errors by default). */
#ifndef WEFT_TESTS_IO_COMMON_H
#define WEFT_TESTS_IO_COMMON_H
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

static char io_dir_[256];

/* Makes the directory (rank 0) and tells every rank of MPI_COMM_WORLD its name. */
static inline void io_setup(void) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    snprintf(io_dir_, sizeof io_dir_, "%s/weft_io_XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    CHECK(mkdtemp(io_dir_) != NULL);
  }
  MPI_Bcast(io_dir_, sizeof io_dir_, MPI_CHAR, 0, MPI_COMM_WORLD);
}

/* A path in the directory (a static buffer per call site is the caller's business). */
static inline const char* io_path(char* buf, size_t len, const char* name) {
  snprintf(buf, len, "%s/%s", io_dir_, name);
  return buf;
}

/* Removes the directory and its files (rank 0, after everyone is done). */
static inline void io_cleanup(void) {
  int rank = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0) return;
  DIR* d = opendir(io_dir_);
  if (d != NULL) {
    struct dirent* e;
    char p[600];
    while ((e = readdir(d)) != NULL) {
      if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
      snprintf(p, sizeof p, "%s/%s", io_dir_, e->d_name);
      unlink(p);
    }
    closedir(d);
  }
  CHECK(rmdir(io_dir_) == 0);
}

/* Bytes read (or written) according to a status, as MPI_Get_count with MPI_BYTE says. */
static inline int status_bytes(const MPI_Status* st) {
  int n = -1;
  MPI_Get_count(st, MPI_BYTE, &n);
  return n;
}

/* MPI_Init, the directory, and the path of the program's file `name` in it; returns the rank. */
static inline int io_start(int* argc, char*** argv, const char* name, char* path, size_t len,
                           int* size) {
  int rank = 0;
  MPI_Init(argc, argv);
  world_ring(&rank, size, NULL, NULL);
  io_setup();
  io_path(path, len, name);
  return rank;
}

/* A view of one int in every `period` ints of the file, from int `first` on. */
static inline void io_view_one_int_in(MPI_File fh, int first, int period) {
  MPI_Datatype t;
  MPI_Type_create_resized(MPI_INT, 0, (MPI_Aint)(period * (int)sizeof(int)), &t);
  MPI_Type_commit(&t);
  CHECK_MPI(MPI_File_set_view(fh, (MPI_Offset)first * (MPI_Offset)sizeof(int), MPI_INT, t, "native",
                              MPI_INFO_NULL));
  MPI_Type_free(&t);
}

/* Rank 0 writes n copies of `v` from the start of the file (through fh's present view); every
 * rank waits for it. */
static inline void io_fill_ints(MPI_File fh, int n, int v) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    int* fill = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; ++i) fill[i] = v;
    CHECK_MPI(MPI_File_write_at(fh, 0, fill, n, MPI_INT, MPI_STATUS_IGNORE));
    free(fill);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

/* `path` opened (created if need be) for reading and writing by every rank. */
static inline MPI_File io_open_rdwr(const char* path) {
  MPI_File fh = MPI_FILE_NULL;
  CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                          &fh));
  return fh;
}

/* Removes the directory, finalizes and says `test`: ok. */
static inline void io_finish(int rank, const char* test) {
  io_cleanup();
  MPI_Finalize();
  if (rank == 0) printf("%s: ok\n", test);
}

#endif
