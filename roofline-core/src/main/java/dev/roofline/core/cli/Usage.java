package dev.roofline.core.cli;

import java.util.ArrayList;
import java.util.List;

/** A command's usage text: its synopsis, its summary and one aligned line per option with its default. */
final class Usage {
    private Usage() {}

    static String of(Command command) {
        StringBuilder sb =
                new StringBuilder("usage: roofline ").append(command.synopsis()).append('\n');
        sb.append(command.summary()).append('\n');
        List<String> left = new ArrayList<>();
        List<String> right = new ArrayList<>();
        for (Option<?> o : ArgumentParser.options(command)) {
            left.add(o.isFlag() ? o.name() : o.name() + " " + o.valueName() + (o.repeatable() ? " (repeatable)" : ""));
            right.add(o.description() + (o.defaultValue() == null ? "" : " (default " + o.defaultValue() + ")"));
        }
        int width = left.stream().mapToInt(String::length).max().orElse(0);
        for (int i = 0; i < left.size(); i++) {
            sb.append("  ")
                    .append(left.get(i))
                    .append(" ".repeat(width - left.get(i).length() + 2))
                    .append(right.get(i))
                    .append('\n');
        }
        return sb.toString();
    }
}
