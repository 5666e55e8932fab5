// Element arithmetic of the fake NCCL (elements.hpp), with Weft's own element functors and
// 16-bit float types (runtime/op), as a GPU would compute it.
#include "elements.hpp"

#include <cstdint>
#include <cstring>

#include "runtime/op/half.hpp"

namespace fake_nccl {
namespace {

enum Type {
  kInt8,
  kUint8,
  kInt32,
  kUint32,
  kInt64,
  kUint64,
  kFloat16,
  kFloat32,
  kFloat64,
  kBfloat16
};
enum Op { kSum, kProd, kMax, kMin };

template <typename F, typename T>
void fold_with(void* acc, const void* in, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    T a, b;
    std::memcpy(&a, static_cast<char*>(acc) + i * sizeof(T), sizeof(T));
    std::memcpy(&b, static_cast<const char*>(in) + i * sizeof(T), sizeof(T));
    a = F::apply(a, b);
    std::memcpy(static_cast<char*>(acc) + i * sizeof(T), &a, sizeof(T));
  }
}

template <typename T>
bool fold_as(int op, void* acc, const void* in, size_t n) {
  switch (op) {
    case kSum:
      fold_with<weft::Sum, T>(acc, in, n);
      return true;
    case kProd:
      fold_with<weft::Prod, T>(acc, in, n);
      return true;
    case kMax:
      fold_with<weft::Max, T>(acc, in, n);
      return true;
    case kMin:
      fold_with<weft::Min, T>(acc, in, n);
      return true;
    default:
      return false;
  }
}

}  // namespace

size_t element_size(int type) {
  switch (type) {
    case kInt8:
    case kUint8:
      return 1;
    case kFloat16:
    case kBfloat16:
      return 2;
    case kInt32:
    case kUint32:
    case kFloat32:
      return 4;
    case kInt64:
    case kUint64:
    case kFloat64:
      return 8;
    default:
      return 0;
  }
}

bool fold(int op, int type, void* acc, const void* in, size_t n) {
  switch (type) {
    case kInt8:
      return fold_as<int8_t>(op, acc, in, n);
    case kUint8:
      return fold_as<uint8_t>(op, acc, in, n);
    case kInt32:
      return fold_as<int32_t>(op, acc, in, n);
    case kUint32:
      return fold_as<uint32_t>(op, acc, in, n);
    case kInt64:
      return fold_as<int64_t>(op, acc, in, n);
    case kUint64:
      return fold_as<uint64_t>(op, acc, in, n);
    case kFloat16:
      return fold_as<weft::Float16>(op, acc, in, n);
    case kFloat32:
      return fold_as<float>(op, acc, in, n);
    case kFloat64:
      return fold_as<double>(op, acc, in, n);
    case kBfloat16:
      return fold_as<weft::BFloat16>(op, acc, in, n);
    default:
      return false;
  }
}

}  // namespace fake_nccl
