// weft_tune (`weftrun -n 2 weft_tune`): measures this machine's collective cost model α, β, γ.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "coll/configure.hpp"
#include "coll/tuning.hpp"
#include "mpi.h"
#include "runtime/info/tune_device.hpp"
#include "runtime/info/tune_file.hpp"
#include "runtime/info/tune_measure.hpp"

namespace {

using weft::coll::CostModel;
using weft::tune::previous_model;
using weft::tune::write_tuning;
namespace tune = weft::tune;

constexpr const char* kUsage =
    "usage: weftrun -n 2 weft_tune [-o FILE] [--force]\n"
    "Measures latency (alpha), bandwidth (beta), reduction speed (gamma) and a pipelining\n"
    "segment size between ranks 0 and 1 (and, on one node, the node region's hand-over\n"
    "alpha_region_us and copy cost beta_region_ns_per_byte; with a CUDA device, copies between\n"
    "it and host memory, alpha_device_us and beta_device_ns_per_byte), and writes them to FILE\n"
    "(default: the tuning file\n"
    "WEFT_TUNING_FILE=auto reads). Ranks 0 and 1 on different nodes (weftrun -n 2 --host\n"
    "a:1,b:1 weft_tune) measure the other-node alpha_inter_us and beta_inter_ns_per_byte\n"
    "instead of alpha_us and beta_ns_per_byte. With more ranks than cores it measures only\n"
    "the latency when oversubscribed (alpha_oversubscribed_us) and keeps the other values.\n"
    "When other work disturbed the runs it writes nothing, unless --force.\n";

constexpr double kSegmentShare = 0.8;  // segment: the smallest message at 80% of peak bandwidth
constexpr size_t kMaxSegment = size_t(1) << 20;
constexpr double kBusyRatio = 1.5;    // median over best beyond this: the machine was busy
constexpr double kSlowAlphaUs = 100;  // beyond any interconnect: the ranks shared a core

struct Options {
  std::string output;
  bool force = false;  // write even what a busy machine gave
  bool help = false;
  std::string error;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "-h") == 0 || std::strcmp(argv[i], "--help") == 0) {
      o.help = true;
    } else if (std::strcmp(argv[i], "--force") == 0) {
      o.force = true;
    } else if (std::strcmp(argv[i], "-o") == 0 || std::strcmp(argv[i], "--output") == 0) {
      if (i + 1 < argc) {
        o.output = argv[++i];
      } else {
        o.error = std::string(argv[i]) + " needs a file name";
      }
    } else {
      o.error = std::string("unknown argument '") + argv[i] + "'";
    }
  }
  return o;
}

// Every rank's host name, on rank 0 (empty elsewhere).
std::vector<std::string> gather_hosts(int rank, int size) {
  constexpr int kName = 256;
  std::vector<char> mine(kName, '\0'), all(rank == 0 ? size_t(size) * kName : 0);
  gethostname(mine.data(), kName - 1);
  MPI_Gather(mine.data(), kName, MPI_CHAR, all.data(), kName, MPI_CHAR, 0, MPI_COMM_WORLD);
  std::vector<std::string> hosts;
  for (size_t i = 0; i < all.size(); i += kName) hosts.emplace_back(&all[i]);
  return hosts;
}

// Whether rank 0's node runs more ranks than it has cores: the runtime's rule for its model.
bool node_oversubscribed(const std::vector<std::string>& hosts) {
  long local = 0;
  for (const std::string& h : hosts) local += h == hosts[0] ? 1 : 0;
  return local > sysconf(_SC_NPROCESSORS_ONLN);
}

std::string size_text(size_t bytes) {
  char text[32];
  if (bytes >= (size_t(1) << 20)) {
    std::snprintf(text, sizeof text, "%zu MiB", bytes >> 20);
  } else if (bytes >= 1024) {
    std::snprintf(text, sizeof text, "%zu KiB", bytes >> 10);
  } else {
    std::snprintf(text, sizeof text, "%zu B", bytes);
  }
  return text;
}

// What a ping-pong between ranks 0 and 1 measures: the same-node α and β, or the other-node
// ones where the two run on different nodes.
struct Link {
  const char* alpha_name;
  const char* beta_name;
  double* alpha;
  double* beta;
};
Link measured_link(CostModel* m, bool other_node) {
  if (other_node) {
    return {"alpha_inter_us", "beta_inter_ns_per_byte", &m->alpha_inter_us,
            &m->beta_inter_ns_per_byte};
  }
  return {"alpha_us", "beta_ns_per_byte", &m->alpha_us, &m->beta_ns_per_byte};
}

