/* A starter bot in C for every game of the ladder: Drachengold, Treasure of the Dragons, DragonFlame.
 *
 * It speaks docs/protocol.md: one JSON object per line on stdin, one answer line per request on
 * stdout, its log on stderr. Each decision takes the simplest legal choice the request lists;
 * change the functions under "Decisions" to make it play well. The JSON reader/writer at the top
 * is small but complete (strings with escapes, numbers, nested objects and arrays).
 *
 * Build: gcc -O2 -o bot main.c      Run: ./bot
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- JSON reading */

enum { J_NULL, J_FALSE, J_TRUE, J_NUM, J_STR, J_ARR, J_OBJ };

typedef struct Json {
    int type;
    double num;
    char *str;           /* J_STR: the decoded text (UTF-8, NUL-terminated) */
    int len;             /* J_ARR, J_OBJ: how many items */
    char **keys;         /* J_OBJ: the keys, one per item */
    struct Json **items; /* J_ARR, J_OBJ: the values */
} Json;

static Json *parse_value(const char **p, int depth);

static void skip_ws(const char **p) {
    while (**p == ' ' || **p == '\t' || **p == '\n' || **p == '\r') (*p)++;
}

static Json *new_node(int type) {
    Json *j = calloc(1, sizeof *j);
    if (!j) { fputs("out of memory\n", stderr); exit(1); }
    j->type = type;
    return j;
}

static void json_free(Json *j) {
    if (!j) return;
    for (int i = 0; i < j->len; i++) {
        json_free(j->items[i]);
        if (j->keys) free(j->keys[i]);
    }
    free(j->items);
    free(j->keys);
    free(j->str);
    free(j);
}

static int hex4(const char *s, unsigned *out) {
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char c = s[i];
        v <<= 4;
        if (c >= '0' && c <= '9') v |= c - '0';
        else if (c >= 'a' && c <= 'f') v |= c - 'a' + 10;
        else if (c >= 'A' && c <= 'F') v |= c - 'A' + 10;
        else return 0;
    }
    *out = v;
    return 1;
}

/* Parses a string after its opening quote; returns a malloc'd UTF-8 copy, or NULL. */
static char *parse_string(const char **p) {
    size_t cap = 16, n = 0;
    char *out = malloc(cap);
    for (;;) {
        unsigned c = (unsigned char)*(*p)++;
        if (n + 5 > cap) out = realloc(out, cap *= 2);
        if (c == '"') { out[n] = 0; return out; }
        if (c == 0 || c < 0x20) { free(out); return NULL; }
        if (c != '\\') { out[n++] = (char)c; continue; }
        c = (unsigned char)*(*p)++;
        switch (c) {
        case '"': case '\\': case '/': out[n++] = (char)c; break;
        case 'b': out[n++] = '\b'; break;
        case 'f': out[n++] = '\f'; break;
        case 'n': out[n++] = '\n'; break;
        case 'r': out[n++] = '\r'; break;
        case 't': out[n++] = '\t'; break;
        case 'u': {
            unsigned cp, lo;
            if (!hex4(*p, &cp)) { free(out); return NULL; }
            *p += 4;
            /* a surrogate pair (\ud83d\udc09) is one character */
            if (cp >= 0xD800 && cp < 0xDC00 && (*p)[0] == '\\' && (*p)[1] == 'u' && hex4(*p + 2, &lo)
                && lo >= 0xDC00 && lo < 0xE000) {
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                *p += 6;
            }
            if (cp < 0x80) out[n++] = (char)cp;
            else if (cp < 0x800) { out[n++] = (char)(0xC0 | cp >> 6); out[n++] = (char)(0x80 | (cp & 0x3F)); }
            else if (cp < 0x10000) {
                out[n++] = (char)(0xE0 | cp >> 12); out[n++] = (char)(0x80 | ((cp >> 6) & 0x3F));
                out[n++] = (char)(0x80 | (cp & 0x3F));
            } else {
                out[n++] = (char)(0xF0 | cp >> 18); out[n++] = (char)(0x80 | ((cp >> 12) & 0x3F));
                out[n++] = (char)(0x80 | ((cp >> 6) & 0x3F)); out[n++] = (char)(0x80 | (cp & 0x3F));
            }
            break;
        }
        default: free(out); return NULL;
        }
    }
}

