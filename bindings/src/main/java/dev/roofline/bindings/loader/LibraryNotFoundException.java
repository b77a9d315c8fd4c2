package dev.roofline.bindings.loader;

import java.util.List;

/** No usable copy of a native library was found; {@link #tried()} lists every place looked at and why it failed. */
public final class LibraryNotFoundException extends IllegalStateException {
    private final NativeLibrary library;
    private final List<String> tried;

    public LibraryNotFoundException(NativeLibrary library, List<String> tried) {
        super(library.soname() + " (" + library.displayName() + ") not found; set " + library.environmentVariable()
                + " to its absolute path. Tried: " + (tried.isEmpty() ? "nothing" : String.join("; ", tried)));
        this.library = library;
        this.tried = List.copyOf(tried);
    }

    public NativeLibrary library() {
        return library;
    }

    public List<String> tried() {
        return tried;
    }
}
