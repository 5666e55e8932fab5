// Start-up configuration of collective selection.
#include "coll/configure.hpp"

#include <sys/stat.h>

#include <cctype>
#include <cstdlib>

#include "coll/registry.hpp"
#include "runtime/config.hpp"

namespace weft::coll {

std::string tuning_file_path() {
  const std::string value = setting_value("WEFT_TUNING_FILE");
  if (value != "auto") return value;
  std::string dir;
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg != nullptr && *xdg != '\0') {
    dir = xdg;
  } else if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    dir = std::string(home) + "/.config";
  } else {
    return "";
  }
  const std::string path = dir + "/weft/tuning";
  struct stat st;
  return stat(path.c_str(), &st) == 0 ? path : "";
}

void configure_selector(Selector* selector, bool oversubscribed,
                        std::vector<std::string>* problems) {
  CostModel model;
  const std::string path = tuning_file_path();
  if (!path.empty()) {
    Status s = load_tuning(path, &model);
    if (!s.ok()) {
      problems->push_back(s.message + "; using the built-in collective tuning");
      model = CostModel{};
    }
  }
  selector->set_model(effective_model(model, oversubscribed));
  for (int k = 0; k < kNumCollKinds; ++k) {
    std::string name = std::string("WEFT_") + coll_name(CollKind(k)) + "_ALGORITHM";
    for (char& ch : name) ch = char(std::toupper(static_cast<unsigned char>(ch)));
    Status s = selector->force(CollKind(k), setting_value(name.c_str()));
    if (!s.ok()) problems->push_back(name + ": " + s.message);
  }
}

}  // namespace weft::coll
