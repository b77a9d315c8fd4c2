/**
 * Number formats, block quantizers, safetensors checkpoints, checkpoint quantization and accuracy-aware precision
 * choices.
 */
module dev.roofline.quant {
    requires transitive dev.roofline.core;
    requires com.fasterxml.jackson.databind;
    // optional: the NVFP4 quantizer vectorizes when the JVM has it (--add-modules jdk.incubator.vector)
    requires static jdk.incubator.vector;

    exports dev.roofline.quant.safetensors;
    exports dev.roofline.quant.block;
    exports dev.roofline.quant.recommend;
    exports dev.roofline.quant.checkpoint;

    provides dev.roofline.core.cli.Command with
            dev.roofline.quant.cli.QuantizeCommand,
            dev.roofline.quant.cli.AdviseCommand;
}
