/* MPI_Get_hw_resource_info (MPI 4.1 §9.1.2) and the hardware-guided forms of MPI_Comm_split_type
 * (§7.4.2), checked against bindings the test makes itself: each rank binds all its threads to
 * one CPU of the set it started with, so it is restricted to one PU ("hwloc://PU" true), and the
 * ranks bound to the same CPU must share a communicator split by "hwloc://PU". A split by a
 * larger resource holds the smaller one's; "mpi_shared_memory" is MPI_COMM_TYPE_SHARED;
 * MPI_COMM_TYPE_RESOURCE_GUIDED takes process sets; MPI_COMM_TYPE_HW_UNGUIDED gives a strict
 * subset matching the resource type it reports. Unknown names give MPI_COMM_NULL. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <stdlib.h>

#include "expect_error.h"

/* Binds every thread of this process to `mask`. */
static void bind_all_threads(const cpu_set_t* mask) {
  DIR* tasks = opendir("/proc/self/task");
  CHECK(tasks != NULL);
  for (struct dirent* e = readdir(tasks); e != NULL; e = readdir(tasks)) {
    if (e->d_name[0] == '.') continue;
    /* A thread may have ended since the directory was read. */
    CHECK(sched_setaffinity(atoi(e->d_name), sizeof *mask, mask) == 0 || errno == ESRCH);
  }
  closedir(tasks);
}

/* The value of `key` in a new MPI_Get_hw_resource_info object ("" when absent). */
static const char* hw_value(const char* key) {
  static char value[MPI_MAX_INFO_VAL + 1];
  MPI_Info info;
  CHECK_MPI(MPI_Get_hw_resource_info(&info));
  int flag = 0;
  CHECK_MPI(MPI_Info_get(info, key, MPI_MAX_INFO_VAL, value, &flag));
  if (!flag) value[0] = '\0';
  CHECK_MPI(MPI_Info_free(&info));
  return value;
}

static void check_hw_info(void) {
  MPI_Info info;
  CHECK_MPI(MPI_Get_hw_resource_info(&info));
  int n = 0;
  CHECK_MPI(MPI_Info_get_nkeys(info, &n));
  CHECK(n >= 2);
  for (int i = 0; i < n; ++i) {
    char key[MPI_MAX_INFO_KEY + 1], value[16];
    int flag = 0;
    CHECK_MPI(MPI_Info_get_nthkey(info, i, key));
    CHECK(strncmp(key, "hwloc://", 8) == 0);
    CHECK_MPI(MPI_Info_get(info, key, sizeof value - 1, value, &flag));
    CHECK(flag && (strcmp(value, "true") == 0 || strcmp(value, "false") == 0));
  }
  CHECK_MPI(MPI_Info_free(&info));
  CHECK(strcmp(hw_value("hwloc://Machine"), "true") == 0);
  /* A process within one PU is within its core and package. */
  if (strcmp(hw_value("hwloc://PU"), "true") == 0)
    CHECK(strcmp(hw_value("hwloc://Core"), "true") == 0 &&
          strcmp(hw_value("hwloc://Package"), "true") == 0);
}

/* MPI_Comm_split_type with one info key (key NULL: MPI_INFO_NULL). */
static MPI_Comm split(int type, const char* key, const char* value, char* reported) {
  MPI_Info info = MPI_INFO_NULL;
  if (key != NULL) {
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, key, value));
  }
  MPI_Comm comm;
  CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, type, 0, info, &comm));
  if (reported != NULL) {
    int flag = 0;
    reported[0] = '\0';
    if (info != MPI_INFO_NULL)
      CHECK_MPI(MPI_Info_get(info, "mpi_hw_resource_type", 63, reported, &flag));
  }
  if (info != MPI_INFO_NULL) CHECK_MPI(MPI_Info_free(&info));
  return comm;
}

/* Whether every member of `small` is in `big` (MPI_COMM_NULL holds nobody). */
static int within(MPI_Comm small, MPI_Comm big) {
  if (small == MPI_COMM_NULL) return 1;
  if (big == MPI_COMM_NULL) return 0;
  MPI_Group gs, gb, diff;
  MPI_Comm_group(small, &gs);
  MPI_Comm_group(big, &gb);
  MPI_Group_difference(gs, gb, &diff);
  int n = -1;
  MPI_Group_size(diff, &n);
  MPI_Group_free(&gs);
  MPI_Group_free(&gb);
  MPI_Group_free(&diff);
  return n == 0;
}

static void check_members(MPI_Comm comm, const int* cpus, int size, int mine) {
  CHECK(comm != MPI_COMM_NULL);
  MPI_Group world, group;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Comm_group(comm, &group);
  int n = 0;
  MPI_Group_size(group, &n);
  int expected = 0;
  for (int r = 0; r < size; ++r) {
    if (cpus[r] != mine) continue;
    int in_comm = MPI_UNDEFINED;
    MPI_Group_translate_ranks(world, 1, &r, group, &in_comm);
    CHECK(in_comm != MPI_UNDEFINED);
    ++expected;
  }
  CHECK(n == expected);
  MPI_Group_free(&world);
  MPI_Group_free(&group);
}

