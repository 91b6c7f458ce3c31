// A starter bot in C++17 for every game of the ladder: Drachengold, Treasure of the Dragons, DragonFlame.
//
// It speaks docs/protocol.md: one JSON object per line on stdin, one answer line per request on
// stdout, its log on stderr. Each decision takes the simplest legal choice the request lists;
// change the functions under "Decisions" to make it play well. The JSON value type at the top is
// small but complete (strings with escapes, numbers, nested objects and arrays).
//
// Build: g++ -O2 -std=c++17 -o bot main.cpp      Run: ./bot
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

// ---------------------------------------------------------------- JSON

struct Json {
    enum Type { Null, Bool, Number, String, Array, Object } type = Null;
    bool b = false;
    double n = 0;
    std::string s;
    std::vector<Json> items;                         // Array
    std::vector<std::pair<std::string, Json>> members;  // Object, in order

    Json() = default;
    Json(std::nullptr_t) {}
    Json(bool v) : type(Bool), b(v) {}
    Json(int v) : type(Number), n(v) {}
    Json(double v) : type(Number), n(v) {}
    Json(const char *v) : type(String), s(v) {}
    Json(std::string v) : type(String), s(std::move(v)) {}
    static Json array(std::vector<Json> v = {}) { Json j; j.type = Array; j.items = std::move(v); return j; }
    static Json object(std::vector<std::pair<std::string, Json>> v = {}) {
        Json j; j.type = Object; j.members = std::move(v); return j;
    }

    // Lookups that never throw: a missing key or index gives a null.
    const Json &operator[](const std::string &key) const {
        for (auto &m : members) if (m.first == key) return m.second;
        return none();
    }
    const Json &operator[](size_t i) const { return i < items.size() ? items[i] : none(); }
    size_t size() const { return type == Array ? items.size() : members.size(); }
    int num() const { return type == Number ? (int)n : 0; }
    const std::string &str() const { return s; }
    void set(const std::string &key, Json value) { members.emplace_back(key, std::move(value)); }
    void push(Json value) { items.push_back(std::move(value)); }

    static const Json &none() { static const Json null; return null; }
};

class Parser {
    const std::string &t;
    size_t p = 0;
    int depth = 0;

    [[noreturn]] void fail(const char *what) { throw std::runtime_error(std::string(what) + " at " + std::to_string(p)); }
    void ws() { while (p < t.size() && (t[p] == ' ' || t[p] == '\t' || t[p] == '\n' || t[p] == '\r')) p++; }
    char peek() { return p < t.size() ? t[p] : '\0'; }
    void expect(char c) { if (peek() != c) fail("unexpected character"); p++; }
    bool literal(const char *word) {
        std::string w(word);
        if (t.compare(p, w.size(), w) != 0) return false;
        p += w.size();
        return true;
    }
    unsigned hex4() {
        if (p + 4 > t.size()) fail("short \\u escape");
        unsigned v = std::stoul(t.substr(p, 4), nullptr, 16);
        p += 4;
        return v;
    }
    static void utf8(std::string &out, unsigned cp) {
        if (cp < 0x80) out += (char)cp;
        else if (cp < 0x800) { out += (char)(0xC0 | cp >> 6); out += (char)(0x80 | (cp & 0x3F)); }
        else if (cp < 0x10000) {
            out += (char)(0xE0 | cp >> 12); out += (char)(0x80 | ((cp >> 6) & 0x3F)); out += (char)(0x80 | (cp & 0x3F));
        } else {
            out += (char)(0xF0 | cp >> 18); out += (char)(0x80 | ((cp >> 12) & 0x3F));
            out += (char)(0x80 | ((cp >> 6) & 0x3F)); out += (char)(0x80 | (cp & 0x3F));
        }
    }
    std::string string() {
        expect('"');
        std::string out;
        for (;;) {
            if (p >= t.size()) fail("unterminated string");
            char c = t[p++];
            if (c == '"') return out;
            if (c != '\\') { out += c; continue; }
            char e = peek();
            p++;
            switch (e) {
            case '"': case '\\': case '/': out += e; break;
            case 'b': out += '\b'; break;
            case 'f': out += '\f'; break;
            case 'n': out += '\n'; break;
            case 'r': out += '\r'; break;
            case 't': out += '\t'; break;
            case 'u': {
                unsigned cp = hex4();
                if (cp >= 0xD800 && cp < 0xDC00 && literal("\\u")) {  // a surrogate pair is one character
                    unsigned lo = hex4();
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                }
                utf8(out, cp);
                break;
            }
            default: fail("bad escape");
            }
        }
    }
    Json value() {
        if (++depth > 200) fail("nested too deep");
        ws();
        Json j;
        char c = peek();
        if (c == '{') {
            p++;
            j = Json::object();
            ws();
            if (peek() == '}') p++;
            else for (;;) {
                ws();
                std::string key = string();
                ws();
                expect(':');
                j.set(key, value());
                ws();
                if (peek() == ',') { p++; continue; }
                expect('}');
                break;
            }
        } else if (c == '[') {
            p++;
            j = Json::array();
            ws();
            if (peek() == ']') p++;
            else for (;;) {
                j.push(value());
                ws();
                if (peek() == ',') { p++; continue; }
                expect(']');
                break;
            }
        } else if (c == '"') j = Json(string());
        else if (literal("null")) j = Json();
        else if (literal("true")) j = Json(true);
        else if (literal("false")) j = Json(false);
        else {
            size_t used = 0;
            try { j = Json(std::stod(t.substr(p, 40), &used)); } catch (const std::exception &) { fail("bad value"); }
            p += used;
        }
        depth--;
        return j;
    }

public:
    explicit Parser(const std::string &text) : t(text) {}
    Json parse() {
        Json j = value();
        ws();
        if (p != t.size()) fail("trailing characters");
        return j;
    }
};

