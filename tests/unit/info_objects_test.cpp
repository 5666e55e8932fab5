// Info objects: key order, limits, dup/free, MPI_INFO_ENV, and communicator hints.
#include "runtime/comm/info_objects.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "mpi.h"

using namespace weft;

namespace {

InfoEntries read(InfoTable& t, MPI_Info info) {
  const InfoEntries* entries = nullptr;
  REQUIRE(t.entries(info, "info", &entries).ok());
  return *entries;
}

std::string value_of(const InfoEntries& entries, const std::string& key) {
  for (const auto& [k, v] : entries)
    if (k == key) return v;
  return "<absent>";
}

}  // namespace

TEST_CASE("info: keys keep the order they were first set in") {
  InfoTable t;
  const MPI_Info info = t.create();
  REQUIRE(t.set(info, "zeta", "1").ok());
  REQUIRE(t.set(info, "alpha", "2").ok());
  REQUIRE(t.set(info, "mid", "3").ok());
  REQUIRE(t.set(info, "zeta", "changed").ok());
  CHECK(read(t, info) == InfoEntries{{"zeta", "changed"}, {"alpha", "2"}, {"mid", "3"}});
  REQUIRE(t.remove(info, "alpha").ok());
  REQUIRE(t.set(info, "alpha", "again").ok());
  CHECK(read(t, info) == InfoEntries{{"zeta", "changed"}, {"mid", "3"}, {"alpha", "again"}});
  Status absent = t.remove(info, "alpha-not");
  CHECK(absent.error_class == MPI_ERR_INFO_NOKEY);
  CHECK(absent.message.find("\"alpha-not\"") != std::string::npos);
}

TEST_CASE("info: key and value length limits") {
  const std::string longest_key(MPI_MAX_INFO_KEY, 'k');
  CHECK(check_info_key(longest_key.c_str(), "key").ok());
  Status too_long = check_info_key((longest_key + "k").c_str(), "key");
  CHECK(too_long.error_class == MPI_ERR_INFO_KEY);
  CHECK(too_long.message == "invalid key of 256 characters (MPI_MAX_INFO_KEY is 255)");
  CHECK(check_info_key("", "key").error_class == MPI_ERR_INFO_KEY);
  CHECK(check_info_key(nullptr, "key").message == "invalid key=NULL");
  const std::string longest_value(MPI_MAX_INFO_VAL, 'v');
  CHECK(check_info_value(longest_value.c_str(), "value").ok());
  CHECK(check_info_value("", "value").ok());
  Status value_too_long = check_info_value((longest_value + "v").c_str(), "value");
  CHECK(value_too_long.error_class == MPI_ERR_INFO_VALUE);
  CHECK(value_too_long.message == "invalid value of 1025 characters (MPI_MAX_INFO_VAL is 1024)");
}

TEST_CASE("info: dup copies, free ends the handle, bad handles name themselves") {
  InfoTable t;
  const MPI_Info info = t.create({{"a", "1"}});
  MPI_Info copy = MPI_INFO_NULL;
  REQUIRE(t.dup(info, &copy).ok());
  REQUIRE(t.set(copy, "b", "2").ok());
  CHECK(read(t, info).size() == 1);
  CHECK(read(t, copy).size() == 2);
  REQUIRE(t.free(info).ok());
  CHECK(t.live_objects() == 1);
  Status freed = t.set(info, "a", "x");
  CHECK(freed.error_class == MPI_ERR_INFO);
  CHECK(freed.message == "invalid info object info=" + std::to_string(info));
  CHECK(t.free(MPI_INFO_NULL).message == "invalid info object info=MPI_INFO_NULL");
}

TEST_CASE("info: MPI_INFO_ENV is read-only and describes this process") {
  InfoTable t;
  const InfoEntries env = read(t, MPI_INFO_ENV);
  CHECK(value_of(env, "command").find("weft_unit_tests") != std::string::npos);
  CHECK(value_of(env, "wdir") != "<absent>");
  CHECK(value_of(env, "arch") != "<absent>");
  CHECK(value_of(env, "host") != "<absent>");
  Status write = t.set(MPI_INFO_ENV, "command", "x");
  CHECK(write.error_class == MPI_ERR_INFO);
  CHECK(write.message.find("MPI_INFO_ENV (predefined and read-only)") != std::string::npos);
  CHECK(t.free(MPI_INFO_ENV).error_class == MPI_ERR_INFO);
  MPI_Info copy = MPI_INFO_NULL;
  REQUIRE(t.dup(MPI_INFO_ENV, &copy).ok());
  CHECK(read(t, copy) == env);
}

