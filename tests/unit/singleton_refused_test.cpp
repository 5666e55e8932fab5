// A process launched as one of several tasks without a PMIx server refuses to run as a
// singleton; a batch script or a plain start still runs as one.
#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "mpi.h"
#include "runtime/kvs.hpp"

using namespace weft;

namespace {
Status refused_with(const std::map<std::string, std::string>& env) {
  return singleton_refused([&env](const char* name) -> const char* {
    auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  });
}
}  // namespace

TEST_CASE("no launcher variables: a singleton runs") { CHECK(refused_with({}).ok()); }

TEST_CASE("a batch script's allocation count alone does not refuse a singleton") {
  CHECK(refused_with({{"SLURM_NTASKS", "4"}, {"SLURM_PROCID", "0"}}).ok());
}

TEST_CASE("one task of a step is a singleton") {
  CHECK(refused_with({{"SLURM_STEP_NUM_TASKS", "1"}, {"PMI_SIZE", "1"}}).ok());
}

TEST_CASE("srun --mpi=none with 4 tasks names the fix") {
  const Status s = refused_with({{"SLURM_STEP_NUM_TASKS", "4"}, {"SLURM_NTASKS", "4"}});
  REQUIRE_FALSE(s.ok());
  CHECK(s.error_class == MPI_ERR_OTHER);
  CHECK(s.message.find("one of 4 tasks (SLURM_STEP_NUM_TASKS=4)") != std::string::npos);
  CHECK(s.message.find("srun --mpi=pmix") != std::string::npos);
}

TEST_CASE("MPICH's and Open MPI's task counts are recognised") {
  CHECK(refused_with({{"PMI_SIZE", "2"}}).message.find("PMI_SIZE=2") != std::string::npos);
  CHECK(refused_with({{"OMPI_COMM_WORLD_SIZE", "3"}}).message.find("OMPI_COMM_WORLD_SIZE=3") !=
        std::string::npos);
}
