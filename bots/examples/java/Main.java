// A starter bot in Java (17, standard library only) for every game of the ladder: Drachengold,
// Treasure of the Dragons, DragonFlame.
//
// It speaks docs/protocol.md: one JSON object per line on stdin, one answer line per request on
// stdout, its log on stderr. Each decision takes the simplest legal choice the request lists;
// change the methods under "Decisions" to make it play well. The JDK has no JSON, so the class
// Json below reads and writes it: objects are LinkedHashMap, arrays List, numbers Long or Double,
// plus String, Boolean and null.
//
// Build: javac -d . Main.java      Run: java -cp . Main

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

public class Main {
    // ------------------------------------------------------------ JSON

    static final class Json {
        private final String t;
        private int p = 0;
        private int depth = 0;

        private Json(String text) { t = text; }

        static Object parse(String text) {
            Json parser = new Json(text);
            Object value = parser.value();
            parser.ws();
            if (parser.p != text.length()) throw parser.fail("trailing characters");
            return value;
        }

        private IllegalArgumentException fail(String what) {
            return new IllegalArgumentException(what + " at " + p);
        }
        private char peek() { return p < t.length() ? t.charAt(p) : '\0'; }
        private void ws() { while (p < t.length() && " \t\r\n".indexOf(t.charAt(p)) >= 0) p++; }
        private void expect(char c) {
            if (peek() != c) throw fail("expected '" + c + "'");
            p++;
        }
        private boolean literal(String word) {
            if (!t.startsWith(word, p)) return false;
            p += word.length();
            return true;
        }

        private String string() {
            expect('"');
            StringBuilder out = new StringBuilder();
            for (;;) {
                if (p >= t.length()) throw fail("unterminated string");
                char c = t.charAt(p++);
                if (c == '"') return out.toString();
                if (c != '\\') { out.append(c); continue; }
                char e = peek();
                p++;
                switch (e) {
                    case '"', '\\', '/' -> out.append(e);
                    case 'b' -> out.append('\b');
                    case 'f' -> out.append('\f');
                    case 'n' -> out.append('\n');
                    case 'r' -> out.append('\r');
                    case 't' -> out.append('\t');
                    case 'u' -> { // Java strings are UTF-16: a surrogate pair needs no special case
                        if (p + 4 > t.length()) throw fail("short \\u escape");
                        try {
                            out.append((char) Integer.parseInt(t.substring(p, p + 4), 16));
                        } catch (NumberFormatException ex) {
                            throw fail("bad \\u escape");
                        }
                        p += 4;
                    }
                    default -> throw fail("bad escape");
                }
            }
        }

        private Object value() {
            if (++depth > 200) throw fail("nested too deep");
            ws();
            Object value;
            char c = peek();
            if (c == '{') {
                p++;
                Map<String, Object> members = new LinkedHashMap<>();
                ws();
                if (peek() == '}') p++;
                else for (;;) {
                    ws();
                    String key = string();
                    ws();
                    expect(':');
                    members.put(key, value());
                    ws();
                    if (peek() == ',') { p++; continue; }
                    expect('}');
                    break;
                }
                value = members;
            } else if (c == '[') {
                p++;
                List<Object> items = new ArrayList<>();
                ws();
                if (peek() == ']') p++;
                else for (;;) {
                    items.add(value());
                    ws();
                    if (peek() == ',') { p++; continue; }
                    expect(']');
                    break;
                }
                value = items;
            } else if (c == '"') value = string();
            else if (literal("null")) value = null;
            else if (literal("true")) value = Boolean.TRUE;
            else if (literal("false")) value = Boolean.FALSE;
            else {
                int start = p;
                while (p < t.length() && "+-.eE0123456789".indexOf(t.charAt(p)) >= 0) p++;
                String number = t.substring(start, p);
                try {
                    boolean integral = number.indexOf('.') < 0 && number.indexOf('e') < 0 && number.indexOf('E') < 0;
                    value = integral ? (Object) Long.parseLong(number) : (Object) Double.parseDouble(number);
                } catch (NumberFormatException ex) {
                    throw fail("bad value");
                }
            }
            depth--;
            return value;
        }

