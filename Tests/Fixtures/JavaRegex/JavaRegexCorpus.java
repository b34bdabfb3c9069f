// Generates java-regex-expected.json: what java.util.regex answers for every case of corpus.txt, plus
// seeded random patterns, compiled as WireMock compiles them (Pattern.DOTALL) and matched with
// Matcher.matches(). Run by generate.sh; the Swift tests read the JSON and need no Java.
//
// corpus.txt: "pattern: P" starts a pattern (P as written, «…» escapes below); the indented lines after
// it are inputs. "unsupported: P" is a pattern Java accepts and stubserver's engine refuses by design.
// Escapes: «n» «r» «t» «u+HEX» (any code point), «» (nothing, for the empty input or trailing spaces).
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

public class JavaRegexCorpus {
    static final class Entry {
        String pattern;
        String status = "ok";
        String error = null;
        List<String> inputs = new ArrayList<>();
        List<String> results = new ArrayList<>();
    }

    public static void main(String[] args) throws Exception {
        List<Entry> entries = new ArrayList<>();
        Entry current = null;
        for (String line : Files.readAllLines(Path.of(args[0]), StandardCharsets.UTF_8)) {
            if (line.startsWith("#") || line.isBlank() && !line.startsWith("  ")) continue;
            if (line.startsWith("pattern: ") || line.startsWith("unsupported: ")) {
                current = new Entry();
                boolean unsupported = line.startsWith("unsupported: ");
                current.pattern = unescape(line.substring(unsupported ? 13 : 9));
                if (unsupported) current.status = "unsupported";
                entries.add(current);
            } else if (line.startsWith("  ") && current != null) {
                current.inputs.add(unescape(line.substring(2)));
            } else {
                throw new IllegalArgumentException("unreadable corpus line: " + line);
            }
        }
        Random random = new Random(Long.parseLong(args[2]));
        for (int k = 0; k < Integer.parseInt(args[3]); k++) entries.add(randomEntry(random));
        StringBuilder out = new StringBuilder();
        out.append("{\n  \"generator\": \"Tests/Fixtures/JavaRegex/generate.sh (JavaRegexCorpus.java)\",\n");
        out.append("  \"java\": ").append(json(System.getProperty("java.version"))).append(",\n");
        out.append("  \"flags\": \"DOTALL\",\n  \"patterns\": [\n");
        for (int e = 0; e < entries.size(); e++) {
            Entry entry = entries.get(e);
            evaluate(entry);
            out.append("    {\"pattern\": ").append(json(entry.pattern)).append(", \"status\": ").append(json(entry.status));
            if (entry.error != null) out.append(", \"error\": ").append(json(entry.error));
            out.append(", \"cases\": [");
            for (int i = 0; i < entry.inputs.size(); i++) {
                if (i > 0) out.append(", ");
                out.append("[").append(json(entry.inputs.get(i))).append(", ").append(json(entry.results.get(i))).append("]");
            }
            out.append("]}").append(e + 1 < entries.size() ? ",\n" : "\n");
        }
        out.append("  ]\n}\n");
        Files.writeString(Path.of(args[1]), out.toString(), StandardCharsets.UTF_8);
    }

    static void evaluate(Entry entry) {
        Pattern pattern;
        try {
            pattern = Pattern.compile(entry.pattern, Pattern.DOTALL);
        } catch (PatternSyntaxException error) {
            if (entry.status.equals("unsupported")) throw new IllegalStateException("Java refuses " + entry.pattern);
            entry.status = "error";
            entry.error = error.getDescription();
            for (String input : entry.inputs) entry.results.add("error");
            return;
        }
        for (String input : entry.inputs) {
            String result;
            try {
                result = pattern.matcher(input).matches() ? "match" : "no match";
            } catch (StackOverflowError overflow) {
                result = "overflow";
            }
            entry.results.add(result);
        }
    }

    static final String[] ATOMS = {"a", "b", "ab", "[ab]", "[^a]", ".", "\\d", "(a|b)", "(?:ab|a)", "\\w", "x",
        "(a*)", "(?i)a", "[a-c&&[^b]]", "\\s", "(?>a|ab)", "(b)", "1", "\\p{L}", "[\\w&&[^a]]", "(a|b)*", "((a)|b)", "(?<=ab|b)", "(?<!a)", "(?i:B)", "(?>a*)", "[^\\n]"};
    static final String[] QUANTIFIERS = {"", "", "", "*", "+", "?", "{1,2}", "*?", "+?", "??", "*+", "++", "{2}",
        "{0,3}?", "{2,}"};
    static final String[] ZERO_WIDTH = {"(?=a)", "(?!b)", "(?<=a)", "(?<!b)", "^", "$", "\\b", "\\B", "\\z", "\\Z"};
    static final String ALPHABET = "aabbx1 A\n";

    static Entry randomEntry(Random random) {
        Entry entry = new Entry();
        StringBuilder p = new StringBuilder();
        int pieces = 1 + random.nextInt(4);
        boolean group = false;
        for (int k = 0; k < pieces; k++) {
            if (random.nextInt(6) == 0) {
                p.append(ZERO_WIDTH[random.nextInt(ZERO_WIDTH.length)]);
                continue;
            }
            String atom = ATOMS[random.nextInt(ATOMS.length)];
            if (atom.startsWith("(") && !atom.startsWith("(?")) group = true;
            p.append(atom).append(QUANTIFIERS[random.nextInt(QUANTIFIERS.length)]);
            if (random.nextInt(8) == 0) p.append("|");
        }
        if (group && random.nextInt(3) == 0) p.append("\\1");
        if (random.nextInt(5) == 0) p.insert(0, "(").append(")+");
        entry.pattern = p.toString();
        for (int n = 0; n < 6; n++) {
            StringBuilder input = new StringBuilder();
            int length = random.nextInt(7);
            for (int k = 0; k < length; k++) input.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
            entry.inputs.add(input.toString());
        }
        return entry;
    }

    static String unescape(String s) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < s.length()) {
            int open = s.indexOf('«', i);
            if (open < 0) { out.append(s, i, s.length()); break; }
            int close = s.indexOf('»', open);
            out.append(s, i, open);
            String name = s.substring(open + 1, close);
            switch (name) {
                case "n": out.append('\n'); break;
                case "r": out.append('\r'); break;
                case "t": out.append('\t'); break;
                case "": break;
                default:
                    if (!name.startsWith("u+")) throw new IllegalArgumentException("unknown escape «" + name + "»");
                    out.appendCodePoint(Integer.parseInt(name.substring(2), 16));
            }
            i = close + 1;
        }
        return out.toString();
    }

    static String json(String s) {
        StringBuilder out = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') out.append('\\').append(c);
            else if (c < 0x20 || c > 0x7E) out.append(String.format("\\u%04x", (int) c));
            else out.append(c);
        }
        return out.append('"').toString();
    }
}
