// Every algorithm Weft has, one per file in this folder; coll/registry.cpp lists them. The
// *Shm ones move data through the communicator's node region (coll/node_region.hpp), the
// *SingleCopy ones post addresses there and read each other's buffers directly.
#pragma once
#include "coll/algorithm.hpp"

namespace weft::coll {

extern const Algorithm kBarrierDissemination, kBarrierShm, kBarrierHierarchical, kBarrierLinear;
extern const Algorithm kBcastBinomial, kBcastScatterAllgather, kBcastPipeline, kBcastShm,
    kBcastSingleCopy, kBcastHierarchical, kBcastLinear;
extern const Algorithm kReduceBinomial, kReduceRabenseifner, kReduceShm, kReduceHierarchical,
    kReduceLinear;
extern const Algorithm kAllreduceRecursiveDoubling, kAllreduceRing, kAllreduceRabenseifner,
    kAllreduceReduceBcast, kAllreduceShm, kAllreduceSingleCopy, kAllreduceHierarchical,
    kAllreduceLinear;
extern const Algorithm kGatherBinomial, kGatherLinear;
extern const Algorithm kScatterBinomial, kScatterLinear;
extern const Algorithm kAllgatherRing, kAllgatherRecursiveDoubling, kAllgatherBruck, kAllgatherShm,
    kAllgatherSingleCopy, kAllgatherHierarchical, kAllgatherLinear;
extern const Algorithm kReduceScatterRing, kReduceScatterHalving, kReduceScatterPairwise,
    kReduceScatterShm, kReduceScatterSingleCopy, kReduceScatterLinear;
extern const Algorithm kAlltoallPairwise, kAlltoallBruck, kAlltoallBounded, kAlltoallShm,
    kAlltoallLinear;
extern const Algorithm kScanRecursiveDoubling, kScanLinear;
extern const Algorithm kExscanRecursiveDoubling, kExscanLinear;
extern const Algorithm kNeighborAllgatherLinear;
extern const Algorithm kNeighborAlltoallLinear;
// Intercommunicators (coll/algorithms/inter_*.cpp): one algorithm per collective.
extern const Algorithm kInterBarrier, kInterBcast, kInterReduce, kInterAllreduce, kInterGather,
    kInterScatter, kInterAllgather, kInterAlltoall, kInterReduceScatter;

}  // namespace weft::coll
