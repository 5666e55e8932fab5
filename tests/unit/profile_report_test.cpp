// The profiler's pure parts (profile/): WEFT_PROFILE's kinds, a rank's profile on the wire, the
// job's summary over ranks, and the text and HTML reports drawn from it.
#include <catch2/catch.hpp>

#include <regex>

#include "profile/html_charts.hpp"
#include "profile/kinds.hpp"
#include "profile/rank_profile.hpp"
#include "profile/report.hpp"
#include "profile/summary.hpp"

using namespace weft::profile;

namespace {

// Rank r of three: r+1 MPI_Send calls of 8 bytes taking (r+1) ms, rank 1 also a 30 ms
// MPI_Barrier; sends to the next rank; one call site shared by all.
RankProfile rank_profile(int r) {
  RankProfile p;
  p.rank = r;
  p.host = r < 2 ? "a" : "b";
  p.run_ns = 100'000'000;
  p.mpi_ns = uint64_t(r + 1) * 1'000'000 + (r == 1 ? 30'000'000 : 0);
  p.functions.push_back({"MPI_Send", uint64_t(r + 1), uint64_t(r + 1) * 1'000'000, 600'000,
                         uint64_t(r + 1) * 8});
  if (r == 1) p.functions.push_back({"MPI_Barrier", 1, 30'000'000, 30'000'000, 0});
  p.sites.push_back({"MPI_Send", "/bin/app", 0x1234, "main+0x34", uint64_t(r + 1),
                     uint64_t(r + 1) * 1'000'000});
  p.sent.push_back({(r + 1) % 3, uint64_t(r + 1) * 8, uint64_t(r + 1)});
  return p;
}

std::vector<RankProfile> three_ranks() { return {rank_profile(0), rank_profile(1), rank_profile(2)}; }

}  // namespace

TEST_CASE("profile: WEFT_PROFILE kinds") {
  Kinds k;
  std::string error;
  REQUIRE(parse_kinds("summary,trace", "WEFT_PROFILE", &k, &error));
  CHECK((k.summary && k.trace));
  REQUIRE(parse_kinds("trace", "WEFT_PROFILE", &k, &error));
  CHECK((!k.summary && k.trace));
  for (const char* none : {"off", ""}) {
    REQUIRE(parse_kinds(none, "WEFT_PROFILE", &k, &error));
    CHECK_FALSE(k.any());
  }
  CHECK_FALSE(parse_kinds("summary,,trace", "WEFT_PROFILE", &k, &error));
  CHECK(error == "invalid WEFT_PROFILE 'summary,,trace': unknown kind '' (want summary, trace, "
                 "summary,trace or off)");
}

TEST_CASE("profile: a rank's profile survives the wire, and a damaged one is refused") {
  RankProfile p = rank_profile(1);
  p.unplaced_site_calls = 7;
  p.sent_outside_world = {-1, 99, 3};
  const std::string bytes = encode(p);
  RankProfile back;
  REQUIRE(decode(bytes, &back));
  CHECK(back.host == "a");
  CHECK(back.mpi_ns == 32'000'000);
  REQUIRE(back.functions.size() == 2);
  CHECK(back.functions[1].name == "MPI_Barrier");
  CHECK(back.functions[1].max_ns == 30'000'000);
  CHECK(back.sites[0].symbol == "main+0x34");
  CHECK(back.sites[0].offset == 0x1234);
  CHECK(back.sent[0].peer == 2);
  CHECK(back.sent_outside_world.bytes == 99);
  CHECK(back.unplaced_site_calls == 7);
  CHECK_FALSE(decode(bytes.substr(0, bytes.size() - 1), &back));
  CHECK_FALSE(decode(bytes + "x", &back));
  std::string huge_count = bytes;
  huge_count[8 + 8 + 1 + 16] = '\x7f';  // the count of functions, after rank, host, run and mpi
  CHECK_FALSE(decode(huge_count, &back));
}

