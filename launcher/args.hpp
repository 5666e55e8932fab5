// weftrun's command line: parsed into LaunchOptions by a pure function (unit-tested).
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "launcher/binding.hpp"

namespace weft::launcher {

struct LaunchOptions {
  int nranks = 1;
  bool tag_output = false;
  double timeout_s = 0;  // 0 = no limit
  Binding binding = Binding::kAuto;
  // -x VAR (value taken from weftrun's environment) or -x VAR=value.
  std::vector<std::pair<std::string, std::optional<std::string>>> exports;
  // --set name=value becomes WEFT_<NAME>=value in every rank.
  std::vector<std::pair<std::string, std::string>> settings;
  std::vector<std::string> program;  // program and its arguments
  bool help = false;
  bool version = false;
};

// Parses argv (argv[0] is weftrun itself). On failure returns false and sets `error`.
bool parse_args(const std::vector<std::string>& argv, LaunchOptions* out, std::string* error);

std::string usage_text();

}  // namespace weft::launcher
