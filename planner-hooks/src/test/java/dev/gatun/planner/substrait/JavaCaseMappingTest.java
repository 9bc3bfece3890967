package dev.gatun.planner.substrait;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;
import org.junit.jupiter.api.Test;

class JavaCaseMappingTest {
    @Test
    void theRootAndEnglishLocalesOnUnicode16AreSupported() {
        assertTrue(JavaCaseMapping.isUnicode16(), "the tests run on JDK 24/25 (Unicode 16.0): " + Runtime.version());
        for (Locale l : new Locale[] {Locale.ROOT, Locale.ENGLISH, Locale.US, Locale.GERMANY, Locale.forLanguageTag("el")}) {
            assertNull(JavaCaseMapping.unsupportedReason(l, true, true), l.toString());
        }
    }

    @Test
    void localesWithTheirOwnRulesAndOtherUnicodeVersionsAreNot() {
        String turkish = JavaCaseMapping.unsupportedReason(Locale.forLanguageTag("tr-TR"), false, true);
        assertTrue(turkish != null && turkish.contains("tr_TR"), turkish);
        assertTrue(JavaCaseMapping.unsupportedReason(Locale.forLanguageTag("lt"), true, true) != null);
        assertTrue(JavaCaseMapping.unsupportedReason(Locale.forLanguageTag("az"), false, true) != null);
        // the Thai word iterator only matters for LOWER's final sigma
        assertNull(JavaCaseMapping.unsupportedReason(Locale.forLanguageTag("th"), false, true));
        assertTrue(JavaCaseMapping.unsupportedReason(Locale.forLanguageTag("th"), true, true) != null);
        String unicode = JavaCaseMapping.unsupportedReason(Locale.ROOT, false, false);
        assertTrue(unicode != null && unicode.contains("Unicode 16.0"), unicode);
    }
}
