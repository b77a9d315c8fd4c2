/* Umbrella header for the NCCL bindings (NCCL 2.28, the nccl.h of NVIDIA's nvidia-nccl-cu13 wheel). */
#include <nccl.h>
