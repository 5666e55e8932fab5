// MPI_T categories: four flat groups; each variable belongs to one (cvar_category, pvar_category).
#include <vector>

#include "runtime/tools/tools.hpp"

namespace weft::tools {
namespace {

struct Category {
  const char* name;
  const char* desc;
};

constexpr Category kCategories[] = {
    {"transport", "Point-to-point traffic and how waiting calls spin and block."},
    {"collectives", "Collective algorithm choice, its cost model and the call checks."},
    {"one-sided", "How one-sided operations reach window memory and who serves them."},
    {"launcher settings", "Settings weftrun gives each rank; read-only here."},
};
constexpr int kCount = int(sizeof kCategories / sizeof kCategories[0]);

bool valid_index(int index) { return index >= 0 && index < kCount; }

std::vector<int> members(int category, int count, int (*category_of)(int)) {
  std::vector<int> out;
  for (int i = 0; i < count; ++i)
    if (category_of(i) == category) out.push_back(i);
  return out;
}

int copy_members(const std::vector<int>& all, int len, int indices[]) {
  if (len > 0 && indices == nullptr) return MPI_T_ERR_INVALID;
  for (int i = 0; i < len && i < int(all.size()); ++i) indices[i] = all[i];
  return MPI_SUCCESS;
}

}  // namespace

int category_count() { return kCount; }

int category_get_info(int index, char* name, int* name_len, char* desc, int* desc_len,
                      int* num_cvars, int* num_pvars, int* num_categories) {
  if (!valid_index(index)) return MPI_T_ERR_INVALID_INDEX;
  copy_string(kCategories[index].name, name, name_len);
  copy_string(kCategories[index].desc, desc, desc_len);
  if (num_cvars) *num_cvars = int(members(index, cvar_count(), cvar_category).size());
  if (num_pvars) *num_pvars = int(members(index, pvar_count(), pvar_category).size());
  if (num_categories) *num_categories = 0;
  return MPI_SUCCESS;
}

int category_get_index(const char* name, int* index) {
  return index_by_name(name, kCount, [](int i) { return kCategories[i].name; }, index);
}

int category_get_cvars(int index, int len, int indices[]) {
  if (!valid_index(index)) return MPI_T_ERR_INVALID_INDEX;
  return copy_members(members(index, cvar_count(), cvar_category), len, indices);
}

int category_get_pvars(int index, int len, int indices[]) {
  if (!valid_index(index)) return MPI_T_ERR_INVALID_INDEX;
  return copy_members(members(index, pvar_count(), pvar_category), len, indices);
}

}  // namespace weft::tools
