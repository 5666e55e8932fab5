// The transport of a rank with peers on its node: the node's shared-memory transport for those
// peers, the network transport (UCX) for all others, each pair of ranks always on the same one
// (so MPI's order between two ranks is the order of one transport). A receive from
// MPI_ANY_SOURCE in a job that spans nodes is posted to both; the shared-memory side asks the
// network side to cancel its half before it delivers (pt2pt/shm/matching.hpp MatchGuard), so
// exactly one message completes it.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "pt2pt/shm/shm_transport.hpp"
#include "pt2pt/transport.hpp"

namespace weft {

// `spans_nodes`: some rank of the job is on another node.
std::unique_ptr<Transport> make_hybrid_transport(std::unique_ptr<Transport> net,
                                                 std::unique_ptr<shm::ShmTransport> node,
                                                 bool spans_nodes);

}  // namespace weft
