package dev.gatun.arrow.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gatun.arrow.types.ArrowType;
import dev.gatun.arrow.types.Field;
import dev.gatun.arrow.types.Schema;

/** Compares schemas by types, nullability and names (list element names vary by producer). */
public final class SchemaAssertions {
    private SchemaAssertions() {}

    public static void assertSameSchema(Schema expected, Schema actual) {
        assertEquals(expected.size(), actual.size(), "field count");
        for (int i = 0; i < expected.size(); i++) {
            assertSameField(expected.field(i), actual.field(i), true, expected.field(i).name());
        }
    }

    public static void assertSameField(Field expected, Field actual, boolean compareName, String path) {
        if (compareName) {
            assertEquals(expected.name(), actual.name(), path + " name");
        }
        assertEquals(expected.type(), actual.type(), path + " type");
        assertEquals(expected.nullable(), actual.nullable(), path + " nullable");
        assertEquals(expected.metadata(), actual.metadata(), path + " metadata");
        assertEquals(expected.children().size(), actual.children().size(), path + " children");
        boolean childNames = !(expected.type() instanceof ArrowType.ListType);
        for (int i = 0; i < expected.children().size(); i++) {
            assertSameField(expected.child(i), actual.child(i), childNames, path + "." + expected.child(i).name());
        }
    }
}