TEST_CASE("info: MPI_Info_create_env takes the command line it is given") {
  char prog[] = "./solver", a1[] = "-n", a2[] = "10";
  char* argv[] = {prog, a1, a2, nullptr};
  const InfoEntries env = environment_entries(3, argv);
  CHECK(value_of(env, "command") == "./solver");
  CHECK(value_of(env, "argv") == "-n 10");
  CHECK(value_of(env, "thread_level") == "<absent>");  // nothing requested before MPI_Init
  CHECK(value_of(env, "file") == "<absent>");          // weftrun reads no such file
  CHECK(value_of(env, "mpi_initial_errhandler") == "mpi_errors_are_fatal");
}

TEST_CASE("info: before MPI_Init the job's size comes from weftrun, or is 1 for a singleton") {
  // The environment as weftrun, another PMIx server or none would leave it; restored after.
  auto saved = [](const char* name) -> std::optional<std::string> {
    const char* v = std::getenv(name);
    return v ? std::optional<std::string>(v) : std::nullopt;
  };
  const std::optional<std::string> size = saved("WEFT_SIZE"), nspace = saved("PMIX_NAMESPACE");
  char prog[] = "./solver";
  char* argv[] = {prog, nullptr};
  setenv("WEFT_SIZE", "6", 1);
  setenv("PMIX_NAMESPACE", "weft-test", 1);
  InfoEntries env = environment_entries(1, argv);
  CHECK(value_of(env, "maxprocs") == "6");
  CHECK(value_of(env, "soft") == "6");
  unsetenv("WEFT_SIZE");  // another PMIx server: not known before MPI_Init
  env = environment_entries(1, argv);
  CHECK(value_of(env, "maxprocs") == "<absent>");
  CHECK(value_of(env, "soft") == "<absent>");
  unsetenv("PMIX_NAMESPACE");  // no server: a one-rank world
  env = environment_entries(1, argv);
  CHECK(value_of(env, "maxprocs") == "1");
  CHECK(value_of(env, "soft") == "1");
  std::vector<std::string> keys;
  for (const auto& [key, value] : env) keys.push_back(key);
  CHECK(keys == std::vector<std::string>{"command", "argv", "maxprocs", "mpi_initial_errhandler",
                                         "soft", "host", "arch", "wdir"});
  if (size) setenv("WEFT_SIZE", size->c_str(), 1);
  if (nspace) setenv("PMIX_NAMESPACE", nspace->c_str(), 1);
}

TEST_CASE("info: communicator hints update, copy at dup, and go at free") {
  const MPI_Comm comm = 900, dup = 901;
  const MPI_Info first = infos().create({{"mpi_assert_no_any_tag", "true"}, {"x", "1"}});
  const MPI_Info second = infos().create({{"x", "2"}, {"y", "3"}});
  REQUIRE(comm_info_set(comm, first).ok());
  REQUIRE(comm_info_set(comm, second).ok());
  REQUIRE(comm_info_set(comm, MPI_INFO_NULL).ok());
  const MPI_Info got = comm_info_get(comm);
  CHECK(read(infos(), got) ==
        InfoEntries{{"mpi_assert_no_any_tag", "true"}, {"x", "2"}, {"y", "3"}});
  comm_info_on_dup(comm, dup);
  comm_info_on_free(comm);
  const MPI_Info after_free = comm_info_get(comm);
  const MPI_Info of_dup = comm_info_get(dup);
  CHECK(read(infos(), after_free).empty());
  CHECK(read(infos(), of_dup).size() == 3);
  comm_info_on_free(dup);
  CHECK(comm_info_set(comm, 12345).error_class == MPI_ERR_INFO);
  for (MPI_Info i : {first, second, got, after_free, of_dup}) REQUIRE(infos().free(i).ok());
}
