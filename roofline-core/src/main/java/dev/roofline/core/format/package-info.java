/**
 * Bit-exact codecs of the number formats: {@link dev.roofline.core.format.MiniFloat} for every small float format
 * (FP16, BF16, FP8, FP6, FP4), {@link dev.roofline.core.format.E8M0} for OCP MX scales,
 * {@link dev.roofline.core.format.Nf4} for the NF4 codebook, and hot-path codecs that give the same codes as
 * {@code MiniFloat} where they overlap ({@link dev.roofline.core.format.E2M1}, {@link dev.roofline.core.format.E4M3Scale},
 * {@link dev.roofline.core.format.Bf16}). Rounding is to nearest, ties to even, as in ml_dtypes and the OCP
 * specifications.
 */
package dev.roofline.core.format;
