// The tuning file: parsing (and its error messages), writing, the round trip between them, the
// oversubscribed model, and where WEFT_TUNING_FILE=auto looks.
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <string>

#include "coll/configure.hpp"
#include "coll/tuning.hpp"
#include "mpi.h"

using namespace weft;
using namespace weft::coll;

namespace {

// Sets (or unsets, for nullptr) an environment variable for one scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old, had_ = true;
    if (value != nullptr) {
      setenv(name, value, 1);
    } else {
      unsetenv(name);
    }
  }
  ~ScopedEnv() {
    if (had_) {
      setenv(name_.c_str(), old_.c_str(), 1);
    } else {
      unsetenv(name_.c_str());
    }
  }

 private:
  std::string name_, old_;
  bool had_ = false;
};

// A fresh directory under /tmp, removed (with the files the test names) at the end.
class TempDir {
 public:
  TempDir() {
    char pattern[] = "/tmp/weft_tuning_test_XXXXXX";
    path_ = mkdtemp(pattern);
  }
  ~TempDir() {
    for (const std::string& f : files_) std::remove(f.c_str());
    for (auto it = dirs_.rbegin(); it != dirs_.rend(); ++it) rmdir(it->c_str());
    rmdir(path_.c_str());
  }
  const std::string& path() const { return path_; }
  std::string write(const std::string& relative, const std::string& text) {
    std::string dir = path_;
    for (size_t slash = relative.find('/'); slash != std::string::npos;
         slash = relative.find('/', slash + 1)) {
      dir = path_ + "/" + relative.substr(0, slash);
      mkdir(dir.c_str(), 0755);
      dirs_.push_back(dir);
    }
    const std::string file = path_ + "/" + relative;
    std::ofstream(file) << text;
    files_.push_back(file);
    return file;
  }

 private:
  std::string path_;
  std::vector<std::string> files_, dirs_;
};

Status parse(const std::string& text, CostModel* model) {
  return parse_tuning(text, "test.tuning", model);
}

}  // namespace

TEST_CASE("tuning: a full file sets every value") {
  CostModel m;
  REQUIRE(parse("alpha_us 0.45\nalpha_oversubscribed_us 7\nbeta_ns_per_byte 0.07\n"
                "alpha_inter_us 2.5\nbeta_inter_ns_per_byte 0.3\n"
                "gamma_ns_per_byte 0.05\nsegment_bytes 65536\n",
                &m)
              .ok());
  CHECK(m.alpha_us == Approx(0.45));
  CHECK(m.alpha_oversubscribed_us == Approx(7));
  CHECK(m.beta_ns_per_byte == Approx(0.07));
  CHECK(m.alpha_inter_us == Approx(2.5));
  CHECK(m.beta_inter_ns_per_byte == Approx(0.3));
  CHECK(m.gamma_ns_per_byte == Approx(0.05));
  CHECK(m.segment_bytes == 65536);
}

TEST_CASE("tuning: comments, blank lines and spacing are ignored; missing keys keep theirs") {
  CostModel m;
  const CostModel defaults;
  const Status s = parse(
      "# written by weft_tune\n\n   \n  alpha_us   2.5   # measured\n"
      "\tbeta_ns_per_byte\t1e-1\n#segment_bytes 7\n",
      &m);
  REQUIRE(s.ok());
  CHECK(m.alpha_us == Approx(2.5));
  CHECK(m.beta_ns_per_byte == Approx(0.1));
  CHECK(m.alpha_oversubscribed_us == defaults.alpha_oversubscribed_us);
  CHECK(m.alpha_inter_us == defaults.alpha_inter_us);
  CHECK(m.beta_inter_ns_per_byte == defaults.beta_inter_ns_per_byte);
  CHECK(m.gamma_ns_per_byte == defaults.gamma_ns_per_byte);
  CHECK(m.segment_bytes == defaults.segment_bytes);
}

TEST_CASE("tuning: an empty text is valid and changes nothing") {
  CostModel m;
  REQUIRE(parse("", &m).ok());
  CHECK(m.alpha_us == CostModel{}.alpha_us);
}

