package dev.roofline.bindings.loader;

import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;

/**
 * Loads each {@link NativeLibrary} once into this module's class loader, so the generated bindings (which resolve
 * symbols with {@code SymbolLookup.loaderLookup()}) find them.
 */
public final class NativeLibraries {
    private static final Map<NativeLibrary, Path> LOADED = new EnumMap<>(NativeLibrary.class);

    private NativeLibraries() {}

    /**
     * Locates and loads {@code library} unless it is loaded already; returns the file loaded.
     *
     * @throws LibraryNotFoundException    when no copy is found (the message lists every place tried)
     * @throws NativeAccessDeniedException when the JVM forbids loading native code into this module
     */
    public static synchronized Path load(NativeLibrary library) {
        Path done = LOADED.get(library);
        if (done != null) {
            return done;
        }
        Path p = LibraryLocator.system().locate(library);
        try {
            System.load(p.toString());
        } catch (IllegalCallerException e) {
            throw new NativeAccessDeniedException("loading " + p, e);
        } catch (UnsatisfiedLinkError e) {
            throw new LibraryNotFoundException(
                    library, java.util.List.of(p + " (found but failed to load: " + e.getMessage() + ")"));
        }
        LOADED.put(library, p);
        return p;
    }

    /** Whether {@link #load} has succeeded for {@code library} in this JVM. */
    public static synchronized boolean isLoaded(NativeLibrary library) {
        return LOADED.containsKey(library);
    }
}