static void push_item(Json *j, char *key, Json *item) {
    j->items = realloc(j->items, (j->len + 1) * sizeof *j->items);
    if (j->type == J_OBJ) {
        j->keys = realloc(j->keys, (j->len + 1) * sizeof *j->keys);
        j->keys[j->len] = key;
    }
    j->items[j->len++] = item;
}

static Json *parse_container(const char **p, int depth, int type, char close) {
    Json *j = new_node(type);
    skip_ws(p);
    if (**p == close) { (*p)++; return j; }
    for (;;) {
        char *key = NULL;
        if (type == J_OBJ) {
            skip_ws(p);
            if (**p != '"') goto fail;
            (*p)++;
            if (!(key = parse_string(p))) goto fail;
            skip_ws(p);
            if (*(*p)++ != ':') { free(key); goto fail; }
        }
        Json *item = parse_value(p, depth + 1);
        if (!item) { free(key); goto fail; }
        push_item(j, key, item);
        skip_ws(p);
        if (**p == ',') { (*p)++; continue; }
        if (**p == close) { (*p)++; return j; }
        goto fail;
    }
fail:
    json_free(j);
    return NULL;
}

static Json *parse_value(const char **p, int depth) {
    if (depth > 200) return NULL; /* far deeper than any message: refuse rather than overflow */
    skip_ws(p);
    char c = **p;
    if (c == '{') { (*p)++; return parse_container(p, depth, J_OBJ, '}'); }
    if (c == '[') { (*p)++; return parse_container(p, depth, J_ARR, ']'); }
    if (c == '"') {
        (*p)++;
        char *s = parse_string(p);
        if (!s) return NULL;
        Json *j = new_node(J_STR);
        j->str = s;
        return j;
    }
    if (!strncmp(*p, "null", 4)) { *p += 4; return new_node(J_NULL); }
    if (!strncmp(*p, "true", 4)) { *p += 4; return new_node(J_TRUE); }
    if (!strncmp(*p, "false", 5)) { *p += 5; return new_node(J_FALSE); }
    char *end;
    double v = strtod(*p, &end);
    if (end == *p) return NULL;
    *p = end;
    Json *j = new_node(J_NUM);
    j->num = v;
    return j;
}

static Json *json_parse(const char *text) {
    const char *p = text;
    Json *j = parse_value(&p, 0);
    skip_ws(&p);
    if (j && *p) { json_free(j); return NULL; }
    return j;
}

/* Lookups that never crash: a missing key or index gives NULL, and NULL gives NULL / 0 / "". */
static Json *get(const Json *j, const char *key) {
    if (!j || j->type != J_OBJ) return NULL;
    for (int i = 0; i < j->len; i++)
        if (!strcmp(j->keys[i], key)) return j->items[i];
    return NULL;
}
static Json *at(const Json *j, int i) {
    return j && (j->type == J_ARR || j->type == J_OBJ) && i >= 0 && i < j->len ? j->items[i] : NULL;
}
static int len(const Json *j) { return j && (j->type == J_ARR || j->type == J_OBJ) ? j->len : 0; }
static int num(const Json *j) { return j && j->type == J_NUM ? (int)j->num : 0; }
static const char *str(const Json *j) { return j && j->type == J_STR ? j->str : ""; }
static int truthy(const Json *j) { return j && j->type == J_TRUE; }

/* ---------------------------------------------------------------- JSON writing */

typedef struct { char *s; size_t n, cap; } Out;

static void put(Out *o, const char *text) {
    size_t k = strlen(text);
    if (o->n + k + 1 > o->cap) {
        while (o->n + k + 1 > o->cap) o->cap = o->cap ? o->cap * 2 : 256;
        o->s = realloc(o->s, o->cap);
    }
    memcpy(o->s + o->n, text, k + 1);
    o->n += k;
}
static void put_int(Out *o, int v) { char b[24]; snprintf(b, sizeof b, "%d", v); put(o, b); }
static void put_str(Out *o, const char *s) { /* a JSON string, escaped */
    char b[8];
    put(o, "\"");
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') { b[0] = '\\'; b[1] = (char)c; b[2] = 0; put(o, b); }
        else if (c < 0x20) { snprintf(b, sizeof b, "\\u%04x", c); put(o, b); }
        else { b[0] = (char)c; b[1] = 0; put(o, b); }
    }
    put(o, "\"");
}
/* Writes any parsed value back (used to copy a listed choice into the answer). */
static void put_json(Out *o, const Json *j) {
    if (!j) { put(o, "null"); return; }
    switch (j->type) {
    case J_NULL: put(o, "null"); break;
    case J_FALSE: put(o, "false"); break;
    case J_TRUE: put(o, "true"); break;
    case J_NUM: { char b[32]; snprintf(b, sizeof b, "%.17g", j->num); put(o, b); break; }
    case J_STR: put_str(o, j->str); break;
    default:
        put(o, j->type == J_ARR ? "[" : "{");
        for (int i = 0; i < j->len; i++) {
            if (i) put(o, ",");
            if (j->type == J_OBJ) { put_str(o, j->keys[i]); put(o, ":"); }
            put_json(o, j->items[i]);
        }
        put(o, j->type == J_ARR ? "]" : "}");
    }
}

