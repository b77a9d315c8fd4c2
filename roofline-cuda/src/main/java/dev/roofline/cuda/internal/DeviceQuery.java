package dev.roofline.cuda.internal;

import dev.roofline.bindings.cudart.cudaDeviceProp;
import dev.roofline.bindings.cudart.cudart_h;
import dev.roofline.core.hardware.ComputeCapability;
import dev.roofline.cuda.Device;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Reads a {@link Device} from cudaGetDeviceProperties and cudaDeviceGetAttribute (CUDA 13 dropped the clocks from the struct). */
public final class DeviceQuery {
    private DeviceQuery() {}

    public static Device query(int ordinal) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment prop = cudaDeviceProp.allocate(arena);
            Cudart.check("cudaGetDeviceProperties", cudart_h.cudaGetDeviceProperties(prop, ordinal));
            String name = cudaDeviceProp.name(prop).getString(0);
            return new Device(
                    ordinal,
                    name,
                    new ComputeCapability(cudaDeviceProp.major(prop), cudaDeviceProp.minor(prop)),
                    cudaDeviceProp.multiProcessorCount(prop),
                    cudaDeviceProp.totalGlobalMem(prop),
                    cudaDeviceProp.l2CacheSize(prop),
                    Cudart.attribute(cudart_h.cudaDevAttrClockRate(), ordinal),
                    Cudart.attribute(cudart_h.cudaDevAttrMemoryClockRate(), ordinal),
                    cudaDeviceProp.memoryBusWidth(prop),
                    Device.nvmlUuid(cudaDeviceProp.uuid(prop).toArray(ValueLayout.JAVA_BYTE)));
        }
    }
}
