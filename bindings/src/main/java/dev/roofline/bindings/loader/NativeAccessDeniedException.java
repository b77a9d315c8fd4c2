package dev.roofline.bindings.loader;

/** The JVM refused a restricted FFM operation; the message names the flag that allows it. */
public final class NativeAccessDeniedException extends IllegalStateException {
    public static final String FLAG = "--enable-native-access=dev.roofline.bindings,dev.roofline.cuda";

    public NativeAccessDeniedException(String what, Throwable cause) {
        super(
                "native access denied while " + what + ": start the JVM with " + FLAG
                        + " (or --enable-native-access=ALL-UNNAMED on the class path)",
                cause);
    }
}
