/* Umbrella header for the NVML bindings (CUDA 13.0). */
#include <nvml.h>
