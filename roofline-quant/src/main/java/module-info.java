/** Number-format codecs and (in later work) block quantizers and safetensors checkpoints. */
module dev.roofline.quant {
    requires transitive dev.roofline.core;
    requires com.fasterxml.jackson.databind;
    exports dev.roofline.quant.format;
    exports dev.roofline.quant.safetensors;
    exports dev.roofline.quant.block;
    exports dev.roofline.quant.recommend;
}
