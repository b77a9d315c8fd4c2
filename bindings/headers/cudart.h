/* Umbrella header for the CUDA runtime API bindings (CUDA 13.0). */
#include <cuda_runtime_api.h>
