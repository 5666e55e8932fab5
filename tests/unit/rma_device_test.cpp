// One-sided access to a window in GPU memory (rma/access.hpp, Target::device) over the guarded
// stand-in for device memory, which faults on any touch by the CPU: writes, reads, accumulates
// and compare-and-swap along the runs of a target type, through one host copy of the span they
// cover where they lie close together and one copy per run where they lie far apart.
#include <catch2/catch.hpp>
#include <cstring>
#include <vector>

#include "guarded_device_memory.hpp"
#include "rma/access.hpp"

using namespace weft;

namespace {

constexpr size_t kWindow = size_t(4) << 20;       // bytes
constexpr uint64_t kTargetBase = 0x7f0000000000;  // the window's start at the target

struct DeviceWindow {
  explicit DeviceWindow(test::GuardedDeviceMemory& m) : memory(m), host(kWindow / 8) {
    for (size_t i = 0; i < host.size(); ++i) host[i] = double(i % 1000);
    device = memory.upload(host.data(), kWindow);
    target.device = true;
    target.reach = rma::Reach::kMapped;
    target.base = kTargetBase;
    target.size = kWindow;
    target.mapped = device;
  }
  std::vector<double> now() {
    std::vector<double> v(host.size());
    memory.download(v.data(), device, kWindow);
    return v;
  }
  rma::TargetSpan span(const std::vector<Run>& runs, uint64_t at = 0) const {
    return rma::TargetSpan{&target, kTargetBase + at, runs.data(), runs.size()};
  }
  test::GuardedDeviceMemory& memory;
  std::vector<double> host;  // what the window held at the start
  unsigned char* device = nullptr;
  rma::Target target;
};

// Every other double of 100, from double `first` on.
std::vector<Run> strided(size_t first) {
  std::vector<Run> runs;
  for (size_t i = 0; i < 100; ++i) runs.push_back({ptrdiff_t((first + 2 * i) * 8), 8});
  return runs;
}

// MPI_SUM on doubles, bound as an accumulate binds it.
struct DoubleSum {
  DoubleSum() {
    reduction.kernel = predefined_kernel(MPI_SUM, MPI_DOUBLE, sizeof(double));
    reduction.op = MPI_SUM;
    reduction.datatype = MPI_DOUBLE;
    reduction.elem_size = sizeof(double);
    how.reduction = &reduction;
    how.op = MPI_SUM;
    how.basic = MPI_DOUBLE;
  }
  DoubleSum(const DoubleSum&) = delete;
  Reduction reduction;
  rma::Combine how;
};

// Three doubles megabytes apart.
const std::vector<Run> kFarApart = {{0, 8}, {ptrdiff_t(1) << 20, 8}, {ptrdiff_t(3) << 20, 8}};

}  // namespace

TEST_CASE("rma device window: close runs go through one host copy of their span") {
  test::GuardedDeviceMemory memory(false);
  gpu::set_device_memory(&memory);
  DeviceWindow w(memory);
  const auto runs = strided(10);
  std::vector<double> in(100), out(100);
  for (size_t i = 0; i < 100; ++i) in[i] = -1.0 - double(i);
  memory.copies = 0;
  REQUIRE(rma::write_runs(w.span(runs), reinterpret_cast<unsigned char*>(in.data())).ok());
  CHECK(memory.copies == 2);  // the span loaded and stored: the holes keep their bytes
  const auto now = w.now();
  for (size_t i = 0; i < now.size(); ++i) {
    const bool written = i >= 10 && i < 210 && (i - 10) % 2 == 0;
    REQUIRE(now[i] == (written ? in[(i - 10) / 2] : w.host[i]));
  }
  memory.copies = 0;
  REQUIRE(rma::read_runs(w.span(runs), reinterpret_cast<unsigned char*>(out.data())).ok());
  CHECK(memory.copies == 1);
  CHECK(out == in);
  gpu::set_device_memory(nullptr);
}

