/**
 * The roofline model: number formats ({@link dev.roofline.core.precision}), GPU specifications
 * ({@link dev.roofline.core.hardware}) and predictions for operators ({@link dev.roofline.core.roofline}).
 * No runtime dependencies.
 */
module dev.roofline.core {
    exports dev.roofline.core.precision;
    exports dev.roofline.core.hardware;
    exports dev.roofline.core.roofline;
}
