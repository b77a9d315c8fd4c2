package dev.roofline.quant.checkpoint;

import dev.roofline.core.model.ConfigJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

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
                .hasMessageContaining("model_type \"bert\" is not supported")
                .hasMessageContaining("qwen2");
        assertThatThrownBy(() -> HfConfig.read(config("{\"hidden_size\": 4}")))
                .hasMessageContaining("has no \"model_type\"");
        assertThatThrownBy(() -> HfConfig.read(config("{\"model_type\": "))).hasMessageContaining("is not valid JSON");
        assertThatThrownBy(() -> HfConfig.read(config("[1]"))).hasMessageContaining("must hold a JSON object");
        assertThatThrownBy(() -> HfConfig.read(config("{\"model_type\": \"mistral\", \"hidden_size\": 4096}")))
                .hasMessageContaining("config.json")
                .hasMessageContaining("num_attention_heads");
    }

    @Test
    void givesCoresErrorForAnUnknownModelType() throws IOException {
        Path file = config("{\"model_type\": \"qwen2_moe\", \"hidden_size\": 2048}");
        String core = catchThrowable(() -> ConfigJson.read(file)).getMessage();
        assertThat(core)
                .contains("field model_type \"qwen2_moe\" is not supported; supported: llama, mistral, qwen2,"
                        + " qwen3, phi3, gemma3, gemma3_text, mixtral, qwen3_moe, gpt_oss, deepseek_v3");
        assertThatThrownBy(() -> HfConfig.read(file))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(core);
    }

    @Test
    void namesTheModelAsCoreDoes() throws IOException {
        Path folder = Files.createDirectory(dir.resolve("Llama-3-8B"));
        Path file = Files.writeString(folder.resolve("config.json"), """
                {"model_type": "llama", "hidden_size": 4096, "intermediate_size": 14336, "num_hidden_layers": 32,
                 "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 128256}""");
        assertThat(HfConfig.read(file).model().name())
                .isEqualTo("Llama-3-8B")
                .isEqualTo(ConfigJson.read(file).name());
    }
}