static void free_comm(MPI_Comm* comm) {
  if (*comm != MPI_COMM_NULL) CHECK_MPI(MPI_Comm_free(comm));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  int rank, size;
  world_ring(&rank, &size, NULL, NULL);
  check_context("MPI_Get_hw_resource_info as the ranks started");
  check_hw_info();

  check_context("bound to one CPU, a rank is restricted to one PU");
  cpu_set_t started, one;
  CHECK(sched_getaffinity(0, sizeof started, &started) == 0);
  const int ncpus = CPU_COUNT(&started);
  int cpu = -1;
  for (int c = 0, seen = 0; c < CPU_SETSIZE && cpu < 0; ++c)
    if (CPU_ISSET(c, &started) && seen++ == rank % ncpus) cpu = c;
  CPU_ZERO(&one);
  CPU_SET(cpu, &one);
  bind_all_threads(&one);
  CHECK(strcmp(hw_value("hwloc://PU"), "true") == 0);
  check_hw_info();
  int* cpus = malloc((size_t)size * sizeof(int));
  CHECK_MPI(MPI_Allgather(&cpu, 1, MPI_INT, cpus, 1, MPI_INT, MPI_COMM_WORLD));

  check_context("MPI_COMM_TYPE_HW_GUIDED by hwloc://PU, hwloc://Core, mpi_shared_memory");
  MPI_Comm pu = split(MPI_COMM_TYPE_HW_GUIDED, "mpi_hw_resource_type", "hwloc://PU", NULL);
  check_members(pu, cpus, size, cpu);
  MPI_Comm core = split(MPI_COMM_TYPE_HW_GUIDED, "mpi_hw_resource_type", "hwloc://Core", NULL);
  MPI_Comm node = split(MPI_COMM_TYPE_HW_GUIDED, "mpi_hw_resource_type", "mpi_shared_memory", NULL);
  MPI_Comm shared = split(MPI_COMM_TYPE_SHARED, NULL, NULL, NULL);
  CHECK(core != MPI_COMM_NULL && within(pu, core) && within(core, node));
  int result = -1;
  CHECK_MPI(MPI_Comm_compare(node, shared, &result));
  CHECK(result == MPI_CONGRUENT);
  MPI_Comm by_resource =
      split(MPI_COMM_TYPE_RESOURCE_GUIDED, "mpi_hw_resource_type", "hwloc://PU", NULL);
  CHECK_MPI(MPI_Comm_compare(by_resource, pu, &result));
  CHECK(result == MPI_CONGRUENT);

  check_context("MPI_COMM_TYPE_RESOURCE_GUIDED by process set");
  MPI_Comm self = split(MPI_COMM_TYPE_RESOURCE_GUIDED, "mpi_pset_name", "mpi://SELF", NULL);
  MPI_Comm world = split(MPI_COMM_TYPE_RESOURCE_GUIDED, "mpi_pset_name", "mpi://WORLD", NULL);
  int n = 0;
  CHECK(self != MPI_COMM_NULL && world != MPI_COMM_NULL);
  CHECK_MPI(MPI_Comm_size(self, &n));
  CHECK(n == 1);
  CHECK_MPI(MPI_Comm_compare(world, MPI_COMM_WORLD, &result));
  CHECK(result == MPI_CONGRUENT);

  check_context("names Weft does not know, and no name, give MPI_COMM_NULL");
  MPI_Comm none[4] = {split(MPI_COMM_TYPE_HW_GUIDED, "mpi_hw_resource_type", "hwloc://Bogus", NULL),
                      split(MPI_COMM_TYPE_HW_GUIDED, NULL, NULL, NULL),
                      split(MPI_COMM_TYPE_HW_GUIDED, "other_key", "hwloc://PU", NULL),
                      split(MPI_COMM_TYPE_RESOURCE_GUIDED, "mpi_pset_name", "mpi://NOWHERE", NULL)};
  for (int i = 0; i < 4; ++i) CHECK(none[i] == MPI_COMM_NULL);

  check_context("MPI_COMM_TYPE_HW_UNGUIDED: a strict subset, as its reported type splits");
  char type[64];
  MPI_Comm unguided = split(MPI_COMM_TYPE_HW_UNGUIDED, "unrelated", "x", type);
  if (unguided != MPI_COMM_NULL) {
    CHECK_MPI(MPI_Comm_size(unguided, &n));
    CHECK(n < size && type[0] != '\0');
    MPI_Comm again = split(MPI_COMM_TYPE_HW_GUIDED, "mpi_hw_resource_type", type, NULL);
    CHECK_MPI(MPI_Comm_compare(unguided, again, &result));
    CHECK(result == MPI_CONGRUENT);
    free_comm(&again);
  } else {
    CHECK(type[0] == '\0');
  }
  if (size == 1) CHECK(unguided == MPI_COMM_NULL); /* no strict subset of one rank */
  /* Every rank of a PU has its own: with two CPUs or more some PUs differ, so the group splits. */
  int differ = 0;
  for (int r = 0; r < size; ++r) differ |= cpus[r] != cpus[0];
  if (differ) {
    int got = unguided != MPI_COMM_NULL, all = 0;
    CHECK_MPI(MPI_Allreduce(&got, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD));
    CHECK(all);
  }

  check_context("back to the binding it started with");
  bind_all_threads(&started);
  if (ncpus > 1) CHECK(strcmp(hw_value("hwloc://PU"), "false") == 0);
  EXPECT_ERROR(MPI_Get_hw_resource_info(NULL), MPI_ERR_ARG, "MPI_Get_hw_resource_info",
               "hw_info=NULL");
  EXPECT_ERROR(MPI_Comm_split_type(MPI_COMM_WORLD, 77, 0, MPI_INFO_NULL, &self), MPI_ERR_ARG,
               "MPI_Comm_split_type", "split_type=77");
  MPI_Comm* comms[] = {&pu, &core, &node, &shared, &by_resource, &self, &world, &unguided};
  for (size_t i = 0; i < sizeof comms / sizeof comms[0]; ++i) free_comm(comms[i]);
  free(cpus);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
