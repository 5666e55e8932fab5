// CPU binding of ranks.
#include "launcher/binding.hpp"

#include <sched.h>

namespace weft::launcher {

std::vector<int> allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) cpus.push_back(c);
  return cpus;
}

std::vector<int> plan_binding(Binding binding, int nranks, const std::vector<int>& cpus) {
  std::vector<int> plan(static_cast<size_t>(nranks), -1);
  const bool bind = !cpus.empty() && (binding == Binding::kCore ||
                                      (binding == Binding::kAuto && nranks <= int(cpus.size())));
  if (!bind) return plan;
  for (int r = 0; r < nranks; ++r) plan[size_t(r)] = cpus[size_t(r) % cpus.size()];
  return plan;
}

}  // namespace weft::launcher
