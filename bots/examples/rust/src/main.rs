//! A starter bot in Rust for every game of the ladder: Drachengold, Treasure of the Dragons, DragonFlame.
//!
//! It speaks docs/protocol.md: one JSON object per line on stdin, one answer line per request on
//! stdout, its log on stderr. Each decision takes the simplest legal choice the request lists;
//! change the functions under "Decisions" to make it play well. The JSON type at the top is small
//! but complete (strings with escapes, numbers, nested objects and arrays). No crates.
//!
//! Build: cargo build --release --offline      Run: target/release/bot

use std::io::{self, BufRead, Write};

// ---------------------------------------------------------------- JSON

#[derive(Clone, Debug, PartialEq)]
enum Json {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>), // members in order
}

static NULL: Json = Json::Null;

impl Json {
    /// The member `key`, or null: lookups never panic.
    fn get(&self, key: &str) -> &Json {
        match self {
            Json::Obj(members) => members.iter().find(|(k, _)| k == key).map_or(&NULL, |(_, v)| v),
            _ => &NULL,
        }
    }
    /// The item `i`, or null.
    fn at(&self, i: usize) -> &Json {
        match self {
            Json::Arr(items) => items.get(i).unwrap_or(&NULL),
            _ => &NULL,
        }
    }
    fn items(&self) -> &[Json] {
        match self {
            Json::Arr(items) => items,
            _ => &[],
        }
    }
    fn members(&self) -> &[(String, Json)] {
        match self {
            Json::Obj(members) => members,
            _ => &[],
        }
    }
    fn num(&self) -> i64 {
        match self {
            Json::Num(n) => *n as i64,
            _ => 0,
        }
    }
    fn str(&self) -> &str {
        match self {
            Json::Str(s) => s,
            _ => "",
        }
    }
    fn is_true(&self) -> bool {
        *self == Json::Bool(true)
    }

    fn write(&self, out: &mut String) {
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Num(n) if n.fract() == 0.0 && n.abs() < 1e15 => out.push_str(&format!("{}", *n as i64)),
            Json::Num(n) => out.push_str(&format!("{}", n)),
            Json::Str(s) => {
                out.push('"');
                for c in s.chars() {
                    match c {
                        '"' => out.push_str("\\\""),
                        '\\' => out.push_str("\\\\"),
                        c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
                        c => out.push(c),
                    }
                }
                out.push('"');
            }
            Json::Arr(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write(out);
                }
                out.push(']');
            }
            Json::Obj(members) => {
                out.push('{');
                for (i, (key, value)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    Json::Str(key.clone()).write(out);
                    out.push(':');
                    value.write(out);
                }
                out.push('}');
            }
        }
    }
}

