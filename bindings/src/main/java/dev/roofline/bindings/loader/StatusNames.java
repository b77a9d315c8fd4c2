package dev.roofline.bindings.loader;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A library's status→name table, read from the constants jextract generated for its status enum ({@code cudaError_t},
 * {@code cublasStatus_t}, {@code nvmlReturn_t}): every {@code static int NAME()} method of the header class whose name
 * is a status name. The header is the one source of the names, so a regenerated binding updates the table.
 */
public final class StatusNames {
    private final Map<Integer, String> names;
    private final String unknownPrefix;

    private StatusNames(Map<Integer, String> names, String unknownPrefix) {
        this.names = names;
        this.unknownPrefix = unknownPrefix;
    }

    /**
     * The table of {@code header}'s status constants.
     *
     * @param header        the generated header class, e.g. {@code cudart_h.class}
     * @param isStatusName  which constant names are statuses, e.g. {@code n -> n.startsWith("CUBLAS_STATUS_")}
     * @param unknownPrefix what names a code the table lacks: the prefix followed by the number, e.g.
     *                      {@code "cudaError "} gives {@code "cudaError 987654"}
     */
    public static StatusNames of(Class<?> header, Predicate<String> isStatusName, String unknownPrefix) {
        Map<Integer, String> names = new HashMap<>();
        for (Method m : header.getMethods()) {
            String n = m.getName();
            if (isStatusName.test(n)
                    && m.getParameterCount() == 0
                    && m.getReturnType() == int.class
                    && Modifier.isStatic(m.getModifiers())) {
                try {
                    // where two constants share a value, the smaller name wins, whatever order reflection lists them
                    names.merge((Integer) m.invoke(null), n, (a, b) -> a.compareTo(b) <= 0 ? a : b);
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException("cannot read generated constant " + n, e);
                }
            }
        }
        return new StatusNames(Map.copyOf(names), unknownPrefix);
    }

    /** The symbolic name of {@code code}, or the unknown prefix followed by the number. */
    public String name(int code) {
        String n = names.get(code);
        return n != null ? n : unknownPrefix + code;
    }
}