TEST_CASE("tuning: an unknown key names the file, the line, the key and the known keys") {
  CostModel m;
  const Status s = parse("alpha_us 1\n# comment\nlatency_us 3\n", &m);
  REQUIRE_FALSE(s.ok());
  CHECK(s.error_class == MPI_ERR_OTHER);
  CHECK_THAT(s.message, Catch::Contains("test.tuning"));
  CHECK_THAT(s.message, Catch::Contains("line 3"));
  CHECK_THAT(s.message, Catch::Contains("latency_us"));
  for (const char* key :
       {"alpha_us", "alpha_oversubscribed_us", "beta_ns_per_byte", "alpha_inter_us",
        "beta_inter_ns_per_byte", "gamma_ns_per_byte", "segment_bytes", "alpha_device_us",
        "beta_device_ns_per_byte", "alpha_nccl_us", "beta_nccl_ns_per_byte"}) {
    CHECK_THAT(s.message, Catch::Contains(key));
  }
}

TEST_CASE("tuning: bad numbers are rejected with the value in the message") {
  for (const char* value : {"abc", "1.5x", "0x", "--1", "nan", "inf", "1e999"}) {
    CostModel m;
    const Status s = parse(std::string("beta_ns_per_byte ") + value + "\n", &m);
    INFO(value);
    REQUIRE_FALSE(s.ok());
    CHECK_THAT(s.message, Catch::Contains(std::string("'") + value + "'"));
    CHECK_THAT(s.message, Catch::Contains("line 1"));
  }
}

TEST_CASE("tuning: a name without a value, or with two, is rejected") {
  CostModel m;
  Status s = parse("alpha_us 1\ngamma_ns_per_byte\n", &m);
  REQUIRE_FALSE(s.ok());
  CHECK_THAT(s.message, Catch::Contains("line 2"));
  CHECK_THAT(s.message, Catch::Contains("expected 'name value'"));
  s = parse("alpha_us 1 2\n", &m);
  REQUIRE_FALSE(s.ok());
  CHECK_THAT(s.message, Catch::Contains("expected 'name value'"));
}

TEST_CASE("tuning: negative values and a zero segment are rejected") {
  CostModel m;
  Status s = parse("alpha_us -1\n", &m);
  REQUIRE_FALSE(s.ok());
  CHECK_THAT(s.message, Catch::Contains("non-negative"));
  for (const char* segment : {"0", "1.5", "1e30"}) {
    s = parse(std::string("segment_bytes ") + segment + "\n", &m);
    INFO(segment);
    REQUIRE_FALSE(s.ok());
    CHECK_THAT(s.message, Catch::Contains("segment_bytes"));
  }
  CHECK(parse("gamma_ns_per_byte 0\n", &m).ok());  // zero cost is allowed
}

TEST_CASE("tuning: format_tuning and parse_tuning round-trip") {
  CostModel out;
  out.alpha_us = 0.6049;
  out.alpha_oversubscribed_us = 12.5;
  out.beta_ns_per_byte = 0.07211;
  out.alpha_inter_us = 2.718;
  out.beta_inter_ns_per_byte = 0.3141;
  out.gamma_ns_per_byte = 0.02427;
  out.segment_bytes = 524288;
  out.alpha_device_us = 23.5;
  out.beta_device_ns_per_byte = 0.0391;
  out.alpha_nccl_us = 6.25;
  out.beta_nccl_ns_per_byte = 0.00512;
  for (const CostModel& m : {CostModel{}, out}) {
    CostModel in;
    in.alpha_us = in.beta_ns_per_byte = 99;
    REQUIRE(parse(format_tuning(m), &in).ok());
    CHECK(in.alpha_us == Approx(m.alpha_us));
    CHECK(in.alpha_oversubscribed_us == Approx(m.alpha_oversubscribed_us));
    CHECK(in.beta_ns_per_byte == Approx(m.beta_ns_per_byte));
    CHECK(in.alpha_inter_us == Approx(m.alpha_inter_us));
    CHECK(in.beta_inter_ns_per_byte == Approx(m.beta_inter_ns_per_byte));
    CHECK(in.gamma_ns_per_byte == Approx(m.gamma_ns_per_byte));
    CHECK(in.segment_bytes == m.segment_bytes);
    CHECK(in.alpha_device_us == Approx(m.alpha_device_us));
    CHECK(in.beta_device_ns_per_byte == Approx(m.beta_device_ns_per_byte));
    CHECK(in.alpha_nccl_us == Approx(m.alpha_nccl_us));
    CHECK(in.beta_nccl_ns_per_byte == Approx(m.beta_nccl_ns_per_byte));
  }
}

