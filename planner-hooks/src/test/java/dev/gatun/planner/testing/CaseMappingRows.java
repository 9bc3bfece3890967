package dev.gatun.planner.testing;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;

/**
 * Rows {@code (id, s, b)} for the UPPER/LOWER parity test, {@code s} a Java String and {@code b}
 * the same text as UTF-8 bytes (Flink's two string forms):
 * <ul>
 *   <li>hand-picked cases (final sigma by word boundaries, dotted I, Cherokee, supplementary
 *       characters, code points newer than Unicode 16.0);
 *   <li>every code point but surrogates, {@value #PER_ROW} to a row;
 *   <li>every assigned code point outside the private-use planes in the contexts that decide
 *       Java's final sigma (before and after a capital sigma, inside a number, after mid-word
 *       punctuation, ...), fragments joined by spaces;
 *   <li>random strings of word-break traps (letters, digits, marks, format characters, mid-word
 *       and number punctuation, Kana, Kanji, supplementary letters, digits and marks).
 * </ul>
 */
public final class CaseMappingRows {
    private CaseMappingRows() {}

    static final int PER_ROW = 256;
    private static final int FRAGMENTS_PER_ROW = 48;
    private static final String[] CONTEXTS = {"Α%sΣ", "ΑΣ%sα", "%sΣ", "ΑΣ%s", "Α1%sΣ", "ΑΣ%s1α", "Α.%sΣ", "$%s1Σ"};
    private static final String[] CASES = {
        "ΌΣΟΣ007", "ΌΣΟΣ007Α", "Σ", "ΣΣ", "AΣ B", "ΑΣ.", "ΑΣ-Β", "ΑΣ'Σ'", "ΑΣ\u00ADα", "ΑΣ\u0301", "Α\u0301Σ",
        "Α\u200BΣ", "é9Σ", "1Σ", "ΣΑΣ ΣΑΣ", "ªΣ", "ʰΣ", "ⅠΣ", "İ", "I\u0307", "İΣ", "\u13A0\u13F5\uAB70",
        "𐐀Σ", "a𝐀Σ", "𝐀Σ", "'𝐀Σ", "ΑΣ😀", "😀ΑΣ", "𝐀𝐀Σ", "Α𝟎Σ", "ΑΣ\uDB40\uDC01", "\uA7CE\uA7D3\uD81A\uDEA0",
        "straße", "ΟΔΟΣ ΣΑΣ.", "ΚΑΛΗΣΠΈΡΑΣ😀ΣΑΣ", "",
    };
    private static final String[] TRAPS = {
        "Α", "Σ", "Σ", "Σ", "σ", "ς", "a", "Z", "1", "\u0663", "\u216B", "½", ".", "'", "\"", ",", "-", "_", "\u00AD",
        "\u2027", "\u066B", "$", "#", "¢", "%", "&", "\u066A", "‰", " ", "\t", "\r", "\n", "\u2028", "\u0301",
        "\u20DD", "\u0345", "\u0903", "\u200B", "\u200D", "क", "।", "ア", "ー", "あ", "゛", "漢", "㐀", "ª", "ʰ", "ǅ",
        "😀", "𝐀", "𝟎", "𠀀", "\uD834\uDD67", "\uDB40\uDC01", "𐒰", "!", "(", "\u0000", "\u00A0", "\u3000", "İ", "ß",
        "ͺ", "Ꭰ", "ꭰ", "Ⓐ", "ᴬ",
    };

    public static List<RowData> rows() {
        List<String> texts = new ArrayList<>(List.of(CASES));
        StringBuilder chunk = new StringBuilder();
        int inChunk = 0;
        for (int cp = 0; cp <= Character.MAX_CODE_POINT; cp++) {
            if (cp >= Character.MIN_SURROGATE && cp <= Character.MAX_SURROGATE) {
                continue;
            }
            chunk.appendCodePoint(cp);
            if (++inChunk == PER_ROW) {
                texts.add(chunk.toString());
                chunk.setLength(0);
                inChunk = 0;
            }
        }
        texts.add(chunk.toString());
        List<String> fragments = new ArrayList<>();
        for (int cp = 0; cp < 0xF0000; cp++) {
            if (Character.isDefined(cp) && Character.getType(cp) != Character.SURROGATE
                    && Character.getType(cp) != Character.PRIVATE_USE) {
                String c = Character.toString(cp);
                for (String context : CONTEXTS) {
                    fragments.add(context.replace("%s", c));
                }
            }
        }
        for (int i = 0; i < fragments.size(); i += FRAGMENTS_PER_ROW) {
            texts.add(String.join(" ", fragments.subList(i, Math.min(fragments.size(), i + FRAGMENTS_PER_ROW))));
        }
        Random random = new Random(0x5EED_0004L);
        for (int i = 0; i < 20_000; i++) {
            StringBuilder sb = new StringBuilder();
            int n = 1 + random.nextInt(16);
            for (int k = 0; k < n; k++) {
                sb.append(TRAPS[random.nextInt(TRAPS.length)]);
            }
            texts.add(sb.toString());
        }
        List<RowData> rows = new ArrayList<>(texts.size() + 1);
        for (int i = 0; i < texts.size(); i++) {
            String t = texts.get(i);
            rows.add(GenericRowData.of((long) i, StringData.fromString(t),
                    StringData.fromBytes(t.getBytes(StandardCharsets.UTF_8))));
        }
        rows.add(GenericRowData.of((long) texts.size(), null, null));
        return rows;
    }
}
