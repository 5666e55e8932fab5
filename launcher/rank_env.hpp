// The environment each rank starts with: weftrun's own, plus -x/--set values, the WEFT_*/RANK
// identity variables, and Weft's defaults. Pure (unit-tested).
#pragma once
#include <map>
#include <string>
#include <vector>

#include "launcher/args.hpp"

namespace weft::launcher {

using EnvMap = std::map<std::string, std::string>;

EnvMap parse_environ(char** environ_array);
// The environment common to every rank of the job; `one_node`: every rank is on this node.
EnvMap job_environment(const EnvMap& inherited, const LaunchOptions& options, bool one_node);
// When the environment's WEFT_PROFILE asks for a profile, appends `library` (the profiler) to
// LD_PRELOAD. False with `error` set for an unknown kind or a profiler not found ("" library).
bool add_profiler(EnvMap* env, const std::string& library, std::string* error);
// Adds rank `rank`'s identity variables: its rank and size in the job and on its node.
void add_rank_identity(EnvMap* env, int rank, int nranks, int local_rank, int local_size);
std::vector<std::string> to_strings(const EnvMap& env);

}  // namespace weft::launcher
