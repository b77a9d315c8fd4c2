package dev.roofline.bindings.loader;

import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Loads each {@link NativeLibrary} once into this module's class loader, so the generated bindings (which resolve
 * symbols with {@code SymbolLookup.loaderLookup()}) find them, and checks that the file loaded defines every function
 * the bindings call before any of them is called.
 */
public final class NativeLibraries {
    private static final Map<NativeLibrary, Path> LOADED = new EnumMap<>(NativeLibrary.class);

    private NativeLibraries() {}

    /**
     * Locates and loads {@code library} unless it is loaded already; returns the file loaded.
     *
     * @throws LibraryNotFoundException    when no copy is found (the message lists every place tried), or the file found
     *                                     is not that library: it fails to load, or lacks functions the bindings call
     *                                     (the message names the path and the missing functions)
     * @throws NativeAccessDeniedException when the JVM forbids loading native code into this module
     */
    public static Path load(NativeLibrary library) {
        return load(library, LibraryLocator.system());
    }

    static synchronized Path load(NativeLibrary library, LibraryLocator locator) {
        Path done = LOADED.get(library);
        if (done != null) {
            return done;
        }
        Path p = locator.locate(library);
        try {
            System.load(p.toString());
        } catch (IllegalCallerException e) {
            throw new NativeAccessDeniedException(library, "loading " + p, e);
        } catch (UnsatisfiedLinkError e) {
            throw new LibraryNotFoundException(
                    library, List.of(p + " (found but failed to load: " + e.getMessage() + ")"));
        }
        List<String> missing = RequiredSymbols.missingAfterLoading(library);
        if (!missing.isEmpty()) {
            // the file stays mapped (a class loader cannot unload it), but it is never recorded as loaded, so every
            // later load() reports the same reason and no generated function holder is ever initialized against it
            throw new LibraryNotFoundException(
                    library,
                    List.of(p + " (loaded, but it lacks "
                            + RequiredSymbols.describe(
                                    missing, RequiredSymbols.of(library).size())
                            + ": not a copy of " + library.soname() + ")"));
        }
        LOADED.put(library, p);
        return p;
    }

    /** Whether {@link #load} has succeeded for {@code library} in this JVM. */
    public static synchronized boolean isLoaded(NativeLibrary library) {
        return LOADED.containsKey(library);
    }
}