static void write(std::string &out, const Json &j) {
    switch (j.type) {
    case Json::Null: out += "null"; break;
    case Json::Bool: out += j.b ? "true" : "false"; break;
    case Json::Number: {
        char buf[32];
        snprintf(buf, sizeof buf, "%.17g", j.n);
        out += buf;
        break;
    }
    case Json::String:
        out += '"';
        for (unsigned char c : j.s) {
            if (c == '"' || c == '\\') { out += '\\'; out += (char)c; }
            else if (c < 0x20) { char buf[8]; snprintf(buf, sizeof buf, "\\u%04x", c); out += buf; }
            else out += (char)c;
        }
        out += '"';
        break;
    case Json::Array:
        out += '[';
        for (size_t i = 0; i < j.items.size(); i++) { if (i) out += ','; write(out, j.items[i]); }
        out += ']';
        break;
    case Json::Object:
        out += '{';
        for (size_t i = 0; i < j.members.size(); i++) {
            if (i) out += ',';
            write(out, Json(j.members[i].first));
            out += ':';
            write(out, j.members[i].second);
        }
        out += '}';
        break;
    }
}

// ---------------------------------------------------------------- Decisions

static int seat = 0, players = 0;
static std::string game;

static Json drachengold(const std::string &kind, const Json &obs) {
    const Json &req = obs["request"];
    if (kind == "magic") return Json::object({{"card", nullptr}});  // never play a Magic Object
    if (kind == "attack") return Json::object({{"adventurer", req["adventurers"][0]}, {"dragon", req["dragons"][0]}});
    if (kind == "propose") {  // every token to exactly one involved seat, dealt round-robin
        const Json &involved = obs["negotiation"]["involved"], &tokens = obs["negotiation"]["tokens"];
        if (involved.size() == 0) return Json::object();  // keep the standing proposal (none)
        Json shares = Json::object();
        for (size_t s = 0; s < involved.size(); s++) {
            Json mine = Json::array();
            for (size_t t = s; t < tokens.size(); t += involved.size()) mine.push(tokens[t]["id"]);
            shares.set(std::to_string(involved[s].num()), mine);
        }
        return Json::object({{"shares", shares}});
    }
    if (kind == "vote") return Json::object({{"accept", req["proposals"]}});  // agree to anything
    if (kind == "theft_victim") return Json::object({{"victim", req["candidates"][0]}});
    if (kind == "theft_pick") return Json::object({{"token", req["hoard"][0]["id"]}});
    if (kind == "divide") {  // the tokens dealt round-robin into request.shares shares
        const Json &tokens = obs["strategic"]["tokens"];
        size_t k = req["shares"].num();
        Json shares = Json::array();
        for (size_t s = 0; s < k; s++) {
            Json share = Json::array();
            for (size_t t = s; t < tokens.size(); t += k) share.push(tokens[t]["id"]);
            shares.push(share);
        }
        return Json::object({{"shares", shares}});
    }
    if (kind == "choose") return Json::object({{"share", req["remaining"][0]}});
    if (kind == "market_offer") {  // my first token to the next seat, for one token of another colour
        Json offers = Json::array();
        const Json &give = obs["hoard"][0];
        if (give.type == Json::Object && players > 1 && req["max_offers"].num() > 0) {
            std::string want = give["colour"].str() == "gold" ? "silver" : "gold";
            offers.push(Json::object({{"to", (seat + 1) % players},
                                      {"give", Json::array({give["id"]})},
                                      {"want", Json::object({{want, 1}})}}));
        }
        return Json::object({{"offers", offers}});
    }
    if (kind == "market_answer") {  // every offer I can pay exactly, each token used once
        const Json &hoard = obs["hoard"];
        std::set<size_t> used;
        Json accept = Json::array();
        for (const Json &offer : req["offers"].items) {
            std::set<size_t> pick;
            bool ok = true;
            for (auto &[colour, count] : offer["want"].members) {
                int need = count.num();
                for (size_t t = 0; t < hoard.size() && need > 0; t++)
                    if (!used.count(t) && !pick.count(t) && hoard[t]["colour"].str() == colour) { pick.insert(t); need--; }
                ok = ok && need == 0;
            }
            if (!ok) continue;
            Json pay = Json::array();
            for (size_t t : pick) { used.insert(t); pay.push(hoard[t]["id"]); }
            accept.push(Json::object({{"offer", offer["id"]}, {"pay", pay}}));
        }
        return Json::object({{"accept", accept}});
    }
    return Json::object();
}

