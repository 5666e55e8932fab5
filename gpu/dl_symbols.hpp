// Filling a table of function pointers from a library loaded with dlopen: each entry point by
// name, the first one missing remembered for the message that says why the library is unusable.
#pragma once
#include <dlfcn.h>

#include <string>

namespace weft::gpu {

template <typename F>
bool resolve_symbol(void* library, const char* name, F* out, std::string* missing) {
  *out = reinterpret_cast<F>(dlsym(library, name));
  if (*out == nullptr && missing->empty()) *missing = name;
  return *out != nullptr;
}

}  // namespace weft::gpu
