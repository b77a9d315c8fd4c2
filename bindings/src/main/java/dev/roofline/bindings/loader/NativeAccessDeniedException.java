package dev.roofline.bindings.loader;

/** The JVM refused a restricted FFM operation; the message names the flag that allows it for the library in use. */
public final class NativeAccessDeniedException extends IllegalStateException {

    /**
     * @param library the library being loaded or called; its {@link NativeLibrary#nativeAccessFlag()} is the fix
     * @param what    what was refused, e.g. "loading /usr/lib64/libnvidia-ml.so.1"
     * @param cause   the JVM's {@link IllegalCallerException}
     */
    public NativeAccessDeniedException(NativeLibrary library, String what, Throwable cause) {
        super(
                "native access denied while " + what + ": start the JVM with " + library.nativeAccessFlag()
                        + " (or --enable-native-access=ALL-UNNAMED on the class path)",
                cause);
    }
}
