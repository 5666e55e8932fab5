/* The machine's floor for intra-node messaging, to state next to MPI figures: a two-thread
 * ping-pong on one shared cache line (half a round trip: one cache-line transfer between two
 * cores), single-thread memcpy bandwidth for 64 KiB .. 4 MiB, the rate of a copy out of another
 * process (process_vm_readv, what single-copy paths use), and the time one core takes to pass
 * from one process to the next (4 processes on one CPU calling sched_yield: the step of ranks
 * that outnumber cores). Plain C11 + pthreads, no MPI.
 *
 * Usage: cacheline_floor [-r runs] [-i round_trips]
 *   -r: runs of each measurement; the best is reported (default 7)
 *   -i: round trips per ping-pong run (default 200000)
 * The two threads are pinned to two CPUs this process may use, on different physical cores
 * where it can; with only one CPU they run unpinned and yield while waiting (the figure is then a
 * context switch, not a transfer).
 *
 * Output: '#' header lines, then "pingpong_half_rtt_ns VALUE", one line per copy size:
 * "memcpy SIZE GBps" (GB = 1e9 bytes copied per second), "cross_process_read SIZE GBps" for
 * 1 MiB, and "yield_switch_ns VALUE". */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { kLine = 64 };

/* The shared line: the ping-pong counter alone in its cache line. */
typedef struct {
  _Alignas(kLine) atomic_long turn;
  char pad[kLine - sizeof(atomic_long)];
} SharedLine;

typedef struct {
  SharedLine* line;
  long round_trips;
  int parity; /* 0: the pinger (writes odd values), 1: the ponger (writes even values) */
  int cpu;    /* -1: not pinned */
  int yield;  /* give the core away while waiting (one CPU only) */
} Player;

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void pin(int cpu) {
  if (cpu < 0) return;
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

/* Waits for the other side's value, then writes the next one, round_trips times. */
static void* play(void* arg) {
  const Player* p = arg;
  pin(p->cpu);
  for (long i = 0; i < p->round_trips; ++i) {
    const long expect = 2 * i + p->parity;
    while (atomic_load_explicit(&p->line->turn, memory_order_acquire) != expect)
      if (p->yield) sched_yield();
    atomic_store_explicit(&p->line->turn, expect + 1, memory_order_release);
  }
  return NULL;
}

/* One ping-pong run: nanoseconds per half round trip. */
static double ping_pong_once(const int cpus[2], int yield, long round_trips) {
  SharedLine* line = aligned_alloc(kLine, sizeof *line);
  if (line == NULL) return -1;
  atomic_init(&line->turn, 0);
  Player ping = {line, round_trips, 0, cpus[0], yield},
         pong = {line, round_trips, 1, cpus[1], yield};
  pthread_t other;
  const double start = now_s();
  if (pthread_create(&other, NULL, play, &pong) != 0) {
    free(line);
    return -1;
  }
  play(&ping);
  pthread_join(other, NULL);
  const double seconds = now_s() - start;
  free(line);
  return seconds * 1e9 / (2.0 * (double)round_trips);
}

/* A CPU's physical core as "package:core" from sysfs, or "" where sysfs does not say. */
static void core_of(int cpu, char* out, size_t n) {
  char path[96], package[32] = "", core[32] = "";
  out[0] = '\0';
  snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
  FILE* f = fopen(path, "r");
  if (f == NULL) return;
  const int got_package = fscanf(f, "%31s", package) == 1;
  fclose(f);
  snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/core_id", cpu);
  if (!got_package || (f = fopen(path, "r")) == NULL) return;
  if (fscanf(f, "%31s", core) == 1) snprintf(out, n, "%s:%s", package, core);
  fclose(f);
}

/* Two CPUs this process may run on, on different physical cores where it may use two (else
 * the first two, e.g. hyperthreads of one core); returns how many it found (0, 1 or 2). */
static int two_cpus(int cpus[2]) {
  cpu_set_t set;
  int allowed = 0;
  cpus[0] = cpus[1] = -1;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return 0;
  char first_core[64] = "", core[64];
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (!CPU_ISSET(c, &set)) continue;
    if (++allowed == 1) {
      cpus[0] = c;
      core_of(c, first_core, sizeof first_core);
      continue;
    }
    if (cpus[1] < 0) cpus[1] = c;
    core_of(c, core, sizeof core);
    if (first_core[0] != '\0' && strcmp(core, first_core) != 0) {
      cpus[1] = c;
      break;
    }
  }
  return allowed < 2 ? allowed : 2;
}