TEST_CASE("profile: the job's summary sums over ranks and finds the spread and the slowest") {
  const JobSummary job = summarize(three_ranks());
  REQUIRE(job.nranks == 3);
  REQUIRE(job.functions.size() == 2);
  const FunctionSummary& barrier = job.functions[0];  // the longest first
  CHECK(barrier.name == "MPI_Barrier");
  CHECK(barrier.slowest_rank == 1);
  CHECK(barrier.rank_min_ns == 0);
  CHECK(barrier.rank_mean_ns == Approx(10'000'000));
  const FunctionSummary& send = job.functions[1];
  CHECK(send.calls == 6);
  CHECK(send.bytes == 48);
  CHECK(send.ns == 6'000'000);
  CHECK(send.mean_call_ns() == Approx(1'000'000));
  CHECK(send.max_ns == 600'000);
  CHECK(send.rank_min_ns == 1'000'000);
  CHECK(send.rank_max_ns == 3'000'000);
  CHECK(send.slowest_rank == 2);
  CHECK(send.calls_by_rank == std::vector<uint64_t>{1, 2, 3});
  // The one call site, merged over the three ranks.
  REQUIRE(job.sites.size() == 1);
  CHECK(job.sites[0].calls == 6);
  CHECK(job.sites[0].ranks == 3);
  // Rank r sent (r+1) messages of 8 bytes to r+1.
  CHECK(job.matrix_bytes == std::vector<uint64_t>{0, 8, 0, 0, 0, 16, 24, 0, 0});
  CHECK(job.matrix_messages == std::vector<uint64_t>{0, 1, 0, 0, 0, 2, 3, 0, 0});
  CHECK(job.mpi_share(1) == Approx(0.32));
}

TEST_CASE("profile: the text report") {
  JobSummary job = summarize(three_ranks());
  job.sites[0].location = "main (app.c:12)";
  const std::string text = text_report(job, {"p.html", "t.json"});
  CHECK(text.find("weft profile: 3 ranks, 0.100 s from MPI_Init to MPI_Finalize; time in MPI 12.0% "
                  "of the run (ranks: min 1.0% on rank 0, max 32.0% on rank 1)") == 0);
  CHECK(text.find("HTML report: p.html\ntrace: t.json\n") != std::string::npos);
  CHECK(std::regex_search(text, std::regex("\nMPI_Send +6 +48 +6\\.000 +1000\\.000 +600\\.000 \\| +1\\.000 "
                                           "+2\\.000 +3\\.000 +2\n")));
  CHECK(text.find("main (app.c:12) in app+0x1234") != std::string::npos);
  CHECK(std::regex_search(text, std::regex("\n +2 +24/3 +- +-\n")));  // rank 2's row
}

TEST_CASE("profile: the text report lists the heaviest pairs of a large job") {
  std::vector<RankProfile> ranks;
  for (int r = 0; r < 40; ++r) {
    ranks.push_back(RankProfile{});
    ranks.back().run_ns = 1;
    ranks.back().sent.push_back({(r + 1) % 40, uint64_t(r), 1});
  }
  const std::string text = text_report(summarize(ranks), {});
  CHECK(text.find("the 16 heaviest pairs") != std::string::npos);
  CHECK(text.find("       39 -> 0         39/1\n") != std::string::npos);
  CHECK(text.find(" 23 -> 24 ") == std::string::npos);  // the 17th heaviest
}

TEST_CASE("profile: the HTML page is self-contained and draws every pair and rank") {
  const JobSummary job = summarize(three_ranks());
  const std::string page = html_report(job, "Weft profile: <job> & co");
  CHECK(page.find("<title>Weft profile: &lt;job&gt; &amp; co</title>") != std::string::npos);
  for (const char* outside : {"<script", "src=", "href=", "http", "url("})
    CHECK(page.find(outside) == std::string::npos);
  const std::string cells = "<rect class=\"cell\"";
  size_t n = 0;
  for (size_t at = page.find(cells); at != std::string::npos; at = page.find(cells, at + 1)) ++n;
  CHECK(n == 9);
  CHECK(page.find("data-from=\"2\" data-to=\"0\" data-bytes=\"24\" data-messages=\"3\"") !=
        std::string::npos);
  // The heaviest pair is the darkest colour; pairs without traffic are white.
  CHECK(heat_colour(24, 24) == "#08306b");
  CHECK(heat_colour(0, 24) == kNoTrafficColour);
  CHECK(heat_colour(1, 1'000'000) != heat_colour(1'000'000, 1'000'000));
  // Rank 1's bar: 30 ms of MPI_Barrier, then 2 ms of MPI_Send.
  CHECK(page.find("data-rank=\"1\" data-function=\"MPI_Barrier\" data-ns=\"30000000\"") !=
        std::string::npos);
  CHECK(page.find("data-rank=\"1\" data-function=\"MPI_Send\" data-ns=\"2000000\"") !=
        std::string::npos);
  CHECK(escape_html("a<b>&\"'") == "a&lt;b&gt;&amp;&quot;&#39;");
}

TEST_CASE("profile: above 128 ranks a matrix cell stands for a block of ranks") {
  std::vector<RankProfile> ranks(300);
  for (int r = 0; r < 300; ++r) {
    ranks[size_t(r)].run_ns = 1;
    ranks[size_t(r)].sent.push_back({299 - r, 1, 1});
  }
  const std::string svg = matrix_svg(summarize(ranks));
  size_t n = 0;
  for (size_t at = svg.find("class=\"cell\""); at != std::string::npos; at = svg.find("class=\"cell\"", at + 1)) ++n;
  CHECK(n == 100 * 100);  // blocks of 3 ranks
  CHECK(svg.find("ranks 297-299 to ranks 0-2: 3 B in 3 messages") != std::string::npos);
}
