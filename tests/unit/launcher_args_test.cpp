// weftrun's argument parsing, rank environment and exit reporting.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>

#include <map>

#include "launcher/args.hpp"
#include "launcher/exit_report.hpp"
#include "launcher/rank_env.hpp"

using namespace weft::launcher;

namespace {
LaunchOptions parse_ok(std::vector<std::string> argv) {
  argv.insert(argv.begin(), "weftrun");
  LaunchOptions o;
  std::string error;
  INFO(error);
  REQUIRE(parse_args(argv, &o, &error));
  return o;
}
std::string parse_error(std::vector<std::string> argv) {
  argv.insert(argv.begin(), "weftrun");
  LaunchOptions o;
  std::string error;
  REQUIRE_FALSE(parse_args(argv, &o, &error));
  return error;
}
}  // namespace

TEST_CASE("rank count in every spelling") {
  CHECK(parse_ok({"-n", "4", "./a"}).nranks == 4);
  CHECK(parse_ok({"-np", "3", "./a"}).nranks == 3);
  CHECK(parse_ok({"--np", "2", "./a"}).nranks == 2);
  CHECK(parse_ok({"--np=5", "./a"}).nranks == 5);
  CHECK(parse_ok({"./a"}).nranks == 1);
}

TEST_CASE("the program and its own options are kept as given") {
  LaunchOptions o = parse_ok({"-n", "2", "./app", "-n", "7", "--tag-output"});
  REQUIRE(o.apps.size() == 1);
  CHECK(o.apps[0].argv == std::vector<std::string>{"./app", "-n", "7", "--tag-output"});
  CHECK_FALSE(o.tag_output);
  CHECK(parse_ok({"--", "-weird"}).apps[0].argv == std::vector<std::string>{"-weird"});
}

TEST_CASE("flags, timeout, exports and settings") {
  LaunchOptions o = parse_ok({"--tag-output", "--timeout", "2.5", "-x", "FOO", "-x", "BAR=1=2",
                              "--set", "spin_us=0", "./a"});
  CHECK(o.tag_output);
  CHECK(o.timeout_s == Approx(2.5));
  REQUIRE(o.exports.size() == 2);
  CHECK(o.exports[0].first == "FOO");
  CHECK_FALSE(o.exports[0].second.has_value());
  CHECK(o.exports[1].first == "BAR");
  CHECK(o.exports[1].second == std::optional<std::string>("1=2"));
  REQUIRE(o.settings.size() == 1);
  CHECK(o.settings[0] == std::pair<std::string, std::string>("WEFT_SPIN_US", "0"));
}

TEST_CASE("MPMD: app contexts separated by ':' with their own counts, directories and env") {
  LaunchOptions o = parse_ok({"-l", "-wdir", "/tmp", "-n", "1", "./a", "x", ":", "-np", "3",
                              "-wdir", "/var", "-env", "K", "v", "./b", "y", "z", ":", "./c"});
  CHECK(o.tag_output);
  CHECK(o.nranks == 5);
  CHECK(o.wdir == "/tmp");
  REQUIRE(o.apps.size() == 3);
  CHECK(o.apps[0].nranks == 1);
  CHECK(o.apps[0].argv == std::vector<std::string>{"./a", "x"});
  CHECK(o.apps[0].wdir.empty());
  CHECK(o.apps[1].nranks == 3);
  CHECK(o.apps[1].argv == std::vector<std::string>{"./b", "y", "z"});
  CHECK(o.apps[1].wdir == "/var");
  CHECK(o.apps[1].env == std::vector<std::pair<std::string, std::string>>{{"K", "v"}});
  CHECK(o.apps[2].nranks == 1);
  CHECK(o.apps[2].argv == std::vector<std::string>{"./c"});
}

