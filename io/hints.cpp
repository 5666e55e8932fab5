// Parsing and reporting the I/O hints.
#include "io/hints.hpp"

#include <cstdlib>
#include <string>

namespace weft::io {
namespace {

constexpr const char* kPassiveKeys[] = {"striping_factor", "access_style", "collective_buffering",
                                        "cb_config_list",  "file_perm",    "io_node_list",
                                        "nb_proc",         "num_io_nodes"};

bool get(MPI_Info info, const char* key, std::string* value) {
  int flag = 0, len = 0;
  if (PMPI_Info_get_valuelen(info, key, &len, &flag) != MPI_SUCCESS || !flag) return false;
  value->assign(size_t(len) + 1, '\0');
  if (PMPI_Info_get(info, key, len + 1, value->data(), &flag) != MPI_SUCCESS || !flag) return false;
  value->resize(size_t(len));
  return true;
}

bool parse_positive(const std::string& s, long long* out) {
  char* end = nullptr;
  const long long v = std::strtoll(s.c_str(), &end, 10);
  if (end == s.c_str() || *end != '\0' || v <= 0) return false;
  *out = v;
  return true;
}

void parse_switch(MPI_Info info, const char* key, Switch* out) {
  std::string v;
  if (!get(info, key, &v)) return;
  if (v == "enable") *out = Switch::kEnable;
  if (v == "disable") *out = Switch::kDisable;
  if (v == "automatic") *out = Switch::kAutomatic;
}

const char* switch_name(Switch s) {
  return s == Switch::kEnable ? "enable" : s == Switch::kDisable ? "disable" : "automatic";
}

}  // namespace

void Hints::update(MPI_Info info) {
  if (info == MPI_INFO_NULL) return;
  std::string v;
  long long n = 0;
  if (get(info, "cb_buffer_size", &v) && parse_positive(v, &n)) cb_buffer_size = n;
  if (get(info, "ind_rd_buffer_size", &v) && parse_positive(v, &n)) ind_rd_buffer_size = n;
  if (get(info, "ind_wr_buffer_size", &v) && parse_positive(v, &n)) ind_wr_buffer_size = n;
  if (get(info, "striping_unit", &v) && parse_positive(v, &n)) striping_unit = n;
  if (get(info, "cb_nodes", &v) && parse_positive(v, &n) && n <= (1 << 30)) cb_nodes = int(n);
  parse_switch(info, "romio_cb_read", &cb_read);
  parse_switch(info, "romio_cb_write", &cb_write);
  parse_switch(info, "romio_ds_read", &ds_read);
  parse_switch(info, "romio_ds_write", &ds_write);
  for (const char* key : kPassiveKeys)
    if (get(info, key, &v)) passive[key] = v;
}

MPI_Info Hints::to_info() const {
  MPI_Info info = MPI_INFO_NULL;
  if (PMPI_Info_create(&info) != MPI_SUCCESS) return MPI_INFO_NULL;
  PMPI_Info_set(info, "cb_buffer_size", std::to_string(cb_buffer_size).c_str());
  PMPI_Info_set(info, "cb_nodes", std::to_string(cb_nodes).c_str());
  PMPI_Info_set(info, "ind_rd_buffer_size", std::to_string(ind_rd_buffer_size).c_str());
  PMPI_Info_set(info, "ind_wr_buffer_size", std::to_string(ind_wr_buffer_size).c_str());
  PMPI_Info_set(info, "romio_cb_read", switch_name(cb_read));
  PMPI_Info_set(info, "romio_cb_write", switch_name(cb_write));
  PMPI_Info_set(info, "romio_ds_read", switch_name(ds_read));
  PMPI_Info_set(info, "romio_ds_write", switch_name(ds_write));
  if (striping_unit > 0)
    PMPI_Info_set(info, "striping_unit", std::to_string(striping_unit).c_str());
  for (const auto& [key, value] : passive) PMPI_Info_set(info, key.c_str(), value.c_str());
  return info;
}

}  // namespace weft::io
