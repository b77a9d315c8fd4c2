package dev.roofline.cuda.internal;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OwnedResourcesTest {

    @Test
    void closesEveryResourceLastFirstEvenWhenSomeFail() {
        List<String> closed = new ArrayList<>();
        OwnedResources owned = new OwnedResources();
        owned.add(() -> closed.add("a"));
        owned.add(() -> {
            closed.add("b");
            throw new IllegalStateException("b failed");
        });
        owned.add(() -> {
            closed.add("c");
            throw new java.io.IOException("c failed");
        });
        assertThatThrownBy(owned::close)
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("close failed: java.io.IOException: c failed")
                .satisfies(e -> assertThat(e.getSuppressed())
                        .extracting(Throwable::getMessage)
                        .containsExactly("b failed"));
        assertThat(closed).containsExactly("c", "b", "a");
    }

    @Test
    void aFailureWhileMeasuringStaysTheOneThrown() {
        List<String> closed = new ArrayList<>();
        assertThatThrownBy(() -> {
                    try (OwnedResources owned = new OwnedResources()) {
                        owned.add(() -> {
                            closed.add("buffer");
                            throw new IllegalStateException("free failed");
                        });
                        throw new IllegalArgumentException("launch failed");
                    }
                })
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("launch failed")
                .satisfies(e -> assertThat(e.getSuppressed())
                        .extracting(Throwable::getMessage)
                        .containsExactly("free failed"));
        assertThat(closed).containsExactly("buffer");
    }

    @Test
    void addReturnsTheResourceAndClosingTwiceClosesOnce() {
        List<String> closed = new ArrayList<>();
        OwnedResources owned = new OwnedResources();
        AutoCloseable r = () -> closed.add("r");
        assertThat(owned.add(r)).isSameAs(r);
        owned.close();
        owned.close();
        assertThat(closed).containsExactly("r");
    }
}
