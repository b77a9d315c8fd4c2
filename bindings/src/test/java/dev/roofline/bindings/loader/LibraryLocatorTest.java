package dev.roofline.bindings.loader;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LibraryLocatorTest {

    private static LibraryLocator locator(Map<String, String> env, Set<String> files, String ldconfig) {
        return LibraryLocator.of(env, p -> files.contains(p.toString()), ldconfig);
    }

    /** A locator over a folder tree given as its files: a folder's children are the next components below it. */
    private static LibraryLocator tree(Map<String, String> env, Set<String> files) {
        return LibraryLocator.of(
                env,
                p -> files.contains(p.toString()),
                dir -> files.stream()
                        .map(Path::of)
                        .filter(f -> f.startsWith(dir) && !f.equals(dir))
                        .map(f -> dir.resolve(dir.relativize(f).getName(0)))
                        .distinct()
                        .sorted()
                        .toList(),
                "");
    }

    @Test
    void ncclIsFoundWherePytorchsWheelPutsIt() {
        String wheel = "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/nccl/lib/libnccl.so.2";
        assertThat(tree(Map.of(), Set.of(wheel)).locate(NativeLibrary.NCCL)).isEqualTo(Path.of(wheel));
    }

    @Test
    void virtualEnvironmentComesBeforeSystemPython() {
        String venv = "/home/me/env/lib/python3.11/site-packages/nvidia/nccl/lib/libnccl.so.2";
        String system = "/usr/local/lib/python3.12/dist-packages/nvidia/nccl/lib/libnccl.so.2";
        var l = tree(Map.of("VIRTUAL_ENV", "/home/me/env"), Set.of(venv, system));
        assertThat(l.locate(NativeLibrary.NCCL)).isEqualTo(Path.of(venv));
        assertThat(tree(Map.of(), Set.of(venv, system)).locate(NativeLibrary.NCCL))
                .isEqualTo(Path.of(system));
    }

    @Test
    void librariesWithoutAWheelAreNotLookedForInPython() {
        String wheel = "/usr/local/lib/python3.12/dist-packages/nvidia/nccl/lib/libcudart.so.13";
        assertThatThrownBy(() -> tree(Map.of(), Set.of(wheel)).locate(NativeLibrary.CUDART))
                .isInstanceOf(LibraryNotFoundException.class)
                .hasMessageNotContaining("python3.12");
    }

    @Test
    void missingNcclListsTheWheelFoldersTried() {
        var l = tree(Map.of(), Set.of("/usr/lib/python3.12/site-packages/numpy/__init__.py"));
        assertThatThrownBy(() -> l.locate(NativeLibrary.NCCL))
                .isInstanceOf(LibraryNotFoundException.class)
                .hasMessageContaining("/usr/lib/python3.12/site-packages/nvidia/nccl/lib/libnccl.so.2")
                .hasMessageContaining("ROOFLINE_NCCL");
    }

    @Test
    void environmentOverrideWinsOverEverythingElse() {
        var l = locator(
                Map.of("ROOFLINE_CUDART", "/opt/mine/libcudart.so.13", "LD_LIBRARY_PATH", "/ld"),
                Set.of("/opt/mine/libcudart.so.13", "/ld/libcudart.so.13"),
                "");
        assertThat(l.locate(NativeLibrary.CUDART)).isEqualTo(Path.of("/opt/mine/libcudart.so.13"));
    }

    @Test
    void missingOverrideFailsWithoutFallingBack() {
        var l = locator(
                Map.of("ROOFLINE_CUBLASLT", "/nope/libcublasLt.so.13"), Set.of("/usr/lib64/libcublasLt.so.13"), "");
        assertThatThrownBy(() -> l.locate(NativeLibrary.CUBLASLT))
                .isInstanceOf(LibraryNotFoundException.class)
                .hasMessageContaining("ROOFLINE_CUBLASLT=/nope/libcublasLt.so.13 (no such readable file)")
                .hasMessageContaining("libcublasLt.so.13");
    }

    @Test
    void relativeOverrideIsRefused() {
        var l = locator(Map.of("ROOFLINE_CUDART", "lib/libcudart.so.13"), Set.of("lib/libcudart.so.13"), "");
        assertThatThrownBy(() -> l.locate(NativeLibrary.CUDART)).hasMessageContaining("not an absolute path");
    }

    @Test
    void stubsOverrideIsRefused() {
        var l = locator(
                Map.of("ROOFLINE_CUDART", "/usr/local/cuda/lib64/stubs/libcudart.so.13"),
                Set.of("/usr/local/cuda/lib64/stubs/libcudart.so.13"),
                "");
        assertThatThrownBy(() -> l.locate(NativeLibrary.CUDART)).hasMessageContaining("stubs library, refused");
    }

    @Test
    void ldLibraryPathComesBeforeKnownDirectories() {
        var l = locator(
                Map.of("LD_LIBRARY_PATH", "/a:/b"),
                Set.of("/b/libcudart.so.13", "/usr/local/cuda/lib64/libcudart.so.13"),
                "");
        assertThat(l.locate(NativeLibrary.CUDART)).isEqualTo(Path.of("/b/libcudart.so.13"));
    }

    @Test
    void stubsDirectoryOnLdLibraryPathIsSkipped() {
        var l = locator(
                Map.of("LD_LIBRARY_PATH", "/usr/local/cuda/lib64/stubs"),
                Set.of("/usr/local/cuda/lib64/stubs/libcudart.so.13", "/usr/lib64/libcudart.so.13"),
                "");
        assertThat(l.locate(NativeLibrary.CUDART)).isEqualTo(Path.of("/usr/lib64/libcudart.so.13"));
    }

    @Test
    void knownDirectoriesAreSearchedInOrder() {
        var l = locator(
                Map.of(),
                Set.of(
                        "/usr/local/nvidia/lib64/libcudart.so.13",
                        "/usr/local/cuda/targets/x86_64-linux/lib/libcudart.so.13"),
                "");
        assertThat(l.locate(NativeLibrary.CUDART))
                .isEqualTo(Path.of("/usr/local/cuda/targets/x86_64-linux/lib/libcudart.so.13"));
    }

    @Test
    void cudaHomeIsSearchedBeforeKnownDirectories() {
        var l = locator(
                Map.of("CUDA_HOME", "/opt/cuda-13.0"),
                Set.of("/opt/cuda-13.0/lib64/libcudart.so.13", "/usr/lib64/libcudart.so.13"),
                "");
        assertThat(l.locate(NativeLibrary.CUDART)).isEqualTo(Path.of("/opt/cuda-13.0/lib64/libcudart.so.13"));
    }

    @Test
    void ldconfigCacheIsTheLastResortAndItsStubsAreSkipped() {
        String cache = """
                1234 libs found in cache `/etc/ld.so.cache'
                \tlibcudart.so.13 (libc6,x86-64) => /weird/stubs/libcudart.so.13
                \tlibcudart.so (libc6,x86-64) => /weird/libcudart.so
                \tlibcudart.so.13 (libc6,x86-64) => /weird/lib/libcudart.so.13
                """;
        var l = locator(
                Map.of(),
                Set.of("/weird/stubs/libcudart.so.13", "/weird/lib/libcudart.so.13", "/weird/libcudart.so"),
                cache);
        assertThat(l.locate(NativeLibrary.CUDART)).isEqualTo(Path.of("/weird/lib/libcudart.so.13"));
    }

    @Test
    void failureListsEveryPlaceTried() {
        var l = locator(Map.of("LD_LIBRARY_PATH", "/x"), Set.of(), "");
        assertThatThrownBy(() -> l.locate(NativeLibrary.CUBLASLT))
                .isInstanceOfSatisfying(LibraryNotFoundException.class, e -> {
                    assertThat(e.library()).isEqualTo(NativeLibrary.CUBLASLT);
                    assertThat(e.tried()).first().isEqualTo("/x/libcublasLt.so.13");
                    assertThat(e.tried())
                            .contains(
                                    "/usr/local/cuda/lib64/libcublasLt.so.13",
                                    "/usr/local/nvidia/lib64/libcublasLt.so.13");
                    assertThat(e.tried()).last().asString().startsWith("ldconfig -p");
                    assertThat(e.tried()).hasSize(1 + LibraryLocator.KNOWN_DIRECTORIES.size() + 1);
                })
                .hasMessageContaining("set ROOFLINE_CUBLASLT");
    }

    @Test
    void stubDetectionLooksAtWholeComponentsOnly() {
        assertThat(LibraryLocator.isStub(Path.of("/usr/local/cuda/lib64/stubs/libcuda.so")))
                .isTrue();
        assertThat(LibraryLocator.isStub(Path.of("/opt/stubsfree/libcuda.so"))).isFalse();
    }
}