TEST_CASE("hosts, hostfile spellings and placement options") {
  LaunchOptions o = parse_ok({"--host", "a:2,b", "-H", "c:3", "--map-by", "node", "-ppn", "2",
                              "--launch-agent", "rsh {host}", "./a"});
  REQUIRE(o.hosts.size() == 3);
  CHECK((o.hosts[0].name == "a" && o.hosts[0].slots == 2 && o.hosts[2].slots == 3));
  CHECK(o.map_by == MapBy::kNode);
  CHECK(o.per_node == 2);
  CHECK(o.launch_agent == "rsh {host}");
  CHECK(o.nranks == 6);  // no -n: --npernode on each host
  CHECK(parse_ok({"-hosts", "a:2,b:3", "./a"}).nranks == 5);  // no -n: one rank per slot
  CHECK(parse_ok({"-n", "2", "-hosts", "a:2,b:3", "./a"}).nranks == 2);
  CHECK(parse_error({"--map-by", "numa", "./a"}).find("'numa'") != std::string::npos);
  CHECK(parse_error({"-f", "/nonexistent/hosts", "./a"}).find("/nonexistent/hosts") !=
        std::string::npos);
}

TEST_CASE("inside a Slurm allocation the nodes become the hosts, started with srun") {
  std::map<std::string, std::string> env = {{"SLURM_JOB_NODELIST", "n[1-2]"},
                                            {"SLURM_TASKS_PER_NODE", "2(x2)"}};
  auto lookup = [&env](const char* name) -> const char* {
    auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  };
  LaunchOptions o = parse_ok({"./a"});
  std::string error;
  REQUIRE(use_slurm_allocation(lookup, &o, &error));
  REQUIRE(o.hosts.size() == 2);
  CHECK(o.hosts[1].name == "n2");
  CHECK(o.nranks == 4);
  CHECK(o.launch_agent.rfind("srun ", 0) == 0);
  // Given hosts, an explicit agent, or a job step (weftrun run as a task) are left alone.
  LaunchOptions given = parse_ok({"-n", "3", "--launch-agent", "rsh {host}", "./a"});
  REQUIRE(use_slurm_allocation(lookup, &given, &error));
  CHECK(given.nranks == 3);
  CHECK(given.launch_agent == "rsh {host}");
  env.emplace("SLURM_STEP_ID", "0");
  LaunchOptions in_step = parse_ok({"./a"});
  REQUIRE(use_slurm_allocation(lookup, &in_step, &error));
  CHECK(in_step.hosts.empty());
}

TEST_CASE("MPICH (Hydra) spellings") {
  LaunchOptions o = parse_ok({"-genv", "A", "1", "-genvlist", "B,C", "-envall", "-n", "2", "./a"});
  REQUIRE(o.exports.size() == 3);
  CHECK(o.exports[0] == std::pair<std::string, std::optional<std::string>>("A", "1"));
  CHECK(o.exports[1] == std::pair<std::string, std::optional<std::string>>("B", std::nullopt));
  CHECK(o.exports[2].first == "C");
  CHECK(o.nranks == 2);
}

TEST_CASE("MPMD mistakes are named") {
  CHECK(parse_error({"-n", "1", "./a", ":"}).find("no program") != std::string::npos);
  CHECK(parse_error({"-n", "1", "./a", ":", ":", "./b"}).find("no program") != std::string::npos);
  CHECK(parse_error({"./a", ":", "--timeout", "3", "./b"}).find("whole job") != std::string::npos);
  CHECK(parse_error({"-genv", "A"}).find("-genv needs a name and a value") != std::string::npos);
  CHECK(parse_error({"-genvlist", "A,,B", "./a"}).find("''") != std::string::npos);
}

TEST_CASE("help and version need no program") {
  CHECK(parse_ok({"--help"}).help);
  CHECK(parse_ok({"--version"}).version);
}

