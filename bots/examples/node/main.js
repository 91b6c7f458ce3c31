// A starter bot for node for every game of the ladder (Drachengold, Treasure of the Dragons,
// DragonFlame), written from docs/protocol.md alone: no SDK, no packages.
// Reads one JSON object per line on stdin, answers requests on stdout, logs on stderr.
// Drachengold plays sensibly (values tokens, fair splits); the other games take the first legal
// choice each request lists. Each game has one object of decision functions, by kind.
"use strict";
const readline = require("readline");

// Rough worth of a token by colour (face points; gems a little more for their majorities).
const VALUE = { silver: 1, gold: 3, red: 1.5, blue: 2.5, green: 2.5, purple: 2.5, yellow: 2.5, white: 3.5, black: 7 };
const worth = (tokens) => tokens.reduce((sum, t) => sum + (VALUE[t.colour] || 0), 0);
let seat = 0;
let players = 0;
let game = "";

function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

function log(text) {
  process.stderr.write(text + "\n");
}

// Hand out tokens, most valuable first, each to the seat furthest below its weighted target.
function splitByWeight(tokens, weights) {
  const seats = Object.keys(weights);
  const mass = seats.reduce((s, k) => s + weights[k], 0) || 1;
  const total = worth(tokens);
  const shares = {};
  seats.forEach((k) => (shares[k] = []));
  const sorted = [...tokens].sort((a, b) => VALUE[b.colour] - VALUE[a.colour] || (a.id < b.id ? -1 : 1));
  for (const t of sorted) {
    let best = seats[0];
    let gap = -Infinity;
    for (const k of seats) {
      const g = (weights[k] / mass) * total - worth(shares[k]);
      if (g > gap) [best, gap] = [k, g];
    }
    shares[best].push(t);
  }
  return shares;
}

const drachengold = {
  magic: () => ({ card: null }),

  attack(obs) {
    const req = obs.request;
    const mine = {};
    for (const a of obs.adventurers[seat]) mine[a.id] = a.attack;
    let best = { score: -Infinity, adventurer: req.adventurers[0], dragon: req.dragons[0] };
    for (const d of obs.dragons) {
      if (!d || !req.dragons.includes(d.id)) continue;
      const loot = worth(d.tokens) + 2 * d.hidden;
      const already = d.attackers.filter((a) => a.seat === seat).reduce((s, a) => s + a.attack, 0);
      for (const adv of req.adventurers) {
        const total = d.total + mine[adv];
        const share = (already + mine[adv]) / total;
        const score = loot * share * (total >= d.strength ? 1 : 0.35) - 0.3 * mine[adv];
        if (score > best.score) best = { score, adventurer: adv, dragon: d.id };
      }
    }
    return { adventurer: best.adventurer, dragon: best.dragon };
  },

  propose(obs) {
    const neg = obs.negotiation;
    const weights = {};
    for (const s of neg.involved) weights[String(s)] = neg.attack[String(s)] || 1;
    const shares = splitByWeight(neg.tokens, weights);
    const out = {};
    for (const k of Object.keys(shares)) out[k] = shares[k].map((t) => t.id);
    return { shares: out };
  },

  vote(obs) {
    const neg = obs.negotiation;
    const byId = {};
    for (const t of neg.tokens) byId[t.id] = t;
    const attack = Object.values(neg.attack).reduce((s, a) => s + a, 0) || 1;
    const fair = (worth(neg.tokens) * (neg.attack[String(seat)] || 0)) / attack;
    const floor = fair * (1 - (0.6 * neg.round) / neg.rounds); // concede as the rounds run out
    const accept = [];
    for (const p of neg.standing) {
      if (!obs.request.proposals.includes(p.id)) continue;
      const mine = (p.shares[String(seat)] || []).map((id) => byId[id]).filter(Boolean);
      if (worth(mine) >= floor - 1e-9) accept.push(p.id);
    }
    return { accept };
  },

  theft_victim: (obs) => ({ victim: obs.request.candidates[0] }),

  theft_pick(obs) {
    const best = [...obs.request.hoard].sort((a, b) => VALUE[b.colour] - VALUE[a.colour])[0];
    return { token: best.id };
  },

  divide(obs) {
    const k = obs.request.shares;
    const ids = obs.strategic.tokens.map((t) => t.id).sort();
    const shares = Array.from({ length: k }, () => []);
    ids.forEach((id, i) => shares[i % k].push(id));
    return { shares };
  },

  choose(obs) {
    const st = obs.strategic;
    const byId = {};
    for (const t of st.tokens) byId[t.id] = t;
    const value = (i) => worth(st.shares[i].map((id) => byId[id]));
    return { share: [...obs.request.remaining].sort((a, b) => value(b) - value(a) || a - b)[0] };
  },

  // One offer: my least valuable token to the next seat, for one token of another colour.
  market_offer(obs) {
    if (!obs.hoard.length || players < 2 || obs.request.max_offers < 1) return { offers: [] };
    const give = [...obs.hoard].sort((a, b) => VALUE[a.colour] - VALUE[b.colour])[0];
    const want = give.colour === "gold" ? "white" : "gold";
    return { offers: [{ to: (seat + 1) % players, give: [give.id], want: { [want]: 1 } }] };
  },

  // Accept an offer when I can pay it exactly and what I get is worth more than what I pay.
  market_answer(obs) {
    let free = [...obs.hoard];
    const accept = [];
    for (const offer of obs.request.offers) {
      const pay = [];
      for (const [colour, count] of Object.entries(offer.want)) {
        pay.push(...free.filter((t) => t.colour === colour && !pay.includes(t)).slice(0, count));
      }
      const wanted = Object.values(offer.want).reduce((s, n) => s + n, 0);
      if (pay.length === wanted && worth(offer.give) >= worth(pay)) {
        free = free.filter((t) => !pay.includes(t));
        accept.push({ offer: offer.id, pay: pay.map((t) => t.id) });
      }
    }
    return { accept };
  },
};

