// Tuning file parsing and writing.
#include "coll/tuning.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "mpi.h"

namespace weft::coll {
namespace {

constexpr double kMaxSegment = double(size_t(1) << 40);

Status bad(const std::string& origin, int line, const std::string& what) {
  return Status::error(MPI_ERR_OTHER, "tuning file " + origin + " line " + std::to_string(line) +
                                          ": " + what);
}

}  // namespace

Status parse_tuning(const std::string& text, const std::string& origin, CostModel* model) {
  std::istringstream in(text);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const size_t hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    std::istringstream fields(line);
    std::string key, value, extra;
    if (!(fields >> key)) continue;
    if (!(fields >> value) || (fields >> extra)) return bad(origin, number, "expected 'name value'");
    char* end = nullptr;
    const double v = std::strtod(value.c_str(), &end);
    if (end == value.c_str() || *end != '\0' || !(v >= 0) || !std::isfinite(v)) {
      return bad(origin, number, "'" + value + "' is not a non-negative number");
    }
    if (key == "alpha_us") {
      model->alpha_us = v;
    } else if (key == "alpha_oversubscribed_us") {
      model->alpha_oversubscribed_us = v;
    } else if (key == "beta_ns_per_byte") {
      model->beta_ns_per_byte = v;
    } else if (key == "alpha_inter_us") {
      model->alpha_inter_us = v;
    } else if (key == "beta_inter_ns_per_byte") {
      model->beta_inter_ns_per_byte = v;
    } else if (key == "gamma_ns_per_byte") {
      model->gamma_ns_per_byte = v;
    } else if (key == "alpha_region_us") {
      model->alpha_region_us = v;
    } else if (key == "beta_region_ns_per_byte") {
      model->beta_region_ns_per_byte = v;
    } else if (key == "alpha_device_us") {
      model->alpha_device_us = v;
    } else if (key == "beta_device_ns_per_byte") {
      model->beta_device_ns_per_byte = v;
    } else if (key == "alpha_nccl_us") {
      model->alpha_nccl_us = v;
    } else if (key == "beta_nccl_ns_per_byte") {
      model->beta_nccl_ns_per_byte = v;
    } else if (key == "segment_bytes") {
      if (v < 1 || v > kMaxSegment || v != std::floor(v)) {
        return bad(origin, number, "segment_bytes must be a whole number from 1 to 2^40");
      }
      model->segment_bytes = size_t(v);
    } else {
      return bad(origin, number,
                 "unknown name '" + key +
                     "' (expected alpha_us, alpha_oversubscribed_us, beta_ns_per_byte, "
                     "alpha_inter_us, beta_inter_ns_per_byte, gamma_ns_per_byte, "
                     "alpha_region_us, beta_region_ns_per_byte, segment_bytes, "
                     "alpha_device_us, beta_device_ns_per_byte, alpha_nccl_us, "
                     "beta_nccl_ns_per_byte)");
    }
  }
  return Status::success();
}

Status load_tuning(const std::string& path, CostModel* model) {
  std::ifstream file(path);
  if (!file) return Status::error(MPI_ERR_OTHER, "cannot read tuning file " + path);
  std::stringstream text;
  text << file.rdbuf();
  return parse_tuning(text.str(), path, model);
}

std::string format_tuning(const CostModel& m) {
  char text[640];
  std::snprintf(text, sizeof text,
                "alpha_us %.4g\nalpha_oversubscribed_us %.4g\nbeta_ns_per_byte %.4g\n"
                "alpha_inter_us %.4g\nbeta_inter_ns_per_byte %.4g\n"
                "gamma_ns_per_byte %.4g\nalpha_region_us %.4g\nbeta_region_ns_per_byte %.4g\n"
                "segment_bytes %zu\nalpha_device_us %.4g\nbeta_device_ns_per_byte %.4g\n"
                "alpha_nccl_us %.4g\nbeta_nccl_ns_per_byte %.4g\n",
                m.alpha_us, m.alpha_oversubscribed_us, m.beta_ns_per_byte, m.alpha_inter_us,
                m.beta_inter_ns_per_byte, m.gamma_ns_per_byte, m.alpha_region_us,
                m.beta_region_ns_per_byte, m.segment_bytes, m.alpha_device_us,
                m.beta_device_ns_per_byte, m.alpha_nccl_us, m.beta_nccl_ns_per_byte);
  return text;
}

CostModel effective_model(CostModel model, bool oversubscribed) {
  if (!oversubscribed) return model;
  const double switch_us = std::max(model.alpha_oversubscribed_us - model.alpha_us, 0.0);
  model.alpha_inter_us += switch_us;
  model.alpha_region_us += switch_us;
  model.alpha_us = model.alpha_oversubscribed_us;
  return model;
}

}  // namespace weft::coll