TEST_CASE("bad input gives an error naming it") {
  CHECK(parse_error({"--bogus", "./a"}).find("--bogus") != std::string::npos);
  CHECK(parse_error({"-n", "0", "./a"}).find("'0'") != std::string::npos);
  CHECK(parse_error({"-n", "x", "./a"}).find("'x'") != std::string::npos);
  CHECK(parse_error({"-n"}).find("needs a value") != std::string::npos);
  CHECK(parse_error({"--timeout", "-1", "./a"}).find("--timeout") != std::string::npos);
  CHECK(parse_error({"-x", "1BAD", "./a"}).find("1BAD") != std::string::npos);
  CHECK(parse_error({"--set", "novalue", "./a"}).find("novalue") != std::string::npos);
  CHECK(parse_error({"--transport", "psm", "./a"}).find("'psm'") != std::string::npos);
  CHECK(parse_error({"-n", "2"}).find("no program") != std::string::npos);
}

TEST_CASE("rank environment: identity, exports, settings, loopback default") {
  LaunchOptions o = parse_ok({"-x", "A=5", "--set", "poll_ms=7", "--transport=ofi", "./a"});
  EnvMap env = job_environment({{"HOME", "/root"}, {"A", "1"}}, o, true);
  add_rank_identity(&env, 5, 8, 1, 4);
  CHECK(env["HOME"] == "/root");
  CHECK(env["A"] == "5");
  CHECK(env["WEFT_POLL_MS"] == "7");
  CHECK(env["WEFT_TRANSPORT"] == "ofi");
  CHECK(env["UCX_NET_DEVICES"] == "lo");
  CHECK(env["FI_TCP_IFACE"] == "lo");
  for (const char* k : {"WEFT_RANK", "RANK"}) CHECK(env[k] == "5");
  for (const char* k : {"WEFT_SIZE", "WORLD_SIZE"}) CHECK(env[k] == "8");
  for (const char* k : {"WEFT_LOCAL_RANK", "LOCAL_RANK"}) CHECK(env[k] == "1");
  for (const char* k : {"WEFT_LOCAL_SIZE", "LOCAL_WORLD_SIZE"}) CHECK(env[k] == "4");
  // A user's own choice of UCX devices is kept; a job on several nodes is not held to loopback.
  CHECK(job_environment({{"UCX_NET_DEVICES", "eth0"}}, o, true)["UCX_NET_DEVICES"] == "eth0");
  CHECK(job_environment({}, o, false).count("UCX_NET_DEVICES") == 0);
}

TEST_CASE("profiler: --profile and WEFT_PROFILE put libweft_profile.so in LD_PRELOAD") {
  CHECK(parse_ok({"--profile", "./a"}).settings ==
        std::vector<std::pair<std::string, std::string>>{{"WEFT_PROFILE", "summary"}});
  CHECK(parse_ok({"--profile=summary,trace", "./a"}).settings[0].second == "summary,trace");
  CHECK(parse_error({"--profile=sumary", "./a"}) ==
        "invalid --profile 'sumary': unknown kind 'sumary' (want summary, trace, summary,trace or off)");
  std::string error;
  EnvMap env = {{"WEFT_PROFILE", "trace"}, {"LD_PRELOAD", "/x/libother.so"}};
  REQUIRE(add_profiler(&env, "/w/lib/libweft_profile.so", &error));
  CHECK(env["LD_PRELOAD"] == "/x/libother.so:/w/lib/libweft_profile.so");
  for (const char* off : {"off", ""}) {
    env = {{"WEFT_PROFILE", off}};
    REQUIRE(add_profiler(&env, "/w/lib/libweft_profile.so", &error));
    CHECK(env.count("LD_PRELOAD") == 0);
  }
  env = {};
  REQUIRE(add_profiler(&env, "/w/lib/libweft_profile.so", &error));
  CHECK(env.count("LD_PRELOAD") == 0);
  env = {{"WEFT_PROFILE", "summary,bogus"}};
  CHECK_FALSE(add_profiler(&env, "/w/lib/libweft_profile.so", &error));
  CHECK(error.find("unknown kind 'bogus'") != std::string::npos);
  env = {{"WEFT_PROFILE", "summary"}};
  CHECK_FALSE(add_profiler(&env, "", &error));
  CHECK(error.find("libweft_profile.so") != std::string::npos);
}

