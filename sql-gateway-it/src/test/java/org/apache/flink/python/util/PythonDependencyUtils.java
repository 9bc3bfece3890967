package org.apache.flink.python.util;

import org.apache.commons.cli.CommandLine;
import org.apache.flink.configuration.Configuration;

/**
 * Test stand-in for the one method of flink-python that the SQL Client calls while it parses its
 * command line (a distribution ships flink-python in {@code opt/}; Maven Central serves no jar of it
 * here). The client runs of SqlClientFileTest pass no Python option, so there is none to return.
 */
public final class PythonDependencyUtils {
    private PythonDependencyUtils() {}

    public static Configuration parsePythonDependencyConfiguration(CommandLine line) {
        return new Configuration();
    }
}