        static String write(Object v) {
            StringBuilder out = new StringBuilder();
            write(out, v);
            return out.toString();
        }

        static void write(StringBuilder out, Object v) {
            if (v == null) out.append("null");
            else if (v instanceof String s) {
                out.append('"');
                for (char c : s.toCharArray()) {
                    if (c == '"' || c == '\\') out.append('\\').append(c);
                    else if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
                    else out.append(c);
                }
                out.append('"');
            } else if (v instanceof Map<?, ?> map) {
                out.append('{');
                boolean first = true;
                for (Map.Entry<?, ?> e : map.entrySet()) {
                    if (!first) out.append(',');
                    first = false;
                    write(out, String.valueOf(e.getKey()));
                    out.append(':');
                    write(out, e.getValue());
                }
                out.append('}');
            } else if (v instanceof List<?> list) {
                out.append('[');
                for (int i = 0; i < list.size(); i++) {
                    if (i > 0) out.append(',');
                    write(out, list.get(i));
                }
                out.append(']');
            } else out.append(v); // Long, Double, Boolean
        }
    }

    // Lookups that never throw: a missing key or index, or a value of another type, gives null.
    static Object get(Object obj, String key) { return obj instanceof Map<?, ?> m ? m.get(key) : null; }
    static Object at(Object list, int i) {
        return list instanceof List<?> l && i >= 0 && i < l.size() ? l.get(i) : null;
    }
    static List<?> list(Object v) { return v instanceof List<?> l ? l : List.of(); }
    static int num(Object v) { return v instanceof Number n ? n.intValue() : 0; }
    static String str(Object v) { return v instanceof String s ? s : ""; }