TEST_CASE("exit reports") {
  const int segv = SIGSEGV;  // a wait status for death by signal is the signal number
  CHECK(describe_rank_end(2, 4711, segv) == "rank 2 (pid 4711) killed by SIGSEGV (Segmentation fault)");
  CHECK(exit_code_for(segv) == 139);
  CHECK(is_failure(segv));
  const int exit3 = 3 << 8;
  CHECK(describe_rank_end(1, 9, exit3) == "rank 1 (pid 9) exited with code 3");
  CHECK(exit_code_for(exit3) == 3);
  CHECK(is_failure(exit3));
  CHECK_FALSE(is_failure(0));
  CHECK(signal_name(SIGINT) == "SIGINT");
}

TEST_CASE("--bind-to, --map-by core|package, --rank-by and --report-bindings") {
  LaunchOptions o;
  std::string error;
  REQUIRE(parse_args({"weftrun", "a"}, &o, &error));
  CHECK(o.binding.bind == Binding::kAuto);
  CHECK(o.binding.map == NodeOrder::kCore);
  CHECK(o.binding.rank == NodeOrder::kCore);
  CHECK_FALSE(o.binding.report);
  REQUIRE(parse_args({"weftrun", "--bind-to", "none", "a"}, &o, &error));
  CHECK(o.binding.bind == Binding::kNone);
  REQUIRE(parse_args({"weftrun", "--bind-to=core", "--report-bindings", "a"}, &o, &error));
  CHECK(o.binding.bind == Binding::kCore);
  CHECK_FALSE(o.binding.overload_allowed);
  CHECK(o.binding.report);
  REQUIRE(parse_args({"weftrun", "--bind-to", "core:overload-allowed", "a"}, &o, &error));
  CHECK(o.binding.bind == Binding::kCore);
  CHECK(o.binding.overload_allowed);
  REQUIRE(parse_args({"weftrun", "--bind-to", "socket", "a"}, &o, &error));
  CHECK(o.binding.bind == Binding::kPackage);
  // --map-by package fills slots host by host and deals a node's ranks over its packages; the
  // ranks follow that order unless --rank-by says otherwise (before or after it).
  REQUIRE(parse_args({"weftrun", "--map-by", "package", "a"}, &o, &error));
  CHECK(o.map_by == MapBy::kSlot);
  CHECK(o.binding.map == NodeOrder::kPackage);
  CHECK(o.binding.rank == NodeOrder::kPackage);
  REQUIRE(parse_args({"weftrun", "--rank-by", "core", "--map-by=package", "a"}, &o, &error));
  CHECK(o.binding.rank == NodeOrder::kCore);
  REQUIRE(parse_args({"weftrun", "--map-by", "core", "--rank-by", "package", "a"}, &o, &error));
  CHECK(o.binding.map == NodeOrder::kCore);
  CHECK(o.binding.rank == NodeOrder::kPackage);

  CHECK_FALSE(parse_args({"weftrun", "--bind-to", "l3cache", "a"}, &o, &error));
  CHECK(error == "invalid --bind-to 'l3cache' (want core, package, none or auto)");
  CHECK_FALSE(parse_args({"weftrun", "--bind-to", "core:spread", "a"}, &o, &error));
  CHECK(error == "invalid --bind-to modifier 'spread' in 'core:spread' (want overload-allowed)");
  CHECK_FALSE(parse_args({"weftrun", "--map-by", "numa", "a"}, &o, &error));
  CHECK(error == "invalid --map-by 'numa' (want slot, node, core or package)");
  CHECK_FALSE(parse_args({"weftrun", "--rank-by", "node", "a"}, &o, &error));
  CHECK(error == "invalid --rank-by 'node' (want slot, core or package)");
}
