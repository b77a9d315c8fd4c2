/** Number-format codecs and (in later work) block quantizers and safetensors checkpoints. */
module dev.roofline.quant {
    requires transitive dev.roofline.core;
    exports dev.roofline.quant.format;
    exports dev.roofline.quant.block;
}
