// The fake CUDA driver's shared parts: the driver API's types and values (as cuda.h numbers
// them), and what its files ask of each other (initialisation, contexts; streams.hpp has the
// streams).
#pragma once
#include <cstddef>
#include <cstdint>

// An entry point of the fake (exports.map exports these names and nothing else).
#define FAKE_CUDA_API extern "C"

namespace fake_cuda {

using CuResult = int;
using CuDevicePtr = unsigned long long;
using CuDevice = int;
using CuContext = void*;
using CuStream = void*;
using CuEvent = void*;

inline constexpr CuResult kSuccess = 0;
inline constexpr CuResult kErrorInvalidValue = 1;
inline constexpr CuResult kErrorOutOfMemory = 2;
inline constexpr CuResult kErrorNotInitialized = 3;
inline constexpr CuResult kErrorNoDevice = 100;
inline constexpr CuResult kErrorInvalidDevice = 101;
inline constexpr CuResult kErrorInvalidContext = 201;
inline constexpr CuResult kErrorMapFailed = 205;
inline constexpr CuResult kErrorPeerAccessUnsupported = 217;
inline constexpr CuResult kErrorInvalidHandle = 400;
inline constexpr CuResult kErrorNotFound = 500;
inline constexpr CuResult kErrorNotSupported = 801;

inline constexpr int kDriverVersion = 13000;  // what cuDriverGetVersion reports: CUDA 13.0
inline constexpr int kIpcHandleBytes = 64;    // CU_IPC_HANDLE_SIZE

// CU_MEMORYTYPE_*: what CU_POINTER_ATTRIBUTE_MEMORY_TYPE reports.
inline constexpr unsigned kMemoryTypeHost = 1;
inline constexpr unsigned kMemoryTypeDevice = 2;

// Whether cuInit has run; before it most entry points answer kErrorNotInitialized.
bool initialized();
// kSuccess when the driver is initialised and the calling thread has a current context, as
// the real driver requires for allocations, copies and streams.
CuResult require_context();
// Records that memory was allocated: the primary context counts as active from then on.
void note_allocation();
// The one context there is (device 0's primary context).
CuContext primary_context();

}  // namespace fake_cuda
