// weft_info --coll: the collectives' algorithms and the choice for one call shape, predicted by
// the same Selector, tuning file and WEFT_<COLL>_ALGORITHM settings that MPI_Init sets up.
#include "runtime/info/coll_info.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "coll/configure.hpp"
#include "coll/nccl_call.hpp"
#include "coll/nccl_path.hpp"
#include "coll/registry.hpp"
#include "coll/regular_call.hpp"
#include "runtime/config.hpp"
#include "runtime/info/info_text.hpp"
#include "runtime/info/nccl_info.hpp"

namespace weft::info {
namespace {

using coll::CollKind;

constexpr const char* kUsage =
    "usage: weft_info --coll [list]\n"
    "       weft_info --coll NAME --ranks N --bytes SIZE [--noncommutative] [--oversubscribed]\n"
    "                 [--root R] [--nodes K]\n"
    "SIZE takes k, m, g suffixes (1M = 1048576): the vector for bcast, reduce, allreduce, scan\n"
    "and exscan; one rank's block for gather, scatter, allgather, reduce_scatter and alltoall;\n"
    "one neighbour's block for neighbor_allgather and neighbor_alltoall (on a periodic ring).\n"
    "--nodes K spreads the ranks over K nodes, consecutive ranks together (default 1).\n";

struct Query {
  CollKind kind = CollKind::kBarrier;
  long ranks = 0;
  long root = 0;
  long nodes = 1;
  size_t bytes = 0;
  bool have_bytes = false;
  bool noncommutative = false;
  bool oversubscribed = false;
};

bool is_reduction(CollKind k) {
  return k == CollKind::kReduce || k == CollKind::kAllreduce || k == CollKind::kReduceScatter ||
         k == CollKind::kScan || k == CollKind::kExscan;
}
bool has_root(CollKind k) {
  return k == CollKind::kBcast || k == CollKind::kReduce || k == CollKind::kGather ||
         k == CollKind::kScatter;
}
bool per_rank_block(CollKind k) {
  return k == CollKind::kGather || k == CollKind::kScatter || k == CollKind::kAllgather ||
         k == CollKind::kReduceScatter || k == CollKind::kAlltoall;
}
// weft_info models a neighbourhood collective on a periodic ring (coll/regular_call.cpp).
bool neighbourhood(CollKind k) {
  return k == CollKind::kNeighborAllgather || k == CollKind::kNeighborAlltoall;
}

// "4096", "64k", "1M", "2G" (binary multiples).
bool parse_size(const char* text, size_t* out) {
  if (*text < '0' || *text > '9') return false;
  char* end = nullptr;
  errno = 0;
  const unsigned long long n = std::strtoull(text, &end, 10);
  if (errno != 0) return false;
  int shift = 0;
  switch (*end) {
    case '\0':
      break;
    case 'k':
    case 'K':
      shift = 10;
      break;
    case 'm':
    case 'M':
      shift = 20;
      break;
    case 'g':
    case 'G':
      shift = 30;
      break;
    default:
      return false;
  }
  if (*end != '\0' && end[1] != '\0') return false;
  if (shift > 0 && n > (~0ull >> shift)) return false;
  *out = size_t(n << shift);
  return true;
}

bool parse_long(const char* text, long lo, long hi, long* out) {
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || v < lo || v > hi) return false;
  *out = v;
  return true;
}

int list_collectives() {
  std::printf("Collectives and their algorithms (ties go to the one listed first):\n");
  int width = 0;  // the longest collective name
  for (int k = 0; k < coll::kNumCollKinds; ++k)
    width = std::max(width, int(std::strlen(coll::coll_name(CollKind(k)))));
  for (int k = 0; k < coll::kNumCollKinds; ++k) {
    const CollKind kind = CollKind(k);
    const std::string setting = coll::algorithm_setting(kind);
    const std::string value = setting_value(setting.c_str());
    std::printf("  %-*s  %s%s", width, coll::coll_name(kind), coll::algorithm_names(kind).c_str(),
                coll::nccl_runs(kind) ? ", nccl" : "");
    if (!value.empty() && value != "auto")
      std::printf("   [%s=%s]", setting.c_str(), value.c_str());
    std::printf("\n");
  }
  std::printf(
      "Force one with WEFT_<COLL>_ALGORITHM=name; see a choice explained with\n"
      "  weft_info --coll NAME --ranks N --bytes SIZE\n");
  print_nccl();
  return 0;
}

// "allreduce of 1 MiB on 8 ranks, commutative op",
// "neighbor_alltoall of 1 KiB to each neighbour on 4 ranks in a periodic ring (2 neighbours each)".
std::string describe(const Query& q) {
  std::string d = coll::coll_name(q.kind);
  if (q.kind != CollKind::kBarrier) {
    d += " of " + bytes_text(double(q.bytes));
    if (q.kind == CollKind::kAlltoall) {
      d += " to each rank";
    } else if (q.kind == CollKind::kNeighborAlltoall) {
      d += " to each neighbour";
    } else if (per_rank_block(q.kind) || q.kind == CollKind::kNeighborAllgather) {
      d += " per rank";
    }
  }
  if (has_root(q.kind)) {
    const bool to_root = q.kind == CollKind::kReduce || q.kind == CollKind::kGather;
    d += (to_root ? " to root " : " from root ") + std::to_string(q.root);
  }
  d += " on " + std::to_string(q.ranks) + (q.ranks == 1 ? " rank" : " ranks");
  if (q.nodes > 1) d += " on " + std::to_string(q.nodes) + " nodes";
  if (neighbourhood(q.kind)) d += " in a periodic ring (2 neighbours each)";
  if (is_reduction(q.kind)) d += q.noncommutative ? ", non-commutative op" : ", commutative op";
  return d;
}

void print_model(const Query& q, const std::string& path, const coll::CostModel& file_model,
                 const coll::CostModel& m) {
  if (!path.empty()) {
    std::printf("tuning: %s\n", path.c_str());
  } else if (setting_value("WEFT_TUNING_FILE") != "auto") {
    std::printf("tuning: built-in defaults (WEFT_TUNING_FILE names no readable file)\n");
  } else {
    const std::string where = coll::auto_tuning_path();
    std::printf("tuning: built-in defaults (no %s; weft_tune writes it)\n",
                where.empty() ? "tuning file" : where.c_str());
  }
  std::printf("model:  alpha %g us%s, beta %g ns/B, gamma %g ns/B, segment %s\n", m.alpha_us,
              q.oversubscribed ? " (alpha_oversubscribed_us)" : "", m.beta_ns_per_byte,
              m.gamma_ns_per_byte, bytes_text(double(m.segment_bytes)).c_str());
  std::printf("        node region (shm): a hand-over %g us%s, a byte copied in or out %g ns\n",
              m.alpha_region_us, q.oversubscribed ? " (with the context switch)" : "",
              m.beta_region_ns_per_byte);
  if (q.nodes > 1) {
    std::printf(
        "        to another node: alpha %g us, beta %g ns/B (flat algorithms pay these in "
        "every round)\n",
        m.alpha_inter_us, m.beta_inter_ns_per_byte);
  }
  const long cores = sysconf(_SC_NPROCESSORS_ONLN);
  const long per_node = (q.ranks + q.nodes - 1) / q.nodes;  // on the fullest node
  if (!q.oversubscribed && cores > 0 && per_node > cores) {
    std::printf(
        "        (%ld ranks on this node's %ld cores would be oversubscribed: add "
        "--oversubscribed for alpha %g us)\n",
        per_node, cores, file_model.alpha_oversubscribed_us);
  }
}

int explain(const Query& q) {
  std::vector<std::string> problems;
  std::string path;
  const coll::CostModel file_model = coll::configured_model(&path, &problems);
  coll::Selector selector;
  selector.set_model(coll::effective_model(file_model, q.oversubscribed));
  coll::force_from_settings(&selector, &problems);
  for (const std::string& p : problems) std::printf("warning: %s\n", p.c_str());

  coll::RegularCall call;
  call.kind = q.kind;
  call.size = int(q.ranks);
  call.root = int(q.root);
  call.bytes = q.bytes;
  call.commutative = !q.noncommutative;
  call.segment_bytes = selector.model().segment_bytes;
  call.nodes = int(q.nodes);
  coll::CollArgs args = coll::regular_args(call);
  // On one node a communicator has a node region (coll/node_region.hpp), unless turned off or
  // every region is held; the shm algorithms are then candidates.
  if (call.nodes <= 1 && setting_long("WEFT_SHM_COLL", 1) != 0)
    args.region_bytes = size_t(setting_long("WEFT_SHM_COLL_BYTES", 16384));

  std::printf("%s\n", describe(q).c_str());
  print_model(q, path, file_model, selector.model());

  std::vector<coll::Candidate> candidates = selector.candidates(args);
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const coll::Candidate& a, const coll::Candidate& b) {
                     return a.accepts && (!b.accepts || a.seconds < b.seconds);
                   });
  const coll::Algorithm* chosen = selector.choose(args);
  int width = int(std::strlen("algorithm"));  // the name column fits the longest name
  for (const coll::Candidate& c : candidates)
    width = std::max(width, int(std::strlen(c.algorithm->name)));
  // Across nodes, rounds and bytes moved show the other-node part after a slash.
  const bool across = coll::spans_nodes(args);
  std::printf("\n   %-*s  %10s  %9s  %21s  %10s\n", width, "algorithm", "predicted",
              across ? "rounds/far" : "rounds", across ? "moved/to other nodes" : "moved",
              "reduced");
  for (const coll::Candidate& c : candidates) {
    const char* mark = c.algorithm == chosen ? " * " : "   ";
    if (!c.accepts) {
      std::printf("%s%-*s  cannot take the call: %s\n", mark, width, c.algorithm->name,
                  coll::rejection_reason(*c.algorithm, args).c_str());
      continue;
    }
    const coll::Cost cost = c.algorithm->cost(args);
    char rounds[32];
    std::string moved = bytes_text(cost.bytes);
    if (across) {
      std::snprintf(rounds, sizeof rounds, "%g/%g", cost.rounds, cost.rounds - cost.node_rounds);
      moved += "/" + bytes_text(cost.bytes - cost.node_bytes);
    } else if (cost.syncs > 0 && cost.rounds > 0) {  // posts by reference, then reads
      std::snprintf(rounds, sizeof rounds, "%g post+%g", cost.syncs, cost.rounds);
    } else if (cost.syncs > 0) {  // a node region's algorithm: hand-overs and copies instead
      std::snprintf(rounds, sizeof rounds, "%g post", cost.syncs);
      moved = bytes_text(cost.region_bytes) + " copied";
    } else {
      std::snprintf(rounds, sizeof rounds, "%g", cost.rounds);
    }
    std::printf("%s%-*s  %10s  %9s  %21s  %10s\n", mark, width, c.algorithm->name,
                seconds_text(c.seconds).c_str(), rounds, moved.c_str(),
                bytes_text(cost.reduced).c_str());
  }

  coll::Selector unforced;
  unforced.set_model(selector.model());
  const coll::Algorithm* by_model = unforced.choose(args);
  const coll::Algorithm* forced = selector.forced(q.kind);
  const std::string setting = coll::algorithm_setting(q.kind);
  std::printf("\n");
  if (selector.nccl_forced(q.kind)) {
    std::string library;
    const bool loads = coll::describe_nccl(&library);
    std::printf("%s=nccl: blocking calls on device buffers go to NCCL (%s%s); the rest, and\n"
                "calls NCCL cannot run, use the model's choice:\n",
                setting.c_str(), loads ? "" : "not available: ", library.c_str());
  }
  if (forced != nullptr && forced == chosen) {
    std::printf("chosen: %s, forced by %s=%s", chosen->name, setting.c_str(), forced->name);
    if (by_model != chosen) std::printf(" (the model alone would choose %s)", by_model->name);
    std::printf("\n");
  } else {
    if (forced != nullptr) {
      std::printf("%s=%s is set, but %s cannot take this call (%s), so the model chooses.\n",
                  setting.c_str(), forced->name, forced->name,
                  coll::rejection_reason(*forced, args).c_str());
    }
    std::printf("chosen: %s, the cheapest predicted of those that can take the call\n",
                chosen->name);
  }
  print_device_choice(selector, args);
  return 0;
}

}  // namespace

