package dev.gatun.planner.substrait;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The functions the native library admits, read from native/admission/functions.json (copied
 * into this jar at build time): names, arities and temporal units. The argument type rules are
 * mirrored in {@link CalcTranslator}; Rust checks them again when the plan is compiled at
 * planning time, so a drift shows as a fallback with Rust's reason, never as a failed job.
 */
final class AdmittedFunctions {
    private static final String RESOURCE = "functions.json";
    private static final AdmittedFunctions INSTANCE = load();

    /** name → admitted arities; -1 stands for "variadic". */
    private final Map<String, Set<Integer>> arities;
    private final Map<String, Set<String>> units;
    /** Functions Rust registers but the planner must not use, with the recorded reason ("unadmitted"). */
    private final Map<String, String> unadmitted;

    private AdmittedFunctions(Map<String, Set<Integer>> arities, Map<String, Set<String>> units,
                              Map<String, String> unadmitted) {
        this.arities = arities;
        this.units = units;
        this.unadmitted = unadmitted;
    }

    static AdmittedFunctions get() {
        return INSTANCE;
    }

    boolean admits(String name, int arity) {
        if (unadmitted.containsKey(name)) {
            return false;
        }
        Set<Integer> a = arities.get(name);
        return a != null && (a.contains(arity) || (a.contains(-1) && arity >= 1));
    }

    /** Why {@code name} is listed but not admitted, or null. */
    String unadmittedReason(String name) {
        return unadmitted.get(name);
    }

    boolean admitsUnit(String name, String unit) {
        Set<String> u = units.get(name);
        return u != null && u.contains(unit);
    }

    private static AdmittedFunctions load() {
        try (InputStream in = AdmittedFunctions.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("resource " + RESOURCE + " is missing from gatun-planner-hooks");
            }
            return parse(in);
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + RESOURCE, e);
        }
    }

    /** Reads an admission list in functions.json's format. */
    static AdmittedFunctions parse(InputStream in) throws IOException {
        JsonNode root = new ObjectMapper().readTree(in);
        Map<String, Set<Integer>> arities = new HashMap<>();
        Map<String, Set<String>> units = new HashMap<>();
        Map<String, String> unadmitted = new HashMap<>();
        for (JsonNode f : root.get("functions")) {
            String name = f.get("name").asText();
            if (f.hasNonNull("unadmitted")) {
                unadmitted.put(name, f.get("unadmitted").asText());
            }
            Set<Integer> a = arities.computeIfAbsent(name, k -> new HashSet<>());
            for (JsonNode signature : f.get("args")) {
                boolean variadic = false;
                for (JsonNode arg : signature) {
                    variadic |= arg.asText().equals("...");
                }
                a.add(variadic ? -1 : signature.size());
            }
            JsonNode u = f.get("units");
            if (u != null && u.isArray()) {
                Set<String> set = new HashSet<>();
                u.forEach(x -> set.add(x.asText()));
                units.put(name, set);
            } else if (u != null && u.asText().startsWith("as ")) {
                units.put(name, units.get(u.asText().substring(3)));
            }
        }
        return new AdmittedFunctions(arities, units, unadmitted);
    }
}
