package dev.roofline.bindings.loader;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.Linker;
import java.lang.foreign.SymbolLookup;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The C functions a library's generated bindings resolve, read from the jextract include list that generated them
 * ({@code bindings/jextract/*.args}, bundled beside this class): the one list of them. Each generated function holder
 * resolves its symbol with {@code findOrThrow} in a static initializer, so a library lacking one would fail there with
 * an {@link ExceptionInInitializerError} and leave the class unusable for the rest of the JVM; checking the whole list
 * right after loading turns that into a reason before any generated class initializes.
 */
final class RequiredSymbols {
    private static final String FUNCTION = "--include-function";
    private static final Map<NativeLibrary, List<String>> CACHE = new EnumMap<>(NativeLibrary.class);

    private RequiredSymbols() {}

    /** The functions the bindings of {@code library} call, in include-list order. */
    static synchronized List<String> of(NativeLibrary library) {
        return CACHE.computeIfAbsent(library, l -> parse(read(l.includeList())));
    }

    /** The {@code --include-function NAME} entries of an include list; other lines (comments, structs) are skipped. */
    static List<String> parse(String includeList) {
        List<String> names = new ArrayList<>();
        for (String line : includeList.split("\n")) {
            String[] words = line.strip().split("\\s+");
            if (words.length == 2 && words[0].equals(FUNCTION)) {
                names.add(words[1]);
            }
        }
        return List.copyOf(names);
    }

    /**
     * Those of {@code library}'s functions that the generated code's own lookup (this class loader's libraries, then
     * the C library) cannot find: empty when the loaded file is the library the bindings expect.
     */
    static List<String> missingAfterLoading(NativeLibrary library) {
        return missing(
                of(library),
                SymbolLookup.loaderLookup().or(Linker.nativeLinker().defaultLookup()));
    }

    /** Of {@code symbols}, those {@code lookup} cannot find, in order. */
    static List<String> missing(List<String> symbols, SymbolLookup lookup) {
        return symbols.stream().filter(s -> lookup.find(s).isEmpty()).toList();
    }

    /** "a, b, c and 36 more of the 39 functions the bindings call". */
    static String describe(List<String> missing, int required) {
        int shown = Math.min(3, missing.size());
        String names = String.join(", ", missing.subList(0, shown));
        return missing.size() > shown
                ? names + " and " + (missing.size() - shown) + " more of the " + required
                        + " functions the bindings call"
                : names + " (of the " + required + " functions the bindings call)";
    }

    private static String read(String resource) {
        try (InputStream in = RequiredSymbols.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the bindings jar lacks its include list " + resource
                        + " (bindings/jextract/ is bundled by bindings/pom.xml)");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the include list " + resource, e);
        }
    }
}