/// An object from (key, value) pairs: obj(vec![("card", Json::Null)]).
fn obj(pairs: Vec<(&str, Json)>) -> Json {
    Json::Obj(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

fn int(n: i64) -> Json {
    Json::Num(n as f64)
}

struct Parser<'a> {
    t: &'a [u8],
    p: usize,
    depth: usize,
}

impl<'a> Parser<'a> {
    fn parse(text: &'a str) -> Result<Json, String> {
        let mut parser = Parser { t: text.as_bytes(), p: 0, depth: 0 };
        let value = parser.value()?;
        parser.ws();
        if parser.p != parser.t.len() {
            return Err(format!("trailing characters at {}", parser.p));
        }
        Ok(value)
    }

    fn peek(&self) -> u8 {
        *self.t.get(self.p).unwrap_or(&0)
    }
    fn ws(&mut self) {
        while matches!(self.peek(), b' ' | b'\t' | b'\n' | b'\r') {
            self.p += 1;
        }
    }
    fn expect(&mut self, c: u8) -> Result<(), String> {
        if self.peek() != c {
            return Err(format!("expected '{}' at {}", c as char, self.p));
        }
        self.p += 1;
        Ok(())
    }
    fn literal(&mut self, word: &str) -> bool {
        let found = self.t[self.p..].starts_with(word.as_bytes());
        if found {
            self.p += word.len();
        }
        found
    }
    fn hex4(&mut self) -> Result<u32, String> {
        let digits = self.t.get(self.p..self.p + 4).ok_or("short \\u escape")?;
        let text = std::str::from_utf8(digits).map_err(|e| e.to_string())?;
        self.p += 4;
        u32::from_str_radix(text, 16).map_err(|e| e.to_string())
    }

    fn string(&mut self) -> Result<String, String> {
        self.expect(b'"')?;
        let mut out: Vec<u8> = Vec::new();
        loop {
            let c = self.peek();
            self.p += 1;
            match c {
                0 if self.p > self.t.len() => return Err("unterminated string".into()),
                b'"' => return String::from_utf8(out).map_err(|e| e.to_string()),
                b'\\' => {
                    let e = self.peek();
                    self.p += 1;
                    let decoded = match e {
                        b'"' | b'\\' | b'/' => e as char,
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let mut cp = self.hex4()?;
                            // a surrogate pair (\ud83d\udc09) is one character
                            if (0xD800..0xDC00).contains(&cp) && self.literal("\\u") {
                                let lo = self.hex4()?;
                                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo.wrapping_sub(0xDC00) & 0x3FF);
                            }
                            char::from_u32(cp).unwrap_or('\u{FFFD}')
                        }
                        _ => return Err(format!("bad escape at {}", self.p)),
                    };
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(decoded.encode_utf8(&mut buf).as_bytes());
                }
                c => out.push(c),
            }
        }
    }

    fn value(&mut self) -> Result<Json, String> {
        self.depth += 1;
        if self.depth > 200 {
            return Err("nested too deep".into());
        }
        self.ws();
        let value = match self.peek() {
            b'{' => {
                self.p += 1;
                let mut members = Vec::new();
                self.ws();
                if self.peek() == b'}' {
                    self.p += 1;
                } else {
                    loop {
                        self.ws();
                        let key = self.string()?;
                        self.ws();
                        self.expect(b':')?;
                        members.push((key, self.value()?));
                        self.ws();
                        if self.peek() == b',' {
                            self.p += 1;
                            continue;
                        }
                        self.expect(b'}')?;
                        break;
                    }
                }
                Json::Obj(members)
            }
            b'[' => {
                self.p += 1;
                let mut items = Vec::new();
                self.ws();
                if self.peek() == b']' {
                    self.p += 1;
                } else {
                    loop {
                        items.push(self.value()?);
                        self.ws();
                        if self.peek() == b',' {
                            self.p += 1;
                            continue;
                        }
                        self.expect(b']')?;
                        break;
                    }
                }
                Json::Arr(items)
            }
            b'"' => Json::Str(self.string()?),
            _ if self.literal("null") => Json::Null,
            _ if self.literal("true") => Json::Bool(true),
            _ if self.literal("false") => Json::Bool(false),
            _ => {
                let start = self.p;
                while matches!(self.peek(), b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9') {
                    self.p += 1;
                }
                let text = std::str::from_utf8(&self.t[start..self.p]).unwrap_or("");
                Json::Num(text.parse::<f64>().map_err(|_| format!("bad value at {}", start))?)
            }
        };
        self.depth -= 1;
        Ok(value)
    }
}

// ---------------------------------------------------------------- Decisions

struct Me {
    seat: i64,
    players: i64,
    game: String,
}

fn drachengold(me: &Me, kind: &str, obs: &Json) -> Json {
    let req = obs.get("request");
    match kind {
        "magic" => obj(vec![("card", Json::Null)]), // never play a Magic Object
        "attack" => obj(vec![
            ("adventurer", req.get("adventurers").at(0).clone()),
            ("dragon", req.get("dragons").at(0).clone()),
        ]),
        "propose" => {
            // every token to exactly one involved seat, dealt round-robin
            let involved = obs.get("negotiation").get("involved").items();
            let tokens = obs.get("negotiation").get("tokens").items();
            if involved.is_empty() {
                return obj(vec![]); // keep the standing proposal (none): always legal
            }
            let shares = involved
                .iter()
                .enumerate()
                .map(|(s, seat)| {
                    let mine = tokens.iter().skip(s).step_by(involved.len()).map(|t| t.get("id").clone());
                    (seat.num().to_string(), Json::Arr(mine.collect()))
                })
                .collect();
            obj(vec![("shares", Json::Obj(shares))])
        }
        "vote" => obj(vec![("accept", req.get("proposals").clone())]), // agree to anything
        "theft_victim" => obj(vec![("victim", req.get("candidates").at(0).clone())]),
        "theft_pick" => obj(vec![("token", req.get("hoard").at(0).get("id").clone())]),
        "divide" => {
            // the tokens dealt round-robin into request.shares shares
            let tokens = obs.get("strategic").get("tokens").items();
            let k = req.get("shares").num().max(1) as usize;
            let shares = (0..k)
                .map(|s| Json::Arr(tokens.iter().skip(s).step_by(k).map(|t| t.get("id").clone()).collect()))
                .collect();
            obj(vec![("shares", Json::Arr(shares))])
        }
        "choose" => obj(vec![("share", req.get("remaining").at(0).clone())]),
        "market_offer" => {
            // my first token to the next seat, for one token of another colour
            let give = obs.get("hoard").at(0);
            let mut offers = Vec::new();
            if *give != Json::Null && me.players > 1 && req.get("max_offers").num() > 0 {
                let want = if give.get("colour").str() == "gold" { "silver" } else { "gold" };
                offers.push(obj(vec![
                    ("to", int((me.seat + 1) % me.players)),
                    ("give", Json::Arr(vec![give.get("id").clone()])),
                    ("want", obj(vec![(want, int(1))])),
                ]));
            }
            obj(vec![("offers", Json::Arr(offers))])
        }
        "market_answer" => {
            // every offer I can pay exactly, each token used once
            let hoard = obs.get("hoard").items();
            let mut used = vec![false; hoard.len()];
            let mut accept = Vec::new();
            for offer in req.get("offers").items() {
                let mut pick = vec![false; hoard.len()];
                let mut ok = true;
                for (colour, count) in offer.get("want").members() {
                    let mut need = count.num();
                    for (t, token) in hoard.iter().enumerate() {
                        if need > 0 && !used[t] && !pick[t] && token.get("colour").str() == colour {
                            pick[t] = true;
                            need -= 1;
                        }
                    }
                    ok = ok && need == 0;
                }
                if ok {
                    let mut pay = Vec::new();
                    for t in (0..hoard.len()).filter(|&t| pick[t]) {
                        used[t] = true;
                        pay.push(hoard[t].get("id").clone());
                    }
                    accept.push(obj(vec![("offer", offer.get("id").clone()), ("pay", Json::Arr(pay))]));
                }
            }
            obj(vec![("accept", Json::Arr(accept))])
        }
        _ => obj(vec![]),
    }
}

