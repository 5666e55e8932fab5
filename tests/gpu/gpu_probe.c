/* Says whether this machine has a CUDA device the GPU tests can use: exit 0 when one is
 * visible, 77 (ctest's and the test scripts' "skipped") with the reason when none is. No MPI. */
#include <cuda_runtime.h>
#include <stdio.h>

int main(void) {
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    printf("gpu_probe: no usable CUDA device (cudaGetDeviceCount: %s, %s): GPU tests skipped\n",
           cudaGetErrorName(err), cudaGetErrorString(err));
    return 77;
  }
  if (count == 0) {
    printf("gpu_probe: the CUDA driver sees no device: GPU tests skipped\n");
    return 77;
  }
  struct cudaDeviceProp prop;
  if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess)
    printf("gpu_probe: %d device(s); device 0: %s, compute capability %d.%d, %.1f GiB\n", count,
           prop.name, prop.major, prop.minor, prop.totalGlobalMem / 1073741824.0);
  return 0;
}
