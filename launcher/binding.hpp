// Which CPU each rank runs on. By default each rank gets a CPU of its own when there are enough
// (as Open MPI does): a rank that the scheduler moves between cores, or that shares one with a
// peer it is waiting for, can take milliseconds per message on a busy machine.
#pragma once
#include <vector>

namespace weft::launcher {

enum class Binding { kAuto, kCore, kNone };

// The CPUs weftrun itself may run on (its affinity mask), in order.
std::vector<int> allowed_cpus();
// The CPU for each of `nranks` ranks, -1 for "not bound". kAuto binds only when every rank gets
// its own CPU; kCore binds round-robin over `cpus` whatever the count.
std::vector<int> plan_binding(Binding binding, int nranks, const std::vector<int>& cpus);

}  // namespace weft::launcher
