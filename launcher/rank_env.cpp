// Building ranks' environments.
#include "launcher/rank_env.hpp"

#include "profile/kinds.hpp"

namespace weft::launcher {

EnvMap parse_environ(char** environ_array) {
  EnvMap env;
  for (char** e = environ_array; e != nullptr && *e != nullptr; ++e) {
    const std::string entry = *e;
    const size_t eq = entry.find('=');
    if (eq != std::string::npos) env.emplace(entry.substr(0, eq), entry.substr(eq + 1));
  }
  return env;
}

EnvMap job_environment(const EnvMap& inherited, const LaunchOptions& options, bool one_node) {
  EnvMap env = inherited;
  for (const auto& [name, value] : options.exports) {
    if (value) {
      env[name] = *value;
    }  // -x VAR without a value passes weftrun's own value, which is inherited already
  }
  for (const auto& [name, value] : options.settings) env[name] = value;
  // A job on this node alone needs no network device: keep any traffic UCX or libfabric's
  // tcp and sockets providers might open on loopback unless the user chose devices. A job on
  // several nodes uses each node's own devices.
  if (one_node) {
    env.emplace("UCX_NET_DEVICES", "lo");
    env.emplace("FI_TCP_IFACE", "lo");
    env.emplace("FI_SOCKETS_IFACE", "lo");
  }
  return env;
}

bool add_profiler(EnvMap* env, const std::string& library, std::string* error) {
  const auto wanted = env->find("WEFT_PROFILE");
  if (wanted == env->end()) return true;
  profile::Kinds kinds;
  if (!profile::parse_kinds(wanted->second, "WEFT_PROFILE", &kinds, error)) return false;
  if (!kinds.any()) return true;
  if (library.empty()) {
    *error = "WEFT_PROFILE=" + wanted->second +
             " needs the profiler libweft_profile.so, which is not in the library directory "
             "beside weftrun's";
    return false;
  }
  std::string& preload = (*env)["LD_PRELOAD"];
  preload = preload.empty() ? library : preload + ":" + library;
  return true;
}

void add_rank_identity(EnvMap* env, int rank, int nranks, int local_rank, int local_size) {
  const std::string r = std::to_string(rank), n = std::to_string(nranks);
  const std::string lr = std::to_string(local_rank), ls = std::to_string(local_size);
  for (const char* name : {"WEFT_RANK", "RANK"}) (*env)[name] = r;
  for (const char* name : {"WEFT_SIZE", "WORLD_SIZE"}) (*env)[name] = n;
  for (const char* name : {"WEFT_LOCAL_RANK", "LOCAL_RANK"}) (*env)[name] = lr;
  for (const char* name : {"WEFT_LOCAL_SIZE", "LOCAL_WORLD_SIZE"}) (*env)[name] = ls;
}

std::vector<std::string> to_strings(const EnvMap& env) {
  std::vector<std::string> out;
  out.reserve(env.size());
  for (const auto& [name, value] : env) out.push_back(name + "=" + value);
  return out;
}

}  // namespace weft::launcher
