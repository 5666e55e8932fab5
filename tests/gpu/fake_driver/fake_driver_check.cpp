// Checks the fake CUDA driver against the driver behaviour Weft relies on: errors before
// cuInit, contexts, attributes of each kind of memory, copies through guarded memory, the guard
// itself (a CPU read of device memory dies of SIGSEGV), streams that run after their calls
// returned (in order, host functions on a thread of their own, waits on a word, the legacy
// stream waiting for blocking streams), and IPC between two processes.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

#include "fake_driver.hpp"

using namespace fake_cuda;

struct IpcMemHandle {
  unsigned char bytes[kIpcHandleBytes];
};

extern "C" {
CuResult cuInit(unsigned flags);
CuResult cuDriverGetVersion(int* version);
CuResult cuDeviceGetCount(int* count);
CuResult cuDeviceGetName(char* name, int length, CuDevice device);
CuResult cuDevicePrimaryCtxRetain(CuContext* context, CuDevice device);
CuResult cuDevicePrimaryCtxGetState(CuDevice device, unsigned* flags, int* active);
CuResult cuCtxGetCurrent(CuContext* context);
CuResult cuCtxSetCurrent(CuContext context);
CuResult cuMemAlloc_v2(CuDevicePtr* p, size_t bytes);
CuResult cuMemAllocAsync(CuDevicePtr* p, size_t bytes, CuStream stream);
CuResult cuMemAllocManaged(CuDevicePtr* p, size_t bytes, unsigned flags);
CuResult cuMemHostAlloc(void** p, size_t bytes, unsigned flags);
CuResult cuMemFree_v2(CuDevicePtr p);
CuResult cuMemFreeHost(void* p);
CuResult cuMemcpy(CuDevicePtr dst, CuDevicePtr src, size_t bytes);
CuResult cuMemsetD8_v2(CuDevicePtr p, unsigned char value, size_t bytes);
CuResult cuMemcpyAsync(CuDevicePtr dst, CuDevicePtr src, size_t bytes, CuStream stream);
CuResult cuStreamCreate(CuStream* stream, unsigned flags);
CuResult cuStreamSynchronize(CuStream stream);
CuResult cuStreamDestroy_v2(CuStream stream);
CuResult cuLaunchHostFunc(CuStream stream, void (*fn)(void*), void* data);
CuResult cuStreamWaitValue32_v2(CuStream stream, CuDevicePtr address, unsigned value,
                                unsigned flags);
CuResult cuEventCreate(CuEvent* event, unsigned flags);
CuResult cuEventRecord(CuEvent event, CuStream stream);
CuResult cuEventSynchronize(CuEvent event);
CuResult cuEventDestroy_v2(CuEvent event);
CuResult cuPointerGetAttributes(unsigned count, int* attributes, void** data, CuDevicePtr p);
CuResult cuMemGetAddressRange_v2(CuDevicePtr* base, size_t* size, CuDevicePtr p);
CuResult cuIpcGetMemHandle(IpcMemHandle* handle, CuDevicePtr p);
CuResult cuIpcOpenMemHandle_v2(CuDevicePtr* p, IpcMemHandle handle, unsigned flags);
CuResult cuIpcCloseMemHandle(CuDevicePtr p);
CuResult cuGetErrorString(CuResult error, const char** text);
CuResult weft_fake_cuda_launch(CuStream stream, int (*fn)(void*), void* data);
void* weft_fake_cuda_host_view(CuDevicePtr address, size_t bytes);
}

