// Where a job's ranks go: the hosts and slots given with --host/--hostfile (Open MPI's and
// MPICH's spellings), and the placement of ranks on them (--map-by, --npernode). Pure (unit-tested).
#pragma once
#include <string>
#include <vector>

namespace weft::launcher {

struct HostSlots {
  std::string name;
  int slots = 1;  // a host named without a count has one slot
};

// A count on weftrun's command line or in a hostfile: an integer in 1..2^20.
bool parse_count(const std::string& text, int* out);

// "h1:4,h2,h3:2" (--host, -H, -hosts). Returns false with `error` naming the bad entry.
bool parse_host_list(const std::string& text, std::vector<HostSlots>* out, std::string* error);

// A hostfile: one host a line as "name", "name slots=N", "name:N" (also "max_slots=" ignored);
// '#' starts a comment; blank lines are skipped. `origin` names the file in errors.
bool parse_hostfile(const std::string& text, const std::string& origin,
                    std::vector<HostSlots>* out, std::string* error);

// The hosts and slots of a Slurm allocation, from its variables: SLURM_JOB_NODELIST in Slurm's
// hostlist form ("n[1-3,7],gpu[01-02]"), slots per node from SLURM_TASKS_PER_NODE ("2(x3),1")
// or else SLURM_JOB_CPUS_PER_NODE (same form). False with `error` when they cannot be read.
bool slurm_allocation(const std::string& nodelist, const std::string& tasks_per_node,
                      std::vector<HostSlots>* out, std::string* error);

enum class MapBy { kSlot, kNode };

// The job's nodes and each rank's node. Nodes appear once each, in the order first given (a host
// named twice adds its slots); only nodes that get ranks are kept.
struct Placement {
  std::vector<std::string> nodes;
  std::vector<int> node_of_rank;
  // Ranks on node `n`, in rank order.
  std::vector<int> ranks_on(int node) const;
};

// kSlot fills each host's slots before the next (then starts over from the first host when ranks
// outnumber slots, as MPICH does); kNode deals ranks round-robin over the hosts. `per_node` > 0
// (--npernode) puts exactly that many on each host in turn, whatever the slots. Fails when
// `hosts` is empty or per_node leaves ranks without a host.
bool place_ranks(const std::vector<HostSlots>& hosts, int nranks, MapBy map_by, int per_node,
                 Placement* out, std::string* error);

}  // namespace weft::launcher
