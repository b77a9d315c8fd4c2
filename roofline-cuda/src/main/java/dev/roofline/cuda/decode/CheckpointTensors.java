package dev.roofline.cuda.decode;

import dev.roofline.quant.safetensors.Dtype;
import dev.roofline.quant.safetensors.SafetensorsFile;
import dev.roofline.quant.safetensors.ShardedCheckpoint;
import dev.roofline.quant.safetensors.TensorInfo;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The tensors of an open checkpoint as the decoder's loader asks for them: each one looked up is remembered (so the
 * loader can refuse tensors it would silently leave out), and every refusal is an {@link UnloadableTensorException}
 * naming the checkpoint, the tensor and what was expected.
 */
final class CheckpointTensors {
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final int LISTED = 8;

    private final ShardedCheckpoint checkpoint;
    private final Set<String> read = new HashSet<>();

    CheckpointTensors(ShardedCheckpoint checkpoint) {
        this.checkpoint = checkpoint;
    }

    Path directory() {
        return checkpoint.directory();
    }

    List<String> names() {
        return checkpoint.names();
    }

    boolean contains(String name) {
        return checkpoint.contains(name);
    }

    /** Whether the loader looked tensor {@code name} up. */
    boolean wasRead(String name) {
        return read.contains(name);
    }

    /** Tensor {@code name}, which exists; {@code what} says what it is for when it does not. */
    TensorInfo tensor(String name, String what) throws IOException {
        if (!checkpoint.contains(name)) {
            throw missing(name, what, "");
        }
        read.add(name);
        return checkpoint.tensor(name);
    }

    /** Tensor {@code name}, which must exist in one of {@code dtypes} and have {@code shape}. */
    TensorInfo require(String name, List<Dtype> dtypes, List<Long> shape, String what) throws IOException {
        TensorInfo t = tensor(name, what);
        if (!dtypes.contains(t.dtype()) || !t.shape().equals(shape)) {
            throw refuse(
                    name,
                    "is " + t.dtype() + " " + t.shape() + "; " + what + " must be "
                            + (dtypes.size() == 1 ? dtypes.getFirst() : "one of " + dtypes) + " " + shape);
        }
        return t;
    }

    /** The value of F32 scalar {@code name}, of shape [] or [1]. */
    float scalar(String name, String what) throws IOException {
        TensorInfo t = tensor(name, what);
        if (t.dtype() != Dtype.F32 || t.elementCount() != 1 || t.shape().size() > 1) {
            throw refuse(name, "is " + t.dtype() + " " + t.shape() + "; " + what + " must be F32 [] or [1]");
        }
        return bytes(t).get(F32, 0);
    }

    /** The stored bytes of {@code t}: a read-only view of the mapped file. */
    MemorySegment bytes(TensorInfo t) throws IOException {
        return file(t).segment(t);
    }

    /** {@code t} decoded to floats (F32, F16, BF16 exactly). */
    float[] floats(TensorInfo t) throws IOException {
        return file(t).floats(t.name());
    }

    SafetensorsFile file(TensorInfo t) throws IOException {
        return checkpoint.fileOf(t.name());
    }

    /** The names that start with {@code prefix}, the first few. */
    String namesStartingWith(String prefix) {
        List<String> names =
                checkpoint.names().stream().filter(n -> n.startsWith(prefix)).toList();
        return names.size() <= LISTED
                ? names.toString()
                : names.subList(0, LISTED) + " and " + (names.size() - LISTED) + " more";
    }

    /** Tensor {@code name} is absent; {@code module}, unless empty, is a prefix whose tensors the message lists. */
    UnloadableTensorException missing(String name, String what, String module) {
        String present = module.isEmpty() ? "[]" : namesStartingWith(module + ".");
        return new UnloadableTensorException(
                name,
                directory() + ": no tensor '" + name + "' (" + what + ")"
                        + (present.equals("[]") ? "" : "; " + module + " has " + present));
    }

    UnloadableTensorException refuse(String name, String why) {
        return new UnloadableTensorException(name, directory() + ": tensor '" + name + "' " + why);
    }
}