// Ranks 0 and 1: α, β and the segment size. Every value is the best run (the machine's speed
// with nothing else in the way); a median far above it says other work got in the way.
void measure_dedicated(const Link& link, CostModel* model, std::string* notes, bool* busy) {
  char line[256];
  tune::PingPong ping(1);
  const tune::Timing small = ping.measure(8, 51, 0.0005);
  *link.alpha = small.min * 1e6;
  *busy = small.median > kBusyRatio * small.min || *link.alpha > kSlowAlphaUs;
  std::printf(
      "%-18s %8.3f   8 B ping-pong, half round trip: best of %d runs of %ld (median %.3f)\n",
      link.alpha_name, *link.alpha, small.repetitions, small.round_trips, small.median * 1e6);
  std::snprintf(line, sizeof line,
                "# %s: 8 B ping-pong half round trip, best of %d runs (median %.3g)\n",
                link.alpha_name, small.repetitions, small.median * 1e6);
  *notes += line;

  std::printf("\nping-pong by size, half round trip (best and median of the runs):\n");
  std::vector<tune::Timing> sweep;
  double peak = 0;
  for (size_t bytes = 1024; bytes <= tune::kMaxMessage; bytes *= 2) {
    const tune::Timing t = ping.measure(bytes, 21, 0.001);
    sweep.push_back(t);
    peak = std::max(peak, double(bytes) / t.min);
    *busy = *busy || t.median > kBusyRatio * t.min;
    std::printf("  %8s  %10.2f us %7.2f GB/s   median %10.2f us %7.2f GB/s\n",
                size_text(bytes).c_str(), t.min * 1e6, double(bytes) / t.min / 1e9, t.median * 1e6,
                double(bytes) / t.median / 1e9);
  }

  // β: least-squares slope of time over size at 1, 2 and 4 MiB, so latency cancels.
  double sx = 0, sy = 0, sxx = 0, sxy = 0, n = 0;
  for (const tune::Timing& t : sweep) {
    if (t.bytes < (size_t(1) << 20)) continue;
    sx += double(t.bytes);
    sy += t.min;
    sxx += double(t.bytes) * double(t.bytes);
    sxy += double(t.bytes) * t.min;
    n += 1;
  }
  double beta = (n * sxy - sx * sy) / (n * sxx - sx * sx);
  const char* how = "slope of the ping-pong time over 1, 2 and 4 MiB";
  if (!(beta > 0)) {  // too noisy to see a slope: time over size at the largest message
    beta = sweep.back().min / double(sweep.back().bytes);
    how = "4 MiB ping-pong time over its size (the 1-4 MiB slope was not positive)";
  }
  *link.beta = beta * 1e9;
  std::printf("\n%-18s %8.4f   %s (%.2f GB/s)\n", link.beta_name, *link.beta, how, 1 / beta / 1e9);
  std::snprintf(line, sizeof line, "# %s: %s (%.3g GB/s)\n", link.beta_name, how, 1 / beta / 1e9);
  *notes += line;

  // segment: the smallest message that reaches kSegmentShare of the peak bandwidth. In the model
  // a segment of s bytes runs at s/(α + sβ) of it, 80% from s = 4α/β on; measured rather than
  // derived, since protocol switches (eager, rendezvous) bend the real curve.
  size_t segment = sweep.back().bytes;
  for (const tune::Timing& t : sweep) {
    if (double(t.bytes) / t.min >= kSegmentShare * peak) {
      segment = t.bytes;
      break;
    }
  }
  segment = std::min(segment, kMaxSegment);
  model->segment_bytes = segment;
  std::printf(
      "segment_bytes      %8zu   smallest message reaching %.0f%% of the peak %.2f GB/s "
      "(at most %s; 4*alpha/beta would say %.0f)\n",
      segment, kSegmentShare * 100, peak / 1e9, size_text(kMaxSegment).c_str(),
      4 * *link.alpha * 1e3 / *link.beta);
  std::snprintf(line, sizeof line,
                "# segment_bytes: smallest ping-pong message reaching %.0f%% of the peak %.3g "
                "GB/s\n",
                kSegmentShare * 100, peak / 1e9);
  *notes += line;
}

// γ, on rank 0 alone while the others wait.
void measure_reduction(CostModel* model, std::string* notes) {
  constexpr size_t kBytes = size_t(4) << 20;
  const double f = tune::reduce_seconds_per_byte(MPI_FLOAT, kBytes, 21) * 1e9;
  const double d = tune::reduce_seconds_per_byte(MPI_DOUBLE, kBytes, 21) * 1e9;
  model->gamma_ns_per_byte = (f + d) / 2;
  std::printf(
      "gamma_ns_per_byte  %8.4f   MPI_Reduce_local MPI_SUM over 4 MiB, best of 21: "
      "float %.4f, double %.4f (their mean)\n",
      model->gamma_ns_per_byte, f, d);
  char line[200];
  std::snprintf(line, sizeof line,
                "# gamma_ns_per_byte: MPI_Reduce_local MPI_SUM over 4 MiB on rank 0, mean of "
                "float %.3g and double %.3g\n",
                f, d);
  *notes += line;
}