/* Best memcpy bandwidth in GB/s for `bytes` over `runs` runs of about 20 ms each. */
static double copy_bandwidth(size_t bytes, int runs) {
  char* src = aligned_alloc(kLine, bytes);
  char* dst = aligned_alloc(kLine, bytes);
  if (src == NULL || dst == NULL) {
    free(src);
    free(dst);
    return -1;
  }
  memset(src, 1, bytes);
  memset(dst, 2, bytes);
  long reps = 1;
  for (double t = 0; t < 0.002; reps *= 2) { /* calibrate: about 2 ms per batch */
    const double start = now_s();
    for (long i = 0; i < reps; ++i) memcpy(dst, src, bytes);
    t = now_s() - start;
  }
  reps *= 5; /* the loop doubled once more: at least 20 ms a run */
  double best = 0;
  for (int r = 0; r < runs; ++r) {
    const double start = now_s();
    for (long i = 0; i < reps; ++i) {
      memcpy(dst, src, bytes);
      __asm__ __volatile__("" : : "r"(dst) : "memory"); /* keep every copy */
    }
    const double gbps = (double)bytes * (double)reps / (now_s() - start) / 1e9;
    if (gbps > best) best = gbps;
  }
  free(src);
  free(dst);
  return best;
}

/* Memory that this process and the children it forks share, or NULL. */
static void* shared_memory(size_t bytes) {
  void* p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  return p == MAP_FAILED ? NULL : p;
}

/* Best GB/s of process_vm_readv copying `bytes` out of a child process into this one, over
 * `runs` runs of 50 copies; -1 where the system refuses cross-process reads. */
static double cross_process_read(size_t bytes, int runs) {
  atomic_ulong* where = shared_memory(sizeof *where); /* the child's buffer, 0 until ready */
  char* dst = aligned_alloc(kLine, bytes);
  if (where == NULL || dst == NULL) return -1;
  memset(dst, 2, bytes);
  atomic_init(where, 0);
  const pid_t child = fork();
  if (child < 0) {
    munmap(where, sizeof *where);
    free(dst);
    return -1;
  }
  if (child == 0) {
    char* src = aligned_alloc(kLine, bytes);
    if (src != NULL) memset(src, 1, bytes);
    atomic_store(where, src != NULL ? (unsigned long)src : 1UL);
    for (;;) pause(); /* until the parent stops it */
  }
  double best = -1;
  while (atomic_load(where) == 0) sched_yield();
  for (int r = 0; atomic_load(where) > 1 && r < runs; ++r) {
    const struct iovec local = {dst, bytes}, remote = {(void*)atomic_load(where), bytes};
    const double start = now_s();
    int i = 0;
    for (; i < 50 && process_vm_readv(child, &local, 1, &remote, 1, 0) == (ssize_t)bytes; ++i) {
    }
    if (i < 50) break;
    const double gbps = (double)bytes * 50 / (now_s() - start) / 1e9;
    if (gbps > best) best = gbps;
  }
  kill(child, SIGKILL);
  waitpid(child, NULL, 0);
  munmap(where, sizeof *where);
  free(dst);
  return best;
}

/* Nanoseconds per hand-over of one CPU between `procs` processes pinned to it, each calling
 * sched_yield for about 0.2 s; the best of `runs`, or -1 where the processes cannot start. */