namespace {

int g_failures = 0;

void expect(bool ok, const char* what, int line) {
  if (ok) return;
  std::fprintf(stderr, "fake_driver_check:%d (pid %d): %s\n", line, int(getpid()), what);
  ++g_failures;
}
#define EXPECT(condition) expect((condition), #condition, __LINE__)

CuDevicePtr address(const void* p) { return CuDevicePtr(reinterpret_cast<uintptr_t>(p)); }

struct Attributes {
  unsigned memory_type = 99;
  bool is_managed = true;
  int ordinal = 99;
  unsigned long long buffer_id = 0;
  CuDevicePtr start = 1;
  size_t size = 1;
  bool ipc_capable = true;
};

Attributes attributes_of(CuDevicePtr p) {
  Attributes a;
  int which[] = {2, 8, 9, 7, 11, 12, 10};
  void* data[] = {&a.memory_type, &a.is_managed, &a.ordinal,    &a.buffer_id,
                  &a.start,       &a.size,       &a.ipc_capable};
  EXPECT(cuPointerGetAttributes(7, which, data, p) == kSuccess);
  return a;
}

// Whether reading `p` with the CPU kills a child process with SIGSEGV.
bool cpu_read_faults(CuDevicePtr p) {
  const pid_t child = fork();
  if (child == 0) {
    volatile unsigned char byte = *reinterpret_cast<volatile unsigned char*>(uintptr_t(p));
    (void)byte;
    _exit(0);
  }
  int status = 0;
  waitpid(child, &status, 0);
  return WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV;
}

void check_before_init() {
  CuContext context = nullptr;
  EXPECT(cuCtxGetCurrent(&context) == kErrorNotInitialized);
  Attributes a;
  int which[] = {2};
  void* data[] = {&a.memory_type};
  EXPECT(cuPointerGetAttributes(1, which, data, address(&a)) == kErrorNotInitialized);
  int version = 0;
  EXPECT(cuDriverGetVersion(&version) == kSuccess && version == kDriverVersion);
}

void check_device_and_context() {
  EXPECT(cuInit(0) == kSuccess);
  int count = 0;
  EXPECT(cuDeviceGetCount(&count) == kSuccess && count == 1);
  char name[64] = "";
  EXPECT(cuDeviceGetName(name, sizeof name, 0) == kSuccess && std::strstr(name, "fake") != nullptr);
  CuDevicePtr p = 0;
  EXPECT(cuMemAlloc_v2(&p, 16) == kErrorInvalidContext);  // no context current yet
  unsigned flags = 0;
  int active = 1;
  EXPECT(cuDevicePrimaryCtxGetState(0, &flags, &active) == kSuccess && active == 0);
  CuContext context = nullptr;
  EXPECT(cuDevicePrimaryCtxRetain(&context, 0) == kSuccess && context != nullptr);
  EXPECT(cuCtxSetCurrent(context) == kSuccess);
  EXPECT(cuDevicePrimaryCtxGetState(0, &flags, &active) == kSuccess && active == 1);
  const char* text = nullptr;
  EXPECT(cuGetErrorString(kErrorInvalidValue, &text) == kSuccess &&
         std::strcmp(text, "CUDA_ERROR_INVALID_VALUE") == 0);
}

void check_device_memory() {
  constexpr size_t kBytes = 10000;
  CuDevicePtr d = 0, e = 0;
  EXPECT(cuMemAlloc_v2(&d, kBytes) == kSuccess && cuMemAlloc_v2(&e, kBytes) == kSuccess);
  const Attributes a = attributes_of(d + 17);
  EXPECT(a.memory_type == kMemoryTypeDevice && !a.is_managed && a.ordinal == 0);
  EXPECT(a.start == d && a.size == kBytes && a.ipc_capable && a.buffer_id != 0);
  EXPECT(attributes_of(e).buffer_id != a.buffer_id);
  CuDevicePtr base = 0;
  size_t size = 0;
  EXPECT(cuMemGetAddressRange_v2(&base, &size, d + 100) == kSuccess && base == d && size == kBytes);
  EXPECT(cpu_read_faults(d) && cpu_read_faults(d + kBytes - 1));

  std::vector<unsigned char> in(kBytes), out(kBytes, 0);
  for (size_t i = 0; i < kBytes; ++i) in[i] = static_cast<unsigned char>(i * 7 + 3);
  EXPECT(cuMemcpy(d, address(in.data()), kBytes) == kSuccess);
  EXPECT(cuMemcpy(e, d, kBytes) == kSuccess);
  EXPECT(cuMemcpy(address(out.data()), e, kBytes) == kSuccess && out == in);
  EXPECT(cuMemsetD8_v2(e + 10, 0xab, 5) == kSuccess);
  EXPECT(cuMemcpy(address(out.data()), e, 20) == kSuccess && out[9] == in[9] && out[10] == 0xab &&
         out[14] == 0xab && out[15] == in[15]);
  EXPECT(cuMemcpy(address(out.data()), d + 1, kBytes) == kErrorInvalidValue);  // overruns d
  EXPECT(cuMemFree_v2(d) == kSuccess && cuMemFree_v2(e) == kSuccess);
  EXPECT(cuMemFree_v2(d) == kErrorInvalidValue);
  EXPECT(attributes_of(d).buffer_id == 0);  // forgotten once freed
}

void check_other_memory() {
  const Attributes host = attributes_of(address(&g_failures));
  EXPECT(host.memory_type == 0 && host.buffer_id == 0 && !host.is_managed);
  CuDevicePtr base = 0;
  EXPECT(cuMemGetAddressRange_v2(&base, nullptr, address(&g_failures)) == kErrorNotFound);

  CuDevicePtr managed = 0;
  EXPECT(cuMemAllocManaged(&managed, 100, 1) == kSuccess);
  reinterpret_cast<unsigned char*>(uintptr_t(managed))[99] = 5;  // the CPU may touch it
  const Attributes m = attributes_of(managed);
  EXPECT(m.memory_type == kMemoryTypeDevice && m.is_managed && !m.ipc_capable);
  IpcMemHandle handle;
  EXPECT(cuIpcGetMemHandle(&handle, managed) == kErrorInvalidValue);
  EXPECT(cuMemFree_v2(managed) == kSuccess);

  void* pinned = nullptr;
  EXPECT(cuMemHostAlloc(&pinned, 100, 0) == kSuccess);
  static_cast<unsigned char*>(pinned)[99] = 5;
  const Attributes p = attributes_of(address(pinned));
  EXPECT(p.memory_type == kMemoryTypeHost && !p.is_managed && !p.ipc_capable);
  EXPECT(cuIpcGetMemHandle(&handle, address(pinned)) == kErrorInvalidValue);
  EXPECT(cuMemFreeHost(pinned) == kSuccess);

  CuDevicePtr pool = 0;
  EXPECT(cuMemAllocAsync(&pool, 100, nullptr) == kSuccess);
  const Attributes q = attributes_of(pool);
  EXPECT(q.memory_type == kMemoryTypeDevice && !q.is_managed && !q.ipc_capable);
  EXPECT(cuIpcGetMemHandle(&handle, pool) == kErrorInvalidValue);
  EXPECT(cpu_read_faults(pool));
  EXPECT(cuMemFree_v2(pool) == kSuccess);
}

// The importer's half of check_ipc: reads the exporter's bytes, writes its own, and keeps
// reading them after the exporter freed its allocation. Returns its failure count.
int import_in_child(const IpcMemHandle& handle, size_t bytes, int to_parent, int from_parent) {
  CuDevicePtr p = 0, again = 0;
  EXPECT(cuIpcOpenMemHandle_v2(&p, handle, 1) == kSuccess);
  EXPECT(cuIpcOpenMemHandle_v2(&again, handle, 1) == kSuccess && again == p);
  EXPECT(cpu_read_faults(p));
  EXPECT(attributes_of(p).memory_type == kMemoryTypeDevice);
  std::vector<unsigned char> got(bytes);
  EXPECT(cuMemcpy(address(got.data()), p, bytes) == kSuccess && got[0] == 1 && got[bytes - 1] == 2);
  EXPECT(cuMemsetD8_v2(p, 9, bytes) == kSuccess);
  char go = 0;
  EXPECT(write(to_parent, &go, 1) == 1 && read(from_parent, &go, 1) == 1);  // parent frees
  EXPECT(cuMemcpy(address(got.data()), p, bytes) == kSuccess && got[0] == 9 && got[bytes - 1] == 9);
  EXPECT(cuIpcCloseMemHandle(p) == kSuccess && cuIpcCloseMemHandle(p) == kSuccess);
  EXPECT(cuIpcCloseMemHandle(p) == kErrorInvalidValue);
  EXPECT(cuIpcOpenMemHandle_v2(&p, handle, 1) == kErrorInvalidHandle);  // freed by its owner
  return g_failures;
}

// A host function that holds its stream until `open` is set, noting the thread it ran on.
struct Gate {
  std::atomic<bool> open{false}, passed{false};
  std::thread::id ran_on;
};
void wait_at_gate(void* data) {
  auto* gate = static_cast<Gate*>(data);
  gate->ran_on = std::this_thread::get_id();
  while (!gate->open.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  gate->passed.store(true);
}

void check_streams() {
  constexpr size_t kBytes = 4096;
  std::vector<unsigned char> in(kBytes, 7), out(kBytes, 0);
  CuDevicePtr d = 0;
  CuStream s = nullptr, blocking = nullptr;
  CuEvent event = nullptr;
  EXPECT(cuMemAlloc_v2(&d, kBytes) == kSuccess);
  EXPECT(cuStreamCreate(&s, 1) == kSuccess && cuStreamCreate(&blocking, 0) == kSuccess);
  EXPECT(cuEventCreate(&event, 0) == kSuccess);
  // Work queued behind a closed gate has not run when its calls return, and runs in order.
  Gate gate;
  EXPECT(cuLaunchHostFunc(s, wait_at_gate, &gate) == kSuccess);
  EXPECT(cuMemcpyAsync(d, address(in.data()), kBytes, s) == kSuccess);
  EXPECT(cuMemcpyAsync(address(out.data()), d, kBytes, s) == kSuccess);
  EXPECT(cuEventRecord(event, s) == kSuccess);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT(out[0] == 0 && out[kBytes - 1] == 0);
  gate.open.store(true);
  EXPECT(cuEventSynchronize(event) == kSuccess && out == in);
  EXPECT(gate.ran_on != std::this_thread::get_id());
  // A synchronous copy (the legacy stream) waits for a blocking stream's earlier work; a
  // non-blocking stream's work does not wait for the legacy stream's.
  Gate held;
  EXPECT(cuLaunchHostFunc(blocking, wait_at_gate, &held) == kSuccess);
  std::thread opener([&held] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    held.open.store(true);
  });
  EXPECT(cuMemcpy(address(out.data()), d, 1) == kSuccess && held.passed.load());
  opener.join();
  // A wait on a word holds the stream until the word reaches the value (cyclically), with no
  // host thread's help.
  uint32_t word = 0xfffffffeu;
  out.assign(kBytes, 0);
  EXPECT(cuStreamWaitValue32_v2(s, address(&word), 1, 0) == kSuccess);
  EXPECT(cuMemcpyAsync(address(out.data()), d, kBytes, s) == kSuccess);
  EXPECT(cuEventRecord(event, s) == kSuccess);
  __atomic_store_n(&word, 0xffffffffu, __ATOMIC_RELEASE);  // still before 1
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT(out[0] == 0);
  __atomic_store_n(&word, 1u, __ATOMIC_RELEASE);
  EXPECT(cuEventSynchronize(event) == kSuccess && out == in);
  EXPECT(cuStreamWaitValue32_v2(s, address(&word), 1, 1) == kErrorNotSupported);  // not GEQ
  // A failed copy is reported by the stream's next synchronisation, and only once.
  EXPECT(cuMemcpyAsync(address(out.data()), d + 1, kBytes, s) == kSuccess);
  EXPECT(cuStreamSynchronize(s) == kErrorInvalidValue && cuStreamSynchronize(s) == kSuccess);
  EXPECT(cuLaunchHostFunc(s, nullptr, nullptr) == kErrorInvalidValue);
  EXPECT(cuEventDestroy_v2(event) == kSuccess && cuEventDestroy_v2(event) == kErrorInvalidHandle);
  EXPECT(cuStreamDestroy_v2(s) == kSuccess && cuStreamDestroy_v2(blocking) == kSuccess);
  EXPECT(cuStreamSynchronize(s) == kErrorInvalidHandle);
  EXPECT(cuMemFree_v2(d) == kSuccess);
}

// The fake NCCL's hooks: a "kernel" on a stream writing device memory through its host view,
// in the stream's order; a failing one fails the stream.
struct Fill {
  CuDevicePtr at;
  size_t bytes;
};
int fill_sevens(void* data) {
  const Fill* f = static_cast<const Fill*>(data);
  void* view = weft_fake_cuda_host_view(f->at, f->bytes);
  if (view == nullptr) return 1;
  std::memset(view, 7, f->bytes);
  return 0;
}
void check_kernel_hooks() {
  constexpr size_t kBytes = 300;
  CuDevicePtr d = 0;
  CuStream s = nullptr;
  EXPECT(cuMemAlloc_v2(&d, kBytes) == kSuccess && cuStreamCreate(&s, 1) == kSuccess);
  EXPECT(weft_fake_cuda_host_view(d, kBytes + 1) == nullptr);  // past the allocation
  EXPECT(cuMemsetD8_v2(d, 0, kBytes) == kSuccess);
  Fill fill{d + 100, 100};
  std::vector<unsigned char> out(kBytes, 1);
  EXPECT(weft_fake_cuda_launch(s, fill_sevens, &fill) == kSuccess);
  EXPECT(cuMemcpyAsync(address(out.data()), d, kBytes, s) == kSuccess);
  EXPECT(cuStreamSynchronize(s) == kSuccess);
  EXPECT(out[99] == 0 && out[100] == 7 && out[199] == 7 && out[200] == 0);
  Fill past{d + 200, kBytes};
  EXPECT(weft_fake_cuda_launch(s, fill_sevens, &past) == kSuccess);
  EXPECT(cuStreamSynchronize(s) == kErrorInvalidValue);
  EXPECT(weft_fake_cuda_launch(s, nullptr, nullptr) == kErrorInvalidValue);
  EXPECT(cuStreamDestroy_v2(s) == kSuccess && cuMemFree_v2(d) == kSuccess);
}

void check_ipc() {
  constexpr size_t kBytes = 5000;
  CuDevicePtr d = 0;
  EXPECT(cuMemAlloc_v2(&d, kBytes) == kSuccess);
  EXPECT(cuMemsetD8_v2(d, 1, kBytes - 1) == kSuccess && cuMemsetD8_v2(d + kBytes - 1, 2, 1) == 0);
  IpcMemHandle handle, inner;
  EXPECT(cuIpcGetMemHandle(&handle, d) == kSuccess && cuIpcGetMemHandle(&inner, d + 8) == 0);
  EXPECT(std::memcmp(&handle, &inner, sizeof handle) == 0);  // a handle names the allocation
  CuDevicePtr own = 0;
  EXPECT(cuIpcOpenMemHandle_v2(&own, handle, 1) == kErrorInvalidContext);
  int up[2], down[2];
  EXPECT(pipe(up) == 0 && pipe(down) == 0);
  const pid_t child = fork();
  if (child == 0) _exit(import_in_child(handle, kBytes, up[1], down[0]) == 0 ? 0 : 1);
  char go = 0;
  EXPECT(read(up[0], &go, 1) == 1);
  unsigned char first = 0;
  EXPECT(cuMemcpy(address(&first), d, 1) == kSuccess && first == 9);
  EXPECT(cuMemFree_v2(d) == kSuccess);
  EXPECT(write(down[1], &go, 1) == 1);
  int status = 1;
  waitpid(child, &status, 0);
  EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

}  // namespace

int main() {
  check_before_init();
  check_device_and_context();
  check_device_memory();
  check_other_memory();
  check_streams();
  check_kernel_hooks();
  check_ipc();
  if (g_failures == 0) std::printf("fake_driver_check: ok\n");
  return g_failures == 0 ? 0 : 1;
}
