package dev.roofline.quant.safetensors;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/** Writes a file to a temporary file beside its target, then moves it into place atomically. */
final class FileWriting {
    private FileWriting() {}

    /** The header as the reference implementation writes it: compact JSON, padded with spaces to 8 bytes. */
    static byte[] header(Map<String, String> metadata, List<PendingTensor> tensors) {
        ObjectNode root = Json.MAPPER.createObjectNode();
        if (!metadata.isEmpty()) {
            ObjectNode meta = root.putObject(Header.METADATA_KEY);
            metadata.forEach(meta::put);
        }
        long begin = 0;
        for (PendingTensor pending : tensors) {
            TensorInfo t = pending.at(begin);
            ObjectNode entry = root.putObject(t.name());
            entry.put("dtype", t.dtype().name());
            ArrayNode shape = entry.putArray("shape");
            t.shape().forEach(dim -> shape.add(dim.longValue()));
            entry.putArray("data_offsets").add(t.begin()).add(t.end());
            begin = t.end();
        }
        byte[] json;
        try {
            json = Json.MAPPER.writeValueAsBytes(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("serializing a JSON tree of strings and numbers cannot fail", e);
        }
        byte[] padded = Arrays.copyOf(json, (json.length + 7) & ~7);
        Arrays.fill(padded, json.length, padded.length, (byte) ' ');
        return padded;
    }

    /** The whole file: header length, header, then each tensor's bytes, checked against its declared size. */
    static TensorBytes safetensors(Map<String, String> metadata, List<PendingTensor> tensors) {
        byte[] header = header(metadata, tensors);
        return out -> {
            out.write(ByteBuffer.allocate(Long.BYTES)
                    .order(ByteOrder.LITTLE_ENDIAN)
                    .putLong(header.length)
                    .array());
            out.write(header);
            for (PendingTensor t : tensors) {
                ExactLengthStream tensorOut = new ExactLengthStream(out, t);
                t.content().writeTo(tensorOut);
                tensorOut.checkComplete();
            }
        };
    }

    /**
     * Writes {@code body} to a new temporary file in {@code target}'s directory, forced to disk, and returns it; on
     * any failure the temporary file is deleted before the exception propagates.
     */
    static Path writeTemp(Path target, TensorBytes body) throws IOException {
        Path directory = target.toAbsolutePath().getParent();
        // not Files.createTempFile: its owner-only permissions would stay with the renamed file; this uses the umask
        Path temp = directory.resolve("." + target.getFileName() + "."
                + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36) + ".tmp");
        boolean written = false;
        try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                OutputStream out = new BufferedOutputStream(Channels.newOutputStream(channel), 1 << 20)) {
            body.writeTo(out);
            out.flush();
            channel.force(true);
            written = true;
            return temp;
        } finally {
            if (!written) {
                deleteQuietly(temp);
            }
        }
    }

    /** Renames {@code temp} to {@code target} atomically (replacing it); deletes {@code temp} if that fails. */
    static void moveIntoPlace(Path temp, Path target) throws IOException {
        boolean moved = false;
        try {
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            moved = true;
        } finally {
            if (!moved) {
                deleteQuietly(temp);
            }
        }
    }

    static void deleteQuietly(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException ignored) {
            // best effort while another failure propagates
        }
    }

    /** Passes one tensor's bytes through, refusing more than its shape needs; closing it does not close the file. */
    private static final class ExactLengthStream extends FilterOutputStream {
        private final PendingTensor tensor;
        private long written;

        ExactLengthStream(OutputStream out, PendingTensor tensor) {
            super(out);
            this.tensor = tensor;
        }

        @Override
        public void write(int b) throws IOException {
            reserve(1);
            out.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            reserve(len);
            out.write(b, off, len);
        }

        @Override
        public void close() {
            // the file stays open for the next tensor
        }

        private void reserve(int len) {
            if (len > tensor.byteCount() - written) {
                throw mismatch("more than");
            }
            written += len;
        }

        void checkComplete() {
            if (written != tensor.byteCount()) {
                throw mismatch("only " + written + " of");
            }
        }

        private IllegalStateException mismatch(String what) {
            return new IllegalStateException("tensor '" + tensor.name() + "' content wrote " + what + " the "
                    + tensor.byteCount() + " bytes its shape " + tensor.shape() + " × " + tensor.dtype() + " needs");
        }
    }
}
