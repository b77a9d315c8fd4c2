/* Umbrella header for the cuBLASLt bindings (CUDA 13.0). */
#include <cublasLt.h>
