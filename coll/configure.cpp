// Start-up configuration of collective selection.
#include "coll/configure.hpp"

#include <sys/stat.h>

#include <cctype>
#include <cstdlib>

#include "coll/registry.hpp"
#include "runtime/config.hpp"

namespace weft::coll {

std::string auto_tuning_path() {
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg != nullptr && *xdg != '\0') {
    return std::string(xdg) + "/weft/tuning";
  }
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    return std::string(home) + "/.config/weft/tuning";
  }
  return "";
}

std::string tuning_file_path() {
  const std::string value = setting_value("WEFT_TUNING_FILE");
  if (value != "auto") return value;
  const std::string path = auto_tuning_path();
  struct stat st;
  return !path.empty() && stat(path.c_str(), &st) == 0 ? path : "";
}

std::string algorithm_setting(CollKind kind) {
  std::string name = std::string("WEFT_") + coll_name(kind) + "_ALGORITHM";
  for (char& ch : name) ch = char(std::toupper(static_cast<unsigned char>(ch)));
  return name;
}

CostModel configured_model(std::string* path, std::vector<std::string>* problems) {
  CostModel model;
  *path = tuning_file_path();
  if (path->empty()) return model;
  Status s = load_tuning(*path, &model);
  if (!s.ok()) {
    problems->push_back(s.message + "; using the built-in collective tuning");
    path->clear();
    model = CostModel{};
  }
  return model;
}

void force_from_settings(Selector* selector, std::vector<std::string>* problems) {
  for (int k = 0; k < kNumCollKinds; ++k) {
    const std::string name = algorithm_setting(CollKind(k));
    Status s = selector->force(CollKind(k), setting_value(name.c_str()));
    if (!s.ok()) problems->push_back(name + ": " + s.message);
  }
}

void configure_selector(Selector* selector, bool oversubscribed,
                        std::vector<std::string>* problems) {
  std::string path;
  selector->set_model(effective_model(configured_model(&path, problems), oversubscribed));
  force_from_settings(selector, problems);
}

}  // namespace weft::coll
