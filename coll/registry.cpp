// The algorithm registry: which algorithms exist for each collective (see coll/algorithms/).
#include "coll/registry.hpp"

#include <string>

#include "coll/algorithms/all.hpp"

namespace weft::coll {
namespace {

constexpr const char* kNames[kNumCollKinds] = {
    "barrier",          "bcast",          "reduce",   "allreduce", "gather", "scatter",
    "allgather",        "reduce_scatter", "alltoall", "scan",      "exscan", "neighbor_allgather",
    "neighbor_alltoall"};

// Linear reference forms last: on a tie the model prefers the structured algorithm. Node-aware
// ones after the flat ones: where every node has one rank they cost the same. The node-region
// (shm) ones take only calls of one node that fit the region (coll/node_region.hpp); the
// single_copy ones, calls of one node of any size (they post addresses only).
const Algorithm* const kBarrier[] = {&kBarrierDissemination, &kBarrierShm, &kBarrierHierarchical,
                                     &kBarrierLinear};
const Algorithm* const kBcast[] = {&kBcastBinomial, &kBcastScatterAllgather, &kBcastPipeline,
                                   &kBcastShm,      &kBcastSingleCopy,       &kBcastHierarchical,
                                   &kBcastLinear};
const Algorithm* const kReduce[] = {&kReduceBinomial, &kReduceRabenseifner, &kReduceShm,
                                    &kReduceHierarchical, &kReduceLinear};
const Algorithm* const kAllreduce[] = {&kAllreduceRecursiveDoubling,
                                       &kAllreduceRabenseifner,
                                       &kAllreduceRing,
                                       &kAllreduceReduceBcast,
                                       &kAllreduceShm,
                                       &kAllreduceSingleCopy,
                                       &kAllreduceHierarchical,
                                       &kAllreduceLinear};
const Algorithm* const kGather[] = {&kGatherBinomial, &kGatherLinear};
const Algorithm* const kScatter[] = {&kScatterBinomial, &kScatterLinear};
const Algorithm* const kAllgather[] = {
    &kAllgatherRecursiveDoubling, &kAllgatherBruck, &kAllgatherRing, &kAllgatherShm,
    &kAllgatherSingleCopy,        &kAllgatherHierarchical,    &kAllgatherLinear};
const Algorithm* const kReduceScatter[] = {&kReduceScatterHalving, &kReduceScatterRing,
                                           &kReduceScatterPairwise, &kReduceScatterShm,
                                           &kReduceScatterSingleCopy, &kReduceScatterLinear};
const Algorithm* const kAlltoall[] = {&kAlltoallBruck, &kAlltoallPairwise, &kAlltoallShm,
                                      &kAlltoallLinear};
const Algorithm* const kScan[] = {&kScanRecursiveDoubling, &kScanLinear};
const Algorithm* const kExscan[] = {&kExscanRecursiveDoubling, &kExscanLinear};
const Algorithm* const kNeighborAllgather[] = {&kNeighborAllgatherLinear};
const Algorithm* const kNeighborAlltoall[] = {&kNeighborAlltoallLinear};

}  // namespace

const char* coll_name(CollKind kind) { return kNames[int(kind)]; }

std::span<const Algorithm* const> algorithms_for(CollKind kind) {
  switch (kind) {
    case CollKind::kBarrier:
      return kBarrier;
    case CollKind::kBcast:
      return kBcast;
    case CollKind::kReduce:
      return kReduce;
    case CollKind::kAllreduce:
      return kAllreduce;
    case CollKind::kGather:
      return kGather;
    case CollKind::kScatter:
      return kScatter;
    case CollKind::kAllgather:
      return kAllgather;
    case CollKind::kReduceScatter:
      return kReduceScatter;
    case CollKind::kAlltoall:
      return kAlltoall;
    case CollKind::kScan:
      return kScan;
    case CollKind::kExscan:
      return kExscan;
    case CollKind::kNeighborAllgather:
      return kNeighborAllgather;
    case CollKind::kNeighborAlltoall:
      return kNeighborAlltoall;
  }
  return {};
}

const Algorithm* inter_algorithm(CollKind kind) {
  switch (kind) {
    case CollKind::kBarrier:
      return &kInterBarrier;
    case CollKind::kBcast:
      return &kInterBcast;
    case CollKind::kReduce:
      return &kInterReduce;
    case CollKind::kAllreduce:
      return &kInterAllreduce;
    case CollKind::kGather:
      return &kInterGather;
    case CollKind::kScatter:
      return &kInterScatter;
    case CollKind::kAllgather:
      return &kInterAllgather;
    case CollKind::kReduceScatter:
      return &kInterReduceScatter;
    case CollKind::kAlltoall:
      return &kInterAlltoall;
    default:
      return nullptr;
  }
}

const Algorithm* find_algorithm(CollKind kind, std::string_view name) {
  for (const Algorithm* a : algorithms_for(kind))
    if (name == a->name) return a;
  return nullptr;
}

bool find_coll_kind(std::string_view name, CollKind* out) {
  for (int k = 0; k < kNumCollKinds; ++k) {
    if (name == kNames[k]) {
      *out = CollKind(k);
      return true;
    }
  }
  return false;
}

std::string algorithm_names(CollKind kind) {
  std::string names;
  for (const Algorithm* a : algorithms_for(kind)) {
    if (!names.empty()) names += ", ";
    names += a->name;
  }
  return names;
}

}  // namespace weft::coll
