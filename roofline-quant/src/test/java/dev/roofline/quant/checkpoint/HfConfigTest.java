package dev.roofline.quant.checkpoint;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HfConfigTest {
    @TempDir
    Path dir;

    private Path config(String json) throws IOException {
        return Files.writeString(dir.resolve("config.json"), json);
    }

    @Test
    void mapsALlamaConfigToTheCoreModel() throws IOException {
        // Llama-3-8B's public config: 8,030,261,248 parameters with embeddings and lm_head
        HfConfig c = HfConfig.read(config("""
                {"model_type": "llama", "hidden_size": 4096, "intermediate_size": 14336, "num_hidden_layers": 32,
                 "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 128256, "tie_word_embeddings": false}"""));
        assertThat(c.modelType()).isEqualTo("llama");
        assertThat(c.model().parameterCount()).isEqualTo(8_030_261_248L);
    }

    @Test
    void rejectsUnsupportedOrBrokenConfigs() throws IOException {
        assertThatThrownBy(() -> HfConfig.read(config("{\"model_type\": \"bert\"}")))
                .hasMessageContaining("model_type \"bert\" is not supported").hasMessageContaining("qwen2");
        assertThatThrownBy(() -> HfConfig.read(config("{\"hidden_size\": 4}"))).hasMessageContaining("has no \"model_type\"");
        assertThatThrownBy(() -> HfConfig.read(config("{\"model_type\": "))).hasMessageContaining("is not valid JSON");
        assertThatThrownBy(() -> HfConfig.read(config("[1]"))).hasMessageContaining("must hold a JSON object");
        assertThatThrownBy(() -> HfConfig.read(config("{\"model_type\": \"mistral\", \"hidden_size\": 4096}")))
                .hasMessageContaining("config.json").hasMessageContaining("num_attention_heads");
    }
}