TEST_CASE("rma device window: runs far apart are copied one by one") {
  test::GuardedDeviceMemory memory(false);
  gpu::set_device_memory(&memory);
  DeviceWindow w(memory);
  const double in[3] = {7.5, 8.5, 9.5};
  double out[3] = {};
  memory.copies = 0;
  REQUIRE(rma::write_runs(w.span(kFarApart, 64), reinterpret_cast<const unsigned char*>(in)).ok());
  REQUIRE(rma::read_runs(w.span(kFarApart, 64), reinterpret_cast<unsigned char*>(out)).ok());
  CHECK(memory.copies == 6);
  CHECK(std::memcmp(in, out, sizeof in) == 0);
  const auto now = w.now();
  CHECK(now[8] == 7.5);
  CHECK(now[8 + (size_t(1) << 17)] == 8.5);
  CHECK(now[8 + 3 * (size_t(1) << 17)] == 9.5);
  CHECK(now[9] == w.host[9]);
  gpu::set_device_memory(nullptr);
}

TEST_CASE("rma device window: accumulates and compare-and-swap combine on a host copy") {
  test::GuardedDeviceMemory memory(false);
  gpu::set_device_memory(&memory);
  DeviceWindow w(memory);
  const DoubleSum sum;
  const rma::Combine& how = sum.how;
  const auto runs = strided(0);
  std::vector<double> add(100, 0.25), old(100);
  REQUIRE(rma::accumulate_runs(w.span(runs), reinterpret_cast<const unsigned char*>(add.data()),
                               how, reinterpret_cast<unsigned char*>(old.data()))
              .ok());
  auto now = w.now();
  for (size_t i = 0; i < 100; ++i) {
    REQUIRE(old[i] == w.host[2 * i]);
    REQUIRE(now[2 * i] == w.host[2 * i] + 0.25);
    REQUIRE(now[2 * i + 1] == w.host[2 * i + 1]);
  }
  const double value = 42.0, wrong = -5.0;
  const double right = now[2];  // element 2 as it is now
  double before = 0;
  const std::vector<Run> one = {{0, 8}};
  REQUIRE(rma::compare_and_swap(w.span(one, 16), &value, &wrong, &before, 8).ok());
  CHECK(before == right);
  CHECK(w.now()[2] == right);  // no match: unchanged
  REQUIRE(rma::compare_and_swap(w.span(one, 16), &value, &right, &before, 8).ok());
  CHECK(before == right);
  CHECK(w.now()[2] == 42.0);
  gpu::set_device_memory(nullptr);
}

TEST_CASE("rma device window: a large contiguous sum runs on the device, a replace is a write") {
  test::GuardedDeviceMemory memory(true);  // with "kernels"
  gpu::set_device_memory(&memory);
  DeviceWindow w(memory);
  const DoubleSum sum;
  const rma::Combine& how = sum.how;
  const size_t n = 65536 / 8;  // the smallest that goes to the device
  const std::vector<Run> run = {{0, n * 8}};
  const std::vector<double> add(n, 1.5);
  memory.copies = memory.reductions = 0;
  REQUIRE(rma::accumulate_runs(w.span(run, 8), reinterpret_cast<const unsigned char*>(add.data()),
                               how, nullptr)
              .ok());
  CHECK(memory.reductions == 1);
  CHECK(memory.copies == 1);  // the origin's data to the device, nothing back
  auto now = w.now();
  for (size_t i = 0; i < n; ++i) REQUIRE(now[1 + i] == w.host[1 + i] + 1.5);
  CHECK(now[0] == w.host[0]);
  CHECK(now[1 + n] == w.host[1 + n]);
  // One element fewer: combined on a host copy.
  const std::vector<Run> smaller = {{0, (n - 1) * 8}};
  memory.copies = memory.reductions = 0;
  REQUIRE(rma::accumulate_runs(w.span(smaller, 8),
                               reinterpret_cast<const unsigned char*>(add.data()), how, nullptr)
              .ok());
  CHECK(memory.reductions == 0);
  CHECK(memory.copies == 2);
  CHECK(w.now()[1] == w.host[1] + 3.0);
  // MPI_REPLACE without the old contents: one write.
  rma::Combine replace;
  replace.replace = true;
  replace.op = MPI_REPLACE;
  memory.copies = 0;
  REQUIRE(rma::accumulate_runs(w.span(run, 8), reinterpret_cast<const unsigned char*>(add.data()),
                               replace, nullptr)
              .ok());
  CHECK(memory.copies == 1);
  CHECK(w.now()[1] == 1.5);
  gpu::set_device_memory(nullptr);
}