/* ---------------------------------------------------------------- Decisions */
/* Each writes one decision object into `o`; `obs` is the observation, `req` its "request". */

static int my_seat, players;
static const char *game = "";

/* Drachengold: every token to exactly one involved seat, dealt round-robin. */
static void dg_propose(Out *o, Json *obs) {
    Json *neg = get(obs, "negotiation"), *involved = get(neg, "involved"), *tokens = get(neg, "tokens");
    int n = len(involved);
    if (!n) { put(o, "{}"); return; } /* {} keeps the standing proposal (none): always legal */
    put(o, "{\"shares\":{");
    for (int s = 0; s < n; s++) {
        put(o, s ? ",\"" : "\"");
        put_int(o, num(at(involved, s)));
        put(o, "\":[");
        for (int t = s, first = 1; t < len(tokens); t += n, first = 0) {
            if (!first) put(o, ",");
            put_str(o, str(get(at(tokens, t), "id")));
        }
        put(o, "]");
    }
    put(o, "}}");
}

/* Drachengold market: offer my first token to the next seat for one token of another colour. */
static void dg_market_offer(Out *o, Json *obs, Json *req) {
    Json *first = at(get(obs, "hoard"), 0);
    if (!first || players < 2 || num(get(req, "max_offers")) < 1) { put(o, "{\"offers\":[]}"); return; }
    const char *colour = str(get(first, "colour"));
    put(o, "{\"offers\":[{\"to\":");
    put_int(o, (my_seat + 1) % players);
    put(o, ",\"give\":[");
    put_str(o, str(get(first, "id")));
    put(o, "],\"want\":{");
    put_str(o, strcmp(colour, "gold") ? "gold" : "silver");
    put(o, ":1}}]}");
}

/* Drachengold market: accept every offer I can pay exactly, each token used once. */
static void dg_market_answer(Out *o, Json *obs, Json *req) {
    Json *hoard = get(obs, "hoard"), *offers = get(req, "offers");
    int n = len(hoard);
    char *used = calloc(n + 1, 1), *pick = calloc(n + 1, 1);
    int accepted = 0;
    put(o, "{\"accept\":[");
    for (int k = 0; k < len(offers); k++) {
        Json *offer = at(offers, k), *want = get(offer, "want");
        memset(pick, 0, n + 1);
        int ok = 1;
        for (int w = 0; w < len(want) && ok; w++) {
            int need = num(at(want, w));
            for (int t = 0; t < n && need > 0; t++)
                if (!used[t] && !pick[t] && !strcmp(str(get(at(hoard, t), "colour")), want->keys[w])) {
                    pick[t] = 1;
                    need--;
                }
            ok = need == 0;
        }
        if (!ok) continue;
        put(o, accepted++ ? ",{\"offer\":" : "{\"offer\":");
        put_str(o, str(get(offer, "id")));
        put(o, ",\"pay\":[");
        for (int t = 0, first = 1; t < n; t++)
            if (pick[t]) {
                used[t] = 1;
                if (!first) put(o, ",");
                first = 0;
                put_str(o, str(get(at(hoard, t), "id")));
            }
        put(o, "]}");
    }
    put(o, "]}");
    free(used);
    free(pick);
}

/* Drachengold strategic variant: the tokens dealt round-robin into request.shares shares. */
static void dg_divide(Out *o, Json *obs, Json *req) {
    Json *tokens = get(get(obs, "strategic"), "tokens");
    int k = num(get(req, "shares"));
    put(o, "{\"shares\":[");
    for (int s = 0; s < k; s++) {
        put(o, s ? ",[" : "[");
        for (int t = s, first = 1; t < len(tokens); t += k, first = 0) {
            if (!first) put(o, ",");
            put_str(o, str(get(at(tokens, t), "id")));
        }
        put(o, "]");
    }
    put(o, "]}");
}