fn treasure(kind: &str, obs: &Json) -> Json {
    let req = obs.get("request");
    match kind {
        // flip the first face-down square, then stop
        "flip" if req.get("can_stop").is_true() => obj(vec![("stop", Json::Bool(true))]),
        "flip" => obj(vec![("square", req.get("squares").at(0).clone())]),
        "move_spider" => obj(vec![("square", Json::Null)]), // leave it where it is
        _ => obj(vec![]),
    }
}

fn dragonflame(kind: &str, obs: &Json) -> Json {
    let req = obs.get("request");
    match kind {
        // castle null (discard) only when no castle has room, as the missing first item gives
        "play" => obj(vec![
            ("card", req.get("cards").at(0).clone()),
            ("castle", req.get("castles").at(0).clone()),
        ]),
        "spy" => obj(vec![("castle", Json::Null)]),
        "attack" => obj(vec![("castle", req.get("castles").at(0).clone())]),
        "flame" => req.get("lines").at(0).clone(), // {"side", "index"}: one of the lines as listed
        _ => obj(vec![]),
    }
}

// ---------------------------------------------------------------- The conversation

fn main() {
    let stdin = io::stdin();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let mut me = Me { seat: 0, players: 0, game: String::new() };
    for line in stdin.lock().lines() {
        let line = match line {
            Ok(line) => line,
            Err(_) => break,
        };
        let msg = match Parser::parse(&line) {
            Ok(msg) => msg,
            Err(why) => {
                eprintln!("ignored a line that is not JSON: {}", why);
                continue;
            }
        };
        let mut answer = String::new();
        match msg.get("type").str() {
            "hello" => {
                me = Me { seat: msg.get("seat").num(), players: msg.get("players").num(), game: msg.get("game").str().to_string() };
                eprintln!("hello: {}, seat {} of {}", me.game, me.seat, me.players);
                answer.push_str("{\"type\":\"ready\",\"name\":\"rust-starter\"}");
            }
            "request" => {
                let (kind, obs) = (msg.get("kind").str(), msg.get("observation"));
                let decision = match me.game.as_str() {
                    "drachengold" => drachengold(&me, kind, obs),
                    "treasure" => treasure(kind, obs),
                    "dragonflame" => dragonflame(kind, obs),
                    _ => obj(vec![]),
                };
                obj(vec![("id", msg.get("id").clone()), ("decision", decision)]).write(&mut answer);
            }
            "error" => eprintln!(
                "answer {} refused ({}): {}",
                msg.get("id").num(),
                msg.get("code").str(),
                msg.get("reason").str()
            ),
            "end" => break,
            _ => {} // events and unknown message types need no answer
        }
        if !answer.is_empty() {
            // one line per answer, flushed: the ladder waits for the newline
            if writeln!(out, "{}", answer).and_then(|_| out.flush()).is_err() {
                break;
            }
        }
    }
}