int coll_main(int argc, char** argv) {
  if (argc == 0 || (argc == 1 && std::strcmp(argv[0], "list") == 0)) return list_collectives();
  if (std::strcmp(argv[0], "-h") == 0 || std::strcmp(argv[0], "--help") == 0) {
    std::printf("%s", kUsage);
    return 0;
  }
  Query q;
  if (!coll::find_coll_kind(argv[0], &q.kind)) {
    std::string names;
    for (int k = 0; k < coll::kNumCollKinds; ++k)
      names += std::string(k ? ", " : "") + coll::coll_name(CollKind(k));
    std::fprintf(stderr, "weft_info: no collective '%s' (choose from: %s)\n", argv[0],
                 names.c_str());
    return 2;
  }
  bool have_root = false;
  for (int i = 1; i < argc; ++i) {
    const char* opt = argv[i];
    const bool takes_value = std::strcmp(opt, "--ranks") == 0 || std::strcmp(opt, "--bytes") == 0 ||
                             std::strcmp(opt, "--root") == 0 || std::strcmp(opt, "--nodes") == 0;
    if (takes_value && i + 1 >= argc) {
      std::fprintf(stderr, "weft_info: %s needs a value\n%s", opt, kUsage);
      return 2;
    }
    bool ok = true;
    if (std::strcmp(opt, "--ranks") == 0) {
      ok = parse_long(argv[++i], 1, 1L << 24, &q.ranks);
    } else if (std::strcmp(opt, "--bytes") == 0) {
      ok = q.have_bytes = parse_size(argv[++i], &q.bytes);
    } else if (std::strcmp(opt, "--root") == 0) {
      ok = have_root = parse_long(argv[++i], 0, 1L << 24, &q.root);
    } else if (std::strcmp(opt, "--nodes") == 0) {
      ok = parse_long(argv[++i], 1, 1L << 24, &q.nodes);
    } else if (std::strcmp(opt, "--noncommutative") == 0) {
      q.noncommutative = true;
    } else if (std::strcmp(opt, "--oversubscribed") == 0) {
      q.oversubscribed = true;
    } else {
      std::fprintf(stderr, "weft_info: unknown option '%s'\n%s", opt, kUsage);
      return 2;
    }
    if (!ok) {
      std::fprintf(stderr, "weft_info: invalid value '%s' for %s\n%s", argv[i], opt, kUsage);
      return 2;
    }
  }
  if (q.ranks == 0) {
    std::fprintf(stderr, "weft_info: --coll %s needs --ranks N\n%s", argv[0], kUsage);
    return 2;
  }
  if (!q.have_bytes && q.kind != CollKind::kBarrier) {
    std::fprintf(stderr, "weft_info: --coll %s needs --bytes SIZE\n%s", argv[0], kUsage);
    return 2;
  }
  if (q.root >= q.ranks) {
    std::fprintf(stderr, "weft_info: --root %ld is not a rank of %ld\n", q.root, q.ranks);
    return 2;
  }
  if (q.nodes > q.ranks) {
    std::fprintf(stderr, "weft_info: --nodes %ld is more than the %ld ranks\n", q.nodes, q.ranks);
    return 2;
  }
  if (have_root && !has_root(q.kind))
    std::printf("note: %s has no root; --root ignored\n", argv[0]);
  if (q.noncommutative && !is_reduction(q.kind)) {
    std::printf("note: %s reduces nothing; --noncommutative ignored\n", argv[0]);
    q.noncommutative = false;
  }
  return explain(q);
}

}  // namespace weft::info