    /** An object from key, value, key, value, ... */
    static Map<String, Object> obj(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i + 1 < kv.length; i += 2) m.put((String) kv[i], kv[i + 1]);
        return m;
    }

    // ------------------------------------------------------------ Decisions

    static int seat = 0, players = 0;
    static String game = "";

    static Object drachengold(String kind, Object obs) {
        Object req = get(obs, "request");
        switch (kind) {
            case "magic": return obj("card", null); // never play a Magic Object
            case "attack": return obj("adventurer", at(get(req, "adventurers"), 0), "dragon", at(get(req, "dragons"), 0));
            case "propose": { // every token to exactly one involved seat, dealt round-robin
                List<?> involved = list(get(get(obs, "negotiation"), "involved"));
                List<?> tokens = list(get(get(obs, "negotiation"), "tokens"));
                if (involved.isEmpty()) return obj(); // keep the standing proposal (none): always legal
                Map<String, Object> shares = new LinkedHashMap<>();
                for (int s = 0; s < involved.size(); s++) {
                    List<Object> mine = new ArrayList<>();
                    for (int t = s; t < tokens.size(); t += involved.size()) mine.add(get(tokens.get(t), "id"));
                    shares.put(String.valueOf(num(involved.get(s))), mine);
                }
                return obj("shares", shares);
            }
            case "vote": return obj("accept", list(get(req, "proposals"))); // agree to anything
            case "theft_victim": return obj("victim", at(get(req, "candidates"), 0));
            case "theft_pick": return obj("token", get(at(get(req, "hoard"), 0), "id"));
            case "divide": { // the tokens dealt round-robin into request.shares shares
                List<?> tokens = list(get(get(obs, "strategic"), "tokens"));
                int k = Math.max(1, num(get(req, "shares")));
                List<Object> shares = new ArrayList<>();
                for (int s = 0; s < k; s++) {
                    List<Object> share = new ArrayList<>();
                    for (int t = s; t < tokens.size(); t += k) share.add(get(tokens.get(t), "id"));
                    shares.add(share);
                }
                return obj("shares", shares);
            }
            case "choose": return obj("share", at(get(req, "remaining"), 0));
            case "market_offer": { // my first token to the next seat, for one token of another colour
                Object give = at(get(obs, "hoard"), 0);
                List<Object> offers = new ArrayList<>();
                if (give != null && players > 1 && num(get(req, "max_offers")) > 0) {
                    String want = str(get(give, "colour")).equals("gold") ? "silver" : "gold";
                    offers.add(obj("to", (seat + 1) % players, "give", List.of(get(give, "id")), "want", obj(want, 1)));
                }
                return obj("offers", offers);
            }
            case "market_answer": { // every offer I can pay exactly, each token used once
                List<?> hoard = list(get(obs, "hoard"));
                Set<Integer> used = new HashSet<>();
                List<Object> accept = new ArrayList<>();
                for (Object offer : list(get(req, "offers"))) {
                    List<Integer> pick = new ArrayList<>();
                    boolean ok = true;
                    Object want = get(offer, "want");
                    if (want instanceof Map<?, ?> wanted) {
                        for (Map.Entry<?, ?> e : wanted.entrySet()) {
                            int need = num(e.getValue());
                            for (int t = 0; t < hoard.size() && need > 0; t++) {
                                if (!used.contains(t) && !pick.contains(t) && str(get(hoard.get(t), "colour")).equals(e.getKey())) {
                                    pick.add(t);
                                    need--;
                                }
                            }
                            ok = ok && need == 0;
                        }
                    }
                    if (!ok) continue;
                    List<Object> pay = new ArrayList<>();
                    for (int t : pick) {
                        used.add(t);
                        pay.add(get(hoard.get(t), "id"));
                    }
                    accept.add(obj("offer", get(offer, "id"), "pay", pay));
                }
                return obj("accept", accept);
            }
            default: return obj();
        }
    }

    static Object treasure(String kind, Object obs) {
        Object req = get(obs, "request");
        switch (kind) {
            case "flip": // flip the first face-down square, then stop
                if (Boolean.TRUE.equals(get(req, "can_stop"))) return obj("stop", true);
                return obj("square", at(get(req, "squares"), 0));
            case "move_spider": return obj("square", null); // leave it where it is
            default: return obj();
        }
    }

    static Object dragonflame(String kind, Object obs) {
        Object req = get(obs, "request");
        switch (kind) {
            // castle null (discard) only when no castle has room, as the missing first item gives
            case "play": return obj("card", at(get(req, "cards"), 0), "castle", at(get(req, "castles"), 0));
            case "spy": return obj("castle", null);
            case "attack": return obj("castle", at(get(req, "castles"), 0));
            case "flame": return at(get(req, "lines"), 0); // {"side", "index"}: one of the lines as listed
            default: return obj();
        }
    }

    // ------------------------------------------------------------ The conversation

    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        String line;
        while ((line = in.readLine()) != null) {
            Object msg;
            try {
                msg = Json.parse(line);
            } catch (IllegalArgumentException e) {
                System.err.println("ignored a line that is not JSON: " + e.getMessage());
                continue;
            }
            String type = str(get(msg, "type"));
            if (type.equals("hello")) {
                seat = num(get(msg, "seat"));
                players = num(get(msg, "players"));
                game = str(get(msg, "game"));
                System.err.println("hello: " + game + ", seat " + seat + " of " + players);
                out.print(Json.write(obj("type", "ready", "name", "java-starter")) + "\n");
                out.flush();
            } else if (type.equals("request")) {
                String kind = str(get(msg, "kind"));
                Object obs = get(msg, "observation");
                Object decision = switch (game) {
                    case "drachengold" -> drachengold(kind, obs);
                    case "treasure" -> treasure(kind, obs);
                    case "dragonflame" -> dragonflame(kind, obs);
                    default -> obj();
                };
                out.print(Json.write(obj("id", get(msg, "id"), "decision", decision)) + "\n");
                out.flush(); // the ladder waits for the newline
            } else if (type.equals("error")) {
                System.err.println("answer " + get(msg, "id") + " refused (" + str(get(msg, "code")) + "): "
                        + str(get(msg, "reason")));
            } else if (type.equals("end")) {
                break;
            } // events and unknown message types need no answer
        }
    }
}
