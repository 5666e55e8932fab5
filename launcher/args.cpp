// Parsing of weftrun's options; everything after the first non-option word is the program.
#include "launcher/args.hpp"

#include <cctype>
#include <cstdlib>

namespace weft::launcher {
namespace {

bool parse_positive_int(const std::string& text, int* out) {
  if (text.empty()) return false;
  char* end = nullptr;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (*end != '\0' || v < 1 || v > (1 << 20)) return false;
  *out = int(v);
  return true;
}

bool parse_seconds(const std::string& text, double* out) {
  if (text.empty()) return false;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (*end != '\0' || !(v > 0)) return false;
  *out = v;
  return true;
}

bool valid_env_name(const std::string& name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

}  // namespace

bool parse_args(const std::vector<std::string>& argv, LaunchOptions* out, std::string* error) {
  LaunchOptions o;
  size_t i = 1;
  // The value of an option given as "--opt value" or "--opt=value".
  auto value_of = [&](const std::string& arg, const std::string& name, std::string* value) {
    if (arg == name) {
      if (i + 1 >= argv.size()) {
        *error = "option " + name + " needs a value";
        return false;
      }
      *value = argv[++i];
      return true;
    }
    *value = arg.substr(name.size() + 1);
    return true;
  };
  for (; i < argv.size(); ++i) {
    const std::string& arg = argv[i];
    if (arg.empty() || arg[0] != '-') break;
    if (arg == "--") {
      ++i;
      break;
    }
    std::string value;
    auto is = [&](const char* name) {
      const std::string n = name;
      return arg == n || (n.size() > 2 && arg.rfind(n + "=", 0) == 0);
    };
    if (arg == "-h" || arg == "--help") {
      o.help = true;
    } else if (arg == "--version" || arg == "-V") {
      o.version = true;
    } else if (arg == "--tag-output") {
      o.tag_output = true;
    } else if (is("-n") || is("-np") || is("--np") || is("--n")) {
      const std::string name = arg.substr(0, arg.find('='));
      if (!value_of(arg, name, &value)) return false;
      if (!parse_positive_int(value, &o.nranks)) {
        *error = "invalid number of ranks '" + value + "' for " + name + " (want an integer >= 1)";
        return false;
      }
    } else if (is("--timeout")) {
      if (!value_of(arg, "--timeout", &value)) return false;
      if (!parse_seconds(value, &o.timeout_s)) {
        *error = "invalid --timeout '" + value + "' (want seconds > 0)";
        return false;
      }
    } else if (is("--bind-to")) {
      if (!value_of(arg, "--bind-to", &value)) return false;
      if (value == "core") {
        o.binding = Binding::kCore;
      } else if (value == "none") {
        o.binding = Binding::kNone;
      } else if (value == "auto") {
        o.binding = Binding::kAuto;
      } else {
        *error = "invalid --bind-to '" + value + "' (want core, none or auto)";
        return false;
      }
    } else if (arg == "-x") {
      if (!value_of(arg, "-x", &value)) return false;
      const size_t eq = value.find('=');
      const std::string name = value.substr(0, eq);
      if (!valid_env_name(name)) {
        *error = "invalid environment variable name '" + name + "' for -x";
        return false;
      }
      o.exports.emplace_back(name, eq == std::string::npos ? std::nullopt
                                                           : std::optional(value.substr(eq + 1)));
    } else if (is("--set")) {
      if (!value_of(arg, "--set", &value)) return false;
      const size_t eq = value.find('=');
      if (eq == std::string::npos || !valid_env_name(value.substr(0, eq))) {
        *error = "invalid --set '" + value + "' (want name=value)";
        return false;
      }
      std::string name = value.substr(0, eq);
      for (char& c : name) c = char(std::toupper(static_cast<unsigned char>(c)));
      if (name.rfind("WEFT_", 0) != 0) name = "WEFT_" + name;
      o.settings.emplace_back(name, value.substr(eq + 1));
    } else {
      *error = "unknown option '" + arg + "' (try weftrun --help)";
      return false;
    }
  }
  for (; i < argv.size(); ++i) o.program.push_back(argv[i]);
  if (o.program.empty() && !o.help && !o.version) {
    *error = "no program to run (usage: weftrun -n N program [args...])";
    return false;
  }
  *out = std::move(o);
  return true;
}

std::string usage_text() {
  return "usage: weftrun [options] program [args...]   (also mpirun, mpiexec)\n"
         "  -n, -np N          start N ranks (default 1); more ranks than cores is fine\n"
         "  --tag-output       prefix every output line with [rank]\n"
         "  --timeout SECONDS  end the job if it runs longer (exit code 124)\n"
         "  --bind-to WHAT     core: pin each rank to a CPU; none; auto (default): pin when\n"
         "                     every rank gets a CPU of its own\n"
         "  -x VAR[=value]     pass VAR (its current value, or the one given) to the ranks\n"
         "  --set name=value   set the Weft setting WEFT_<NAME> in every rank\n"
         "  -h, --help         this text;  --version  Weft's version\n";
}

}  // namespace weft::launcher