// Every rank at once, in pairs (0,1), (2,3), ...: α while the ranks outnumber the cores. All
// pairs start together and do the same work, so they contend throughout. Each pair's median
// (contention is what is measured, so not its best run), averaged over the pairs on rank 0.
// A last odd rank sits out.
double measure_oversubscribed(int rank, int size) {
  double mine = -1;
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank % 2 == 1) {
    tune::serve(rank - 1);
  } else if (rank + 1 < size) {
    tune::PingPong ping(rank + 1);
    mine = ping.measure_runs(8, 15, 100).median;
  }
  std::vector<double> all(static_cast<size_t>(size));
  MPI_Gather(&mine, 1, MPI_DOUBLE, all.data(), 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  std::vector<double> pairs;
  for (double t : all)
    if (t >= 0) pairs.push_back(t);
  if (rank == 0) {
    std::printf("8 B ping-pong, half round trip, median per pair:");
    for (double t : pairs) std::printf(" %.2f", t * 1e6);
    std::printf(" us\n");
  }
  double sum = 0;
  for (double t : pairs) sum += t;
  return pairs.empty() ? 0 : sum / double(pairs.size());
}

// alpha_region_us and beta_region_ns_per_byte from `times` (tune::region_seconds).
void note_region(const tune::RegionTimes& times, CostModel* model, const std::string& origin,
                 std::string* notes) {
  if (times.handover < 0) {
    std::printf("alpha_region_us, beta_region_ns_per_byte   %.3f, %.4f   not measured: ranks 0 "
                "and 1 have no node region (another node, WEFT_SHM=0 or WEFT_SHM_COLL=0); kept "
                "from %s\n",
                model->alpha_region_us, model->beta_region_ns_per_byte, origin.c_str());
    *notes += "# alpha_region_us, beta_region_ns_per_byte: not measured (no node region between "
              "ranks 0 and 1); kept from " + origin + "\n";
    return;
  }
  model->alpha_region_us = times.handover * 1e6;
  model->beta_region_ns_per_byte = times.per_byte * 1e9;
  std::printf("alpha_region_us    %8.3f   8 B broadcasts through the node region, roots "
              "alternating, best of 7 runs\n",
              model->alpha_region_us);
  std::printf("beta_region_ns_per_byte %8.4f   16 KiB such broadcasts against 8 B ones, per byte "
              "copied (twice a call)\n",
              model->beta_region_ns_per_byte);
  *notes += "# alpha_region_us: 8 B shm broadcasts between ranks 0 and 1, roots alternating\n"
            "# beta_region_ns_per_byte: 16 KiB such broadcasts against 8 B ones\n";
}

// Rank 0's part of a run on dedicated cores. Returns the exit status.
// `other_node`: ranks 0 and 1 run on different nodes, so the link measured is the other-node one
// and the same-node values are kept. `region`: the node region's costs, if measured.
int lead(const std::string& path, const std::string& hosts, int size, bool force, bool other_node,
         const tune::RegionTimes& region) {
  std::string origin, notes;
  CostModel model = previous_model(path, &origin);
  bool busy = false;
  measure_dedicated(measured_link(&model, other_node), &model, &notes, &busy);
  measure_reduction(&model, &notes);
  note_region(region, &model, origin, &notes);
  tune::measure_gpu_values(&model, origin, &notes);
  const Link kept = measured_link(&model, !other_node);
  std::printf("%s, %s not measured: ranks 0 and 1 run on %s; kept from %s\n", kept.alpha_name,
              kept.beta_name, other_node ? "different nodes" : "one node", origin.c_str());
  notes += std::string("# ") + kept.alpha_name + ", " + kept.beta_name +
           ": not measured (ranks 0 and 1 on " + (other_node ? "different nodes" : "one node") +
           "); kept from " + origin + "\n";
  std::printf(
      "alpha_oversubscribed_us %.3f   not measured: %d ranks on %ld cores do not "
      "oversubscribe (run weft_tune with more ranks than cores for it); kept from %s\n",
      model.alpha_oversubscribed_us, size, sysconf(_SC_NPROCESSORS_ONLN), origin.c_str());
  notes += "# alpha_oversubscribed_us: not measured (ranks did not outnumber cores); kept from " +
           origin + "\n";
  if (busy) {
    std::printf(
        "\nOther work disturbed the runs: some medians are over %.1fx the best run, or alpha is "
        "over %.0f us\n(two ranks spinning on one core pay a whole WEFT_SPIN_US per message). "
        "Rerun on a quiet machine%s.\n",
        kBusyRatio, kSlowAlphaUs, force ? "; writing anyway (--force)" : ", or pass --force");
    if (!force) {
      std::printf("nothing written\n");
      return 1;
    }
    notes += "# written with --force although other work disturbed the runs\n";
  }
  return write_tuning(path, hosts, size, notes, model) ? 0 : 1;
}

