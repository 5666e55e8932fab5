// The hang report's summary: state lines taken out of the output, ranks grouped, culprit named.
#include <catch2/catch.hpp>

#include "launcher/hang_report.hpp"
#include "runtime/wait_state.hpp"

using namespace weft::launcher;

namespace {
std::string state_line(int rank, const std::string& text) {
  return std::string(weft::wait_state::kMarker) + std::to_string(rank) + " " + text + "\n";
}
}  // namespace

TEST_CASE("only marked lines are taken") {
  StateReport report;
  CHECK_FALSE(report.take("an ordinary line of output\n"));
  CHECK(report.take(state_line(2, "in MPI_Barrier #1 on MPI_COMM_WORLD")));
  CHECK(report.answers() == 1);
}

TEST_CASE("rank lists are written as ranges") {
  CHECK(rank_ranges({0, 1, 2, 5, 7, 8}) == "0-2, 5, 7-8");
  CHECK(rank_ranges({3}) == "3");
  CHECK(rank_ranges({}).empty());
}

TEST_CASE("ranks grouped by state, the odd one out named, silent ranks listed") {
  StateReport report;
  for (int r : {0, 1, 2, 4}) report.take(state_line(r, "in MPI_Allreduce #41 on MPI_COMM_WORLD"));
  report.take(state_line(3, "in MPI_Recv(source=2, tag=7, 4 bytes) on MPI_COMM_WORLD"));
  const std::vector<std::string> lines =
      report.summary(6, {"h1", "h1", "h1", "h2", "h2", "h2"});
  REQUIRE(lines.size() == 5);
  CHECK(lines[0] == "state of the job's 6 ranks:");
  CHECK(lines[1] == "  ranks 0-2, 4: in MPI_Allreduce #41 on MPI_COMM_WORLD");
  CHECK(lines[2] == "  rank 3 on h2: in MPI_Recv(source=2, tag=7, 4 bytes) on MPI_COMM_WORLD");
  CHECK(lines[3] == "  rank 5 on h2: no answer (ended, or not running MPI under weftrun)");
  CHECK(lines[4] == "likely culprit: rank 3 on h2, not where ranks 0-2, 4 wait (in MPI_Allreduce "
                    "#41 on MPI_COMM_WORLD)");
}

TEST_CASE("everyone in the same place names no culprit") {
  StateReport report;
  for (int r = 0; r < 3; ++r) report.take(state_line(r, "in MPI_Barrier #2 on MPI_COMM_WORLD"));
  const std::vector<std::string> lines = report.summary(3, {});
  REQUIRE(lines.size() == 2);
  CHECK(lines[1] == "  ranks 0-2: in MPI_Barrier #2 on MPI_COMM_WORLD");
}