TEST_CASE("tuning: load_tuning reads a file and names one it cannot read") {
  TempDir dir;
  const std::string file = dir.write("tuning", "# weft_tune\nalpha_us 3\n");
  CostModel m;
  REQUIRE(load_tuning(file, &m).ok());
  CHECK(m.alpha_us == Approx(3));
  const Status s = load_tuning(dir.path() + "/missing", &m);
  REQUIRE_FALSE(s.ok());
  CHECK_THAT(s.message, Catch::Contains(dir.path() + "/missing"));
}

TEST_CASE("tuning: effective_model swaps in the oversubscribed alpha only when oversubscribed") {
  CostModel m;
  m.alpha_us = 0.5;
  m.alpha_oversubscribed_us = 9;
  m.beta_ns_per_byte = 0.2;
  m.alpha_inter_us = 3;
  m.beta_inter_ns_per_byte = 0.5;
  const CostModel normal = effective_model(m, false);
  CHECK(normal.alpha_us == Approx(0.5));
  CHECK(normal.alpha_inter_us == Approx(3));
  const CostModel over = effective_model(m, true);
  CHECK(over.alpha_us == Approx(9));
  CHECK(over.alpha_oversubscribed_us == Approx(9));
  // The context switch (9 - 0.5 us) comes on top of the network's latency.
  CHECK(over.alpha_inter_us == Approx(11.5));
  CHECK(over.beta_ns_per_byte == Approx(0.2));
  CHECK(over.beta_inter_ns_per_byte == Approx(0.5));
  CHECK(over.gamma_ns_per_byte == Approx(m.gamma_ns_per_byte));
  CHECK(over.segment_bytes == m.segment_bytes);
}

TEST_CASE("tuning: auto looks in XDG_CONFIG_HOME, then HOME, and only uses a file that exists") {
  TempDir dir;
  ScopedEnv file("WEFT_TUNING_FILE", nullptr);
  ScopedEnv home("HOME", "/nonexistent-home");
  {
    ScopedEnv xdg("XDG_CONFIG_HOME", dir.path().c_str());
    CHECK(auto_tuning_path() == dir.path() + "/weft/tuning");
    CHECK(tuning_file_path().empty());
    dir.write("weft/tuning", "alpha_us 2\n");
    CHECK(tuning_file_path() == dir.path() + "/weft/tuning");
  }
  ScopedEnv xdg("XDG_CONFIG_HOME", nullptr);
  CHECK(auto_tuning_path() == "/nonexistent-home/.config/weft/tuning");
  CHECK(tuning_file_path().empty());
  ScopedEnv no_home("HOME", nullptr);
  CHECK(auto_tuning_path().empty());
  CHECK(tuning_file_path().empty());
}

TEST_CASE("tuning: WEFT_TUNING_FILE names the file; a bad one leaves the defaults with a problem") {
  TempDir dir;
  const std::string good = dir.write("good", "alpha_us 4\nsegment_bytes 4096\n");
  const std::string bad = dir.write("bad", "alpha_us 4\nbogus 1\n");
  std::vector<std::string> problems;
  std::string path;
  {
    ScopedEnv file("WEFT_TUNING_FILE", good.c_str());
    const CostModel m = configured_model(&path, &problems);
    CHECK(path == good);
    CHECK(problems.empty());
    CHECK(m.alpha_us == Approx(4));
    CHECK(m.segment_bytes == 4096);
  }
  ScopedEnv file("WEFT_TUNING_FILE", bad.c_str());
  const CostModel m = configured_model(&path, &problems);
  CHECK(path.empty());
  REQUIRE(problems.size() == 1);
  CHECK_THAT(problems[0], Catch::Contains(bad));
  CHECK_THAT(problems[0], Catch::Contains("bogus"));
  CHECK(m.alpha_us == CostModel{}.alpha_us);
}