// Every rank, oversubscribed: only alpha_oversubscribed_us is measured.
int lead_oversubscribed(int rank, int size, const std::string& path, const std::string& hosts) {
  std::string origin;
  CostModel model;
  if (rank == 0) model = previous_model(path, &origin);
  const double alpha = measure_oversubscribed(rank, size);
  if (rank != 0) return 0;
  model.alpha_oversubscribed_us = alpha * 1e6;
  std::printf("alpha_oversubscribed_us %.3f   mean over the pairs\n",
              model.alpha_oversubscribed_us);
  std::printf(
      "not measured, since oversubscription would distort them: alpha_us, "
      "beta_ns_per_byte, alpha_inter_us, beta_inter_ns_per_byte, gamma_ns_per_byte, "
      "segment_bytes; kept from %s\n",
      origin.c_str());
  const std::string notes =
      "# alpha_oversubscribed_us: 8 B ping-pong half round trip with every rank busy in pairs, "
      "mean over the pairs of each pair's median\n"
      "# the other values are not measured while oversubscribed: kept from " +
      origin + "\n";
  return write_tuning(path, hosts, size, notes, model) ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  // Broadcasts go through node regions where they can (tune::region_seconds).
  setenv("WEFT_BCAST_ALGORITHM", "shm", 0);
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const Options options = parse(argc, argv);
  if (options.help || !options.error.empty() || size < 2) {
    if (rank == 0 && options.help) std::printf("%s", kUsage);
    if (rank == 0 && !options.error.empty()) {
      std::fprintf(stderr, "weft_tune: %s\n%s", options.error.c_str(), kUsage);
    } else if (rank == 0 && !options.help) {
      std::fprintf(stderr,
                   "weft_tune: needs at least 2 ranks to time messages between them; run it as "
                   "`weftrun -n 2 weft_tune`\n");
    }
    std::fflush(stdout);
    MPI_Finalize();
    return rank != 0 || options.help ? 0 : options.error.empty() ? 1 : 2;
  }
  const std::string path = options.output.empty() ? weft::coll::auto_tuning_path() : options.output;
  // Rank 0 decides: {oversubscribed, somewhere to write, ranks 0 and 1 on one node}.
  const std::vector<std::string> all_hosts = gather_hosts(rank, size);
  int plan[3] = {rank == 0 && node_oversubscribed(all_hosts) ? 1 : 0, path.empty() ? 0 : 1,
                 rank == 0 && all_hosts[0] == all_hosts[1] ? 1 : 0};
  MPI_Bcast(plan, 3, MPI_INT, 0, MPI_COMM_WORLD);
  if (plan[1] == 0) {
    if (rank == 0) {
      std::fprintf(stderr, "weft_tune: neither XDG_CONFIG_HOME nor HOME is set: pass -o FILE\n");
    }
    MPI_Finalize();
    return rank == 0 ? 2 : 0;
  }
  // Where ranks 0 and 1 run, for the header.
  std::string hosts;
  if (rank == 0) {
    hosts = all_hosts[0] == all_hosts[1] ? all_hosts[0] : all_hosts[0] + " and " + all_hosts[1];
    std::printf("weft_tune: %d ranks, ranks 0 and 1 on %s, %ld cores online%s\n\n", size,
                hosts.c_str(), sysconf(_SC_NPROCESSORS_ONLN),
                plan[0] ? ": oversubscribed, measuring alpha_oversubscribed_us only" : "");
  }

  // The node region's costs, between ranks 0 and 1 of one node on dedicated cores.
  tune::RegionTimes region;
  MPI_Comm pair = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, rank < 2 && plan[0] == 0 && plan[2] != 0 ? 0 : MPI_UNDEFINED,
                 rank, &pair);
  if (pair != MPI_COMM_NULL) {
    region = tune::region_seconds(pair, 7);
    MPI_Comm_free(&pair);
  }

  int status = 0;
  if (plan[0] != 0) {
    status = lead_oversubscribed(rank, size, path, hosts);
  } else if (rank == 0) {
    status = lead(path, hosts, size, options.force, all_hosts[0] != all_hosts[1],
                  region);
  } else if (rank == 1) {
    tune::serve(0);
  }
  // Rank 0 alone reports failure, once everything it printed is out.
  std::fflush(stdout);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return rank == 0 ? status : 0;
}