static Json treasure(const std::string &kind, const Json &obs) {
    const Json &req = obs["request"];
    if (kind == "flip") {  // flip the first face-down square, then stop
        if (req["can_stop"].type == Json::Bool && req["can_stop"].b) return Json::object({{"stop", true}});
        return Json::object({{"square", req["squares"][0]}});
    }
    if (kind == "move_spider") return Json::object({{"square", nullptr}});  // leave it where it is
    return Json::object();
}

static Json dragonflame(const std::string &kind, const Json &obs) {
    const Json &req = obs["request"];
    // play: castle null (discard) only when no castle has room, as the missing first item gives
    if (kind == "play") return Json::object({{"card", req["cards"][0]}, {"castle", req["castles"][0]}});
    if (kind == "spy") return Json::object({{"castle", nullptr}});
    if (kind == "attack") return Json::object({{"castle", req["castles"][0]}});
    if (kind == "flame") return req["lines"][0];  // {"side", "index"}: one of the lines as listed
    return Json::object();
}

// ---------------------------------------------------------------- The conversation

int main() {
    std::ios::sync_with_stdio(false);
    std::string line;
    while (std::getline(std::cin, line)) {
        Json msg;
        try {
            msg = Parser(line).parse();
        } catch (const std::exception &e) {
            std::cerr << "ignored a line that is not JSON: " << e.what() << std::endl;
            continue;
        }
        const std::string &type = msg["type"].str();
        if (type == "hello") {
            seat = msg["seat"].num();
            players = msg["players"].num();
            game = msg["game"].str();
            std::cerr << "hello: " << game << ", seat " << seat << " of " << players << std::endl;
            std::cout << "{\"type\":\"ready\",\"name\":\"cpp-starter\"}" << std::endl;
        } else if (type == "request") {
            const std::string &kind = msg["kind"].str();
            const Json &obs = msg["observation"];
            Json decision = game == "drachengold" ? drachengold(kind, obs)
                            : game == "treasure"  ? treasure(kind, obs)
                            : game == "dragonflame" ? dragonflame(kind, obs)
                                                    : Json::object();
            std::string out;
            write(out, Json::object({{"id", msg["id"]}, {"decision", decision}}));
            std::cout << out << std::endl;  // endl flushes: the ladder waits for the newline
        } else if (type == "error") {
            std::cerr << "answer " << msg["id"].num() << " refused (" << msg["code"].str() << "): "
                      << msg["reason"].str() << std::endl;
        } else if (type == "end") {
            break;
        }  // events and unknown message types need no answer
    }
    return 0;
}
