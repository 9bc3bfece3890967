package dev.gatun.planner.substrait;

import java.util.Locale;
import java.util.Set;

/**
 * Whether this JVM's case mapping is the one the native UPPER/LOWER reproduce. Flink's
 * UPPER/LOWER call {@code String.toUpperCase()/toLowerCase()} in the default locale; the native
 * kernels (native/src/udf/java_case.rs) implement the root locale's rules at Unicode 16.0 (JDK
 * 24 and 25), including the final-sigma choice by the JDK's word boundaries. Checked where the
 * plan is made: a TaskManager with another default locale or JDK is not seen from here.
 */
final class JavaCaseMapping {
    private JavaCaseMapping() {}

    /** Languages whose {@code String} case mapping has its own rules (ConditionalSpecialCasing). */
    private static final Set<String> OWN_CASE_RULES = Set.of("tr", "az", "lt");

    /** Why {@code UPPER} (or {@code LOWER}) cannot run natively here, or null when it can. */
    static String unsupportedReason(boolean lower) {
        return unsupportedReason(Locale.getDefault(), lower, isUnicode16());
    }

    static String unsupportedReason(Locale locale, boolean lower, boolean unicode16) {
        String language = locale.getLanguage();
        if (OWN_CASE_RULES.contains(language)) {
            return "depends on the default locale (" + locale + "), whose case mapping has its own rules;"
                    + " the native one is the root locale's";
        }
        if (lower && language.equals("th")) {
            return "depends on the default locale (" + locale + "): its word boundaries (a Thai dictionary)"
                    + " decide the final sigma; the native ones are the root locale's";
        }
        if (!unicode16) {
            return "depends on the JDK's Unicode version (" + Runtime.version().feature()
                    + "); the native case mapping is Unicode 16.0's (JDK 24 and 25)";
        }
        return null;
    }

    /** U+1C89 (capital TJE) is new in Unicode 16.0, U+A7CE in 17.0. */
    static boolean isUnicode16() {
        return Character.getType(0x1C89) == Character.UPPERCASE_LETTER && !Character.isDefined(0xA7CE);
    }
}
