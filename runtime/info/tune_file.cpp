// weft_tune's tuning file: reading the values a run keeps, writing the new file atomically.
#include "runtime/info/tune_file.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>

#include "coll/tuning.hpp"

namespace weft::tune {

using weft::coll::CostModel;

namespace {

std::string now_text() {
  char text[64];
  const std::time_t t = std::time(nullptr);
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S %Z", std::localtime(&t));
  return text;
}

// Creates every missing directory above `path`.
bool make_parents(const std::string& path, std::string* error) {
  for (size_t slash = path.find('/', 1); slash != std::string::npos;
       slash = path.find('/', slash + 1)) {
    const std::string dir = path.substr(0, slash);
    if (mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) {
      *error = "cannot create " + dir + ": " + std::strerror(errno);
      return false;
    }
  }
  return true;
}

// Writes through a temporary file and a rename, so a job starting meanwhile reads either the
// old file or the new one.
bool write_file(const std::string& path, const std::string& text, std::string* error) {
  if (!make_parents(path, error)) return false;
  const std::string temporary = path + ".tmp" + std::to_string(getpid());
  {
    std::ofstream out(temporary);
    out << text;
    if (!out.flush()) {
      *error = "cannot write " + temporary + ": " + std::strerror(errno);
      std::remove(temporary.c_str());
      return false;
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    *error = "cannot rename " + temporary + " to " + path + ": " + std::strerror(errno);
    std::remove(temporary.c_str());
    return false;
  }
  return true;
}

}  // namespace

CostModel previous_model(const std::string& path, std::string* origin) {
  CostModel model;
  *origin = "the built-in default";
  std::ifstream in(path);
  if (!in) return model;
  std::stringstream text;
  text << in.rdbuf();
  weft::Status s = weft::coll::parse_tuning(text.str(), path, &model);
  if (!s.ok()) {
    std::printf("warning: %s; not keeping anything from it\n", s.message.c_str());
    return CostModel{};
  }
  *origin = path;
  return model;
}

bool write_tuning(const std::string& path, const std::string& hosts, int size,
                  const std::string& notes, const CostModel& model) {
  char where[512];
  std::snprintf(where, sizeof where, "# measured on %s with %d ranks, %ld cores online",
                hosts.c_str(), size, sysconf(_SC_NPROCESSORS_ONLN));
  std::string measured = where;
  if (double load = 0; getloadavg(&load, 1) == 1) {
    std::snprintf(where, sizeof where, ", load average %.2f", load);
    measured += where;
  }
  const std::string text = "# Weft collective tuning, written by weft_tune on " + now_text() +
                           "\n" + measured + "\n" + notes + weft::coll::format_tuning(model);
  std::string error;
  if (!write_file(path, text, &error)) {
    std::fprintf(stderr, "weft_tune: %s\n", error.c_str());
    return false;
  }
  std::printf("\nwrote %s\n", path.c_str());
  const char* setting = std::getenv("WEFT_TUNING_FILE");
  if (setting != nullptr && std::strcmp(setting, "auto") != 0 && path != setting) {
    std::printf("note: WEFT_TUNING_FILE=%s is set, so jobs read that file, not this one\n",
                setting);
  }
  return true;
}

}  // namespace weft::tune