static void decide(Out *o, const char *kind, Json *obs) {
    Json *req = get(obs, "request");
    if (!strcmp(game, "drachengold")) {
        if (!strcmp(kind, "magic")) put(o, "{\"card\":null}"); /* never play a Magic Object */
        else if (!strcmp(kind, "attack")) {
            put(o, "{\"adventurer\":"); put_json(o, at(get(req, "adventurers"), 0));
            put(o, ",\"dragon\":"); put_json(o, at(get(req, "dragons"), 0)); put(o, "}");
        } else if (!strcmp(kind, "propose")) dg_propose(o, obs);
        else if (!strcmp(kind, "vote")) { put(o, "{\"accept\":"); put_json(o, get(req, "proposals")); put(o, "}"); }
        else if (!strcmp(kind, "theft_victim")) { put(o, "{\"victim\":"); put_json(o, at(get(req, "candidates"), 0)); put(o, "}"); }
        else if (!strcmp(kind, "theft_pick")) { put(o, "{\"token\":"); put_json(o, get(at(get(req, "hoard"), 0), "id")); put(o, "}"); }
        else if (!strcmp(kind, "divide")) dg_divide(o, obs, req);
        else if (!strcmp(kind, "choose")) { put(o, "{\"share\":"); put_json(o, at(get(req, "remaining"), 0)); put(o, "}"); }
        else if (!strcmp(kind, "market_offer")) dg_market_offer(o, obs, req);
        else if (!strcmp(kind, "market_answer")) dg_market_answer(o, obs, req);
        else put(o, "{}");
    } else if (!strcmp(game, "treasure")) {
        if (!strcmp(kind, "flip")) { /* flip the first face-down square, then stop */
            if (truthy(get(req, "can_stop"))) put(o, "{\"stop\":true}");
            else { put(o, "{\"square\":"); put_json(o, at(get(req, "squares"), 0)); put(o, "}"); }
        } else if (!strcmp(kind, "move_spider")) put(o, "{\"square\":null}"); /* leave it where it is */
        else put(o, "{}");
    } else if (!strcmp(game, "dragonflame")) {
        if (!strcmp(kind, "play")) { /* castle null (discard) only when no castle has room */
            put(o, "{\"card\":"); put_json(o, at(get(req, "cards"), 0));
            put(o, ",\"castle\":"); put_json(o, at(get(req, "castles"), 0)); put(o, "}");
        } else if (!strcmp(kind, "spy")) put(o, "{\"castle\":null}");
        else if (!strcmp(kind, "attack")) { put(o, "{\"castle\":"); put_json(o, at(get(req, "castles"), 0)); put(o, "}"); }
        else if (!strcmp(kind, "flame")) put_json(o, at(get(req, "lines"), 0)); /* {"side", "index"} */
        else put(o, "{}");
    } else put(o, "{}");
}

/* ---------------------------------------------------------------- The conversation */

int main(void) {
    char *line = NULL;
    size_t cap = 0;
    char *game_name = NULL;
    while (getline(&line, &cap, stdin) > 0) {
        Json *msg = json_parse(line);
        if (!msg) { fputs("ignored a line that is not JSON\n", stderr); continue; }
        const char *type = str(get(msg, "type"));
        if (!strcmp(type, "hello")) {
            my_seat = num(get(msg, "seat"));
            players = num(get(msg, "players"));
            free(game_name);
            game = game_name = strdup(str(get(msg, "game")));
            fprintf(stderr, "hello: %s, seat %d of %d\n", game, my_seat, players);
            puts("{\"type\":\"ready\",\"name\":\"c-starter\"}");
        } else if (!strcmp(type, "request")) {
            Out o = {0};
            put(&o, "{\"id\":");
            put_int(&o, num(get(msg, "id")));
            put(&o, ",\"decision\":");
            decide(&o, str(get(msg, "kind")), get(msg, "observation"));
            put(&o, "}");
            puts(o.s);
            free(o.s);
        } else if (!strcmp(type, "error")) {
            fprintf(stderr, "answer %d refused (%s): %s\n", num(get(msg, "id")), str(get(msg, "code")),
                    str(get(msg, "reason")));
        } else if (!strcmp(type, "end")) {
            json_free(msg);
            break;
        } /* events and unknown message types need no answer */
        fflush(stdout);
        json_free(msg);
    }
    free(line);
    free(game_name);
    return 0;
}