const treasure = {
  // Flip the first face-down square, then stop and keep it.
  flip: (obs) => (obs.request.can_stop ? { stop: true } : { square: obs.request.squares[0] }),
  move_spider: () => ({ square: null }), // leave the Spider where it is
};

const dragonflame = {
  // castle null (the card is discarded) only when no castle has room
  play: (obs) => ({ card: obs.request.cards[0], castle: obs.request.castles.length ? obs.request.castles[0] : null }),
  spy: () => ({ castle: null }),
  attack: (obs) => ({ castle: obs.request.castles[0] }),
  flame: (obs) => ({ side: obs.request.lines[0].side, index: obs.request.lines[0].index }),
};

const GAMES = { drachengold, treasure, dragonflame };

const input = readline.createInterface({ input: process.stdin });
input.on("line", (line) => {
  let msg;
  try {
    msg = JSON.parse(line);
  } catch (e) {
    log("ignored a line that is not JSON");
    return;
  }
  if (msg.type === "hello") {
    seat = msg.seat;
    players = msg.players;
    game = msg.game;
    log(`hello: ${game}, seat ${seat} of ${players}`);
    send({ type: "ready", name: "node-starter" });
  } else if (msg.type === "request") {
    let decision = {};
    try {
      const method = (GAMES[game] || {})[msg.kind];
      if (method) decision = method(msg.observation);
      else log(`no idea how to decide ${msg.kind} in ${game}`);
    } catch (e) {
      log(`error deciding ${msg.kind}: ${e.stack}`);
    }
    send({ id: msg.id, decision });
  } else if (msg.type === "error") {
    log(`answer ${msg.id} refused (${msg.code}): ${msg.reason}`);
  } else if (msg.type === "end") {
    const me = msg.results.find((r) => r.seat === msg.you);
    log(`game over: rank ${me && me.rank}, score ${me && me.score}`);
    process.exit(0);
  }
  // events and unknown message types need no answer
});
