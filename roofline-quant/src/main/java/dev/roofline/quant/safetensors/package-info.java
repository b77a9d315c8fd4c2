/**
 * safetensors checkpoints: a memory-mapped, validating reader ({@link dev.roofline.quant.safetensors.SafetensorsFile}),
 * an atomic writer ({@link dev.roofline.quant.safetensors.SafetensorsWriter}) and sharded Hugging Face checkpoints
 * ({@link dev.roofline.quant.safetensors.ShardedCheckpoint}, {@code model.safetensors.index.json}).
 *
 * <p>The format: an 8-byte little-endian header length N, N bytes of UTF-8 JSON mapping tensor names to
 * {@code {"dtype", "shape", "data_offsets": [begin, end]}} (plus an optional {@code "__metadata__"} string map), then
 * the data section, all tensors little-endian, offsets relative to its start. As the reference implementation
 * (huggingface/safetensors) requires: N is at most 100,000,000, the tensors reach the end of the data section (no
 * bytes after the last one), and dtypes are its dtypes (sizes in bits: F4 and F6 pack below a byte).
 */
package dev.roofline.quant.safetensors;