static double yield_switch(int cpu, int procs, int runs) {
  enum { kMaxProcs = 8, kSlot = kLine / sizeof(long) };
  if (procs > kMaxProcs) return -1;
  long* counts = shared_memory(sizeof(long) * kSlot * kMaxProcs);
  if (counts == NULL) return -1;
  double best = -1;
  for (int r = 0; r < runs; ++r) {
    const double window = 0.2;
    int started = 0;
    for (; started < procs; ++started) {
      const pid_t pid = fork();
      if (pid < 0) break;
      if (pid == 0) {
        pin(cpu);
        long n = 0;
        for (const double start = now_s(); now_s() - start < window; ++n) sched_yield();
        counts[started * kSlot] = n;
        _exit(0);
      }
    }
    while (wait(NULL) > 0) {
    }
    if (started < procs) break;
    long total = 0;
    for (int k = 0; k < procs; ++k) total += counts[k * kSlot];
    if (total == 0) continue;
    const double ns = window * 1e9 / (double)total; /* the CPU passed total times in window */
    if (best < 0 || ns < best) best = ns;
  }
  munmap(counts, sizeof(long) * kSlot * kMaxProcs);
  return best;
}

static int positive(const char* s, long* out) {
  char* end;
  const long v = strtol(s, &end, 10);
  if (*s == '\0' || *end != '\0' || v < 1) return 0;
  *out = v;
  return 1;
}

int main(int argc, char** argv) {
  long runs = 7, round_trips = 200000;
  for (int i = 1; i < argc; i += 2) {
    long* target = strcmp(argv[i], "-r") == 0   ? &runs
                   : strcmp(argv[i], "-i") == 0 ? &round_trips
                                                : NULL;
    if (target == NULL || i + 1 >= argc || !positive(argv[i + 1], target)) {
      fprintf(stderr, "usage: cacheline_floor [-r runs] [-i round_trips]\n");
      return 2;
    }
  }

  int cpus[2];
  const int ncpus = two_cpus(cpus);
  const int pinned = ncpus == 2, yield = !pinned;
  if (!pinned) cpus[0] = cpus[1] = -1;
  double best = -1;
  for (long r = 0; r < runs; ++r) {
    const double ns = ping_pong_once(cpus, yield, round_trips);
    if (ns > 0 && (best < 0 || ns < best)) best = ns;
  }
  if (best < 0) {
    fprintf(stderr, "cacheline_floor: cannot start the ping-pong thread\n");
    return 1;
  }
  if (pinned)
    printf("# cache-line ping-pong: threads pinned to cpus %d and %d\n", cpus[0], cpus[1]);
  else
    printf(
        "# cache-line ping-pong: one cpu only, threads unpinned and yielding (not a transfer)\n");
  printf("# half round trip, best of %ld runs of %ld round trips\n", runs, round_trips);
  printf("pingpong_half_rtt_ns %.1f\n", best);

  printf("# memcpy, one thread, best of %ld runs; GB = 1e9 bytes copied per second\n", runs);
  for (size_t bytes = (size_t)64 << 10; bytes <= (size_t)4 << 20; bytes *= 2) {
    const double gbps = copy_bandwidth(bytes, (int)runs);
    if (gbps < 0) {
      fprintf(stderr, "cacheline_floor: cannot allocate 2 x %zu bytes\n", bytes);
      return 1;
    }
    printf("memcpy %zu %.2f\n", bytes, gbps);
    fflush(stdout);
  }
  const size_t read_bytes = (size_t)1 << 20;
  const double read_gbps = cross_process_read(read_bytes, (int)runs);
  printf("# process_vm_readv out of a child process, best of %ld runs of 50 reads\n", runs);
  if (read_gbps > 0)
    printf("cross_process_read %zu %.2f\n", read_bytes, read_gbps);
  else
    printf("# cross_process_read: refused here (ptrace rules)\n");
  const double switch_ns = yield_switch(cpus[0], 4, (int)runs);
  printf("# 4 processes on one cpu calling sched_yield, best of %ld runs\n", runs);
  if (switch_ns > 0) printf("yield_switch_ns %.0f\n", switch_ns);
  return 0;
}
