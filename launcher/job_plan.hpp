// The JobSpec weftrun builds from its options: the placement of ranks on hosts (which of them is
// this machine), the app contexts with their programs found and directories checked, and the
// environment every rank starts from.
#pragma once
#include <string>

#include "launcher/args.hpp"
#include "launcher/job_spec.hpp"

namespace weft::launcher {

// Fills *spec (spec->launcher_node: the node that is this machine, or -1); returns "" or a one-
// line reason (a program not found, a working directory that is not one, a placement error).
std::string plan_job(const LaunchOptions& options, JobSpec* spec);
// A host name that means the machine weftrun runs on ("localhost" included).
bool is_this_host(const std::string& name);

}  // namespace weft::launcher
