// The device reduction kernels (gpu/device_reduce.cu) against the host kernels
// (runtime/op/kernels.cpp): for every predefined (op, type) with a device launcher, random
// inputs reduced on both sides must agree byte for byte (the same functors, no FMA).
//   device_reduce_check --coverage   which (op, type) have a device kernel: every one the host
//                                    has, long double's arithmetic excepted (no GPU needed)
//   device_reduce_check              the comparison; exits 77 when no GPU is visible
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "gpu/device_reduce.hpp"
#include "runtime/datatype/predefined.hpp"
#include "runtime/op/op.hpp"

using namespace weft;

namespace {

bool long_double_family(MPI_Datatype type) {
  return type == MPI_LONG_DOUBLE || type == MPI_C_LONG_DOUBLE_COMPLEX ||
         type == MPI_CXX_LONG_DOUBLE_COMPLEX || type == MPI_LONG_DOUBLE_INT;
}

std::string name_of(MPI_Op op, MPI_Datatype type) {
  return op_name(op) + " on " + predefined_type(type).name;
}

size_t type_size(MPI_Datatype type) { return predefined_type(type).size; }

// Device launchers exist exactly where host kernels do, but for long double's arithmetic.
int check_coverage() {
  int with_device = 0, host_only = 0, wrong = 0;
  for (MPI_Op op = MPI_MAX; op <= MPI_NO_OP; ++op) {
    for (MPI_Datatype type = 1; type <= kLastPredefinedType; ++type) {
      const bool host = predefined_kernel(op, type, type_size(type)) != nullptr;
      const bool device = gpu::device_reduce_launcher(op, type) != nullptr;
      const bool host_only_expected =
          long_double_family(type) && op != MPI_REPLACE && op != MPI_NO_OP;
      if (device) ++with_device;
      if (host && !device) ++host_only;
      if (device != (host && !host_only_expected)) {
        std::printf("FAIL: %s: host kernel %s, device kernel %s\n", name_of(op, type).c_str(),
                    host ? "yes" : "no", device ? "yes" : "no");
        ++wrong;
      }
    }
  }
  std::printf("%d (op, type) pairs have a device kernel, %d only a host kernel (long double)\n",
              with_device, host_only);
  return wrong == 0 ? 0 : 1;
}

// splitmix64 (Steele, Lea, Flood: "Fast splittable pseudorandom number generators", 2014).
struct Random {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
};

// One random scalar of `bytes` at p. Floats are finite (no NaN: a NaN's payload after an
// operation differs between CPU and GPU); complex parts lie within 2^+-20, so a product cannot
// overflow into inf - inf = NaN, where std::complex then recovers infinities and Complex does not.
void random_scalar(Random& rng, MPI_Datatype type, const ScalarField& field, unsigned char* p) {
  const uint64_t r = rng.next();
  const bool complex_part = predefined_type(type).nfields == 2 && !predefined_type(type).pair;
  if (type == MPI_C_BOOL || type == MPI_CXX_BOOL) {
    *p = r & 1;
  } else if (field.kind == ScalarKind::kFloat && field.native == 4) {
    uint32_t bits = uint32_t(r);
    uint32_t exponent = (bits >> 23) & 0xff;
    exponent = complex_part ? 107 + exponent % 41 : exponent % 255;
    bits = (bits & 0x807fffffu) | (exponent << 23);
    std::memcpy(p, &bits, 4);
  } else if (field.kind == ScalarKind::kFloat && field.native == 8) {
    uint64_t exponent = (r >> 52) & 0x7ff;
    exponent = complex_part ? 1003 + exponent % 41 : exponent % 2047;
    const uint64_t bits = (r & 0x800fffffffffffffull) | (exponent << 52);
    std::memcpy(p, &bits, 8);
  } else if (type == MPIX_C_FLOAT16 || type == MPIX_BFLOAT16) {
    uint16_t bits = uint16_t(r);
    const uint16_t exponent_mask = type == MPIX_BFLOAT16 ? 0x7f80 : 0x7c00;
    if ((bits & exponent_mask) == exponent_mask) bits &= uint16_t(~0x4000);
    std::memcpy(p, &bits, 2);
  } else {
    for (size_t i = 0; i < field.native; ++i) p[i] = uint8_t(r >> (8 * (i % 8)));
  }
}

// n elements of `type` as reductions see them: packed, the fields back to back.
std::vector<unsigned char> random_elements(Random& rng, MPI_Datatype type, size_t n) {
  const PredefinedType& t = predefined_type(type);
  std::vector<unsigned char> data(n * t.size);
  unsigned char* p = data.data();
  for (size_t i = 0; i < n; ++i) {
    for (int f = 0; f < t.nfields; ++f) {
      random_scalar(rng, type, t.fields[f], p);
      p += t.fields[f].native;
    }
  }
  return data;
}

bool cuda_ok(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return true;
  std::printf("FAIL: %s: %s\n", what, cudaGetErrorString(e));
  return false;
}

// Device buffers for the largest case, reused throughout.
struct DeviceBuffers {
  unsigned char* in = nullptr;
  unsigned char* inout = nullptr;
};

// Reduces n elements starting `offset` bytes into both inputs on the device and on the host and
// compares the results; false (after a message) when they differ.
bool compare_one(MPI_Op op, MPI_Datatype type, const std::vector<unsigned char>& in,
                 const std::vector<unsigned char>& inout, size_t n, size_t offset,
                 const DeviceBuffers& device) {
  const size_t bytes = n * type_size(type);
  std::vector<unsigned char> host_in(in.begin() + offset, in.begin() + offset + bytes);
  std::vector<unsigned char> host_inout(inout.begin() + offset, inout.begin() + offset + bytes);
  predefined_kernel(op, type, type_size(type))(host_in.data(), host_inout.data(), n);

  std::vector<unsigned char> from_device(bytes);
  if (!cuda_ok(cudaMemcpy(device.in + offset, in.data() + offset, bytes, cudaMemcpyHostToDevice),
               "copy in") ||
      !cuda_ok(cudaMemcpy(device.inout + offset, inout.data() + offset, bytes,
                          cudaMemcpyHostToDevice),
               "copy inout"))
    return false;
  const int launched =
      gpu::device_reduce_launcher(op, type)(device.in + offset, device.inout + offset, n, nullptr);
  if (!cuda_ok(cudaError_t(launched), "launch") ||
      !cuda_ok(cudaDeviceSynchronize(), "kernel") ||
      !cuda_ok(cudaMemcpy(from_device.data(), device.inout + offset, bytes, cudaMemcpyDeviceToHost),
               "copy back"))
    return false;
  if (std::memcmp(from_device.data(), host_inout.data(), bytes) == 0) return true;
  size_t at = 0;
  while (from_device[at] == host_inout[at]) ++at;
  const size_t element = at / type_size(type);
  std::printf("FAIL: %s, %zu elements at byte offset %zu: element %zu differs:\n  device",
              name_of(op, type).c_str(), n, offset, element);
  for (size_t i = 0; i < type_size(type); ++i)
    std::printf(" %02x", from_device[element * type_size(type) + i]);
  std::printf("\n  host  ");
  for (size_t i = 0; i < type_size(type); ++i)
    std::printf(" %02x", host_inout[element * type_size(type) + i]);
  std::printf("\n");
  return false;
}

int check_kernels() {
  int devices = 0;
  const cudaError_t e = cudaGetDeviceCount(&devices);
  if (e != cudaSuccess || devices == 0) {
    std::printf("skipped: no GPU visible (cudaGetDeviceCount: %s, %d devices)\n",
                e == cudaSuccess ? "ok" : cudaGetErrorString(e), e == cudaSuccess ? devices : 0);
    return 77;
  }
  // Past 4096 blocks of 256 threads, so the grid-stride loop takes a second turn.
  const size_t sizes[] = {0, 1, 255, 257, 100003, (size_t(1) << 20) + 12345};
  const size_t kMax = sizes[5] + 1;
  DeviceBuffers device;
  if (!cuda_ok(cudaMalloc(&device.in, kMax * 32 + 16), "cudaMalloc") ||
      !cuda_ok(cudaMalloc(&device.inout, kMax * 32 + 16), "cudaMalloc"))
    return 1;
  Random rng{20261124};
  int compared = 0, failed = 0;
  for (MPI_Datatype type = 1; type <= kLastPredefinedType; ++type) {
    const std::vector<unsigned char> in = random_elements(rng, type, kMax);
    const std::vector<unsigned char> inout = random_elements(rng, type, kMax);
    for (MPI_Op op = MPI_MAX; op <= MPI_NO_OP; ++op) {
      if (gpu::device_reduce_launcher(op, type) == nullptr) continue;
      for (size_t n : sizes) {
        failed += !compare_one(op, type, in, inout, n, 0, device);
        ++compared;
      }
      // Pairs also from the second element on (MPI_DOUBLE_INT's double then sits at 12 bytes)
      // and from an odd byte: the device must read them unaligned.
      if (predefined_type(type).pair) {
        const size_t size = type_size(type);
        failed += !compare_one(op, type, in, inout, sizes[4], size, device);
        failed += !compare_one(op, type, in, inout, sizes[4] - 1, 1, device);
        compared += 2;
      }
    }
  }
  cudaFree(device.in);
  cudaFree(device.inout);
  std::printf("%d comparisons, %d failed\n", compared, failed);
  return failed == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const bool coverage_only = argc > 1 && std::strcmp(argv[1], "--coverage") == 0;
  const int coverage = check_coverage();
  if (coverage != 0 || coverage_only) return coverage;
  return check_kernels();
}
