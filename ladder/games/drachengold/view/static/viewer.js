// Drachengold in the replay viewer: the dragon slots (strength, treasure known and hidden,
// attackers in seat colours), each seat's adventurers, hoard and hand, and the negotiation,
// strategic division or market under way, as the chosen view knew them.
(function () {
  "use strict";
  const ORDER = ["gold", "silver", "red", "blue", "green", "yellow", "purple", "white", "black"];

  function chips(h, counts, extra) {
    const keys = Object.keys(counts || {}).sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b));
    const out = keys.map((c) => h("span", { class: "chip tok-" + c, title: `${counts[c]} ${c}`, "data-colour": c },
      [String(counts[c])]));
    const all = out.concat(extra || []);
    return h("span", { class: "chips" }, all.length ? all : [h("span", { class: "muted", text: "nothing" })]);
  }

  function slot(h, data, s, i, marks) {
    if (!s) return h("div", { class: "dragon empty", "data-slot": i }, [h("span", { class: "muted", text: "empty slot" })]);
    const attackers = s.attackers.map(([seat, adv, attack]) => h("span", {
      class: "attacker s" + (seat % 8), title: `${data.names[seat]}'s ${adv}`, text: `${adv} ${attack}`,
    }));
    const pct = Math.min(100, Math.round((100 * s.total) / Math.max(1, s.strength)));
    const bar = h("svg:svg", { class: "strength", viewBox: "0 0 100 6", preserveAspectRatio: "none" },
      [h("svg:rect", { class: "track", x: 0, y: 0, width: 100, height: 6 }),
       h("svg:rect", { class: "fill", x: 0, y: 0, width: pct, height: 6 })]);
    const mark = marks.dragons[s.id];
    return h("div", { class: "dragon" + (s.slain ? " slain" : "") + (mark ? " marked" : ""), "data-slot": i, "data-dragon": s.id }, [
      h("div", { class: "dragon-head" }, [h("strong", { text: s.id }),
        h("span", { class: "muted", text: s.slain ? " slain" : ` ${s.total} / ${s.strength}` }),
        mark ? h("span", { class: "mark", text: mark }) : null]),
      bar,
      h("div", { class: "treasure-row" }, [chips(h, s.tokens,
        s.hidden ? [h("span", { class: "chip hidden", title: `${s.hidden} hidden tokens`, text: `+${s.hidden} hidden` })] : [])]),
      h("div", { class: "attackers" }, attackers.length ? attackers : [h("span", { class: "muted", text: "no attackers" })]),
    ]);
  }

  function seatPanel(h, data, board, frame, s) {
    const advs = Object.entries(board.adventurers[s]).map(([adv, where]) => h("span", {
      class: "adv " + (where === "home" ? "home" : where === "down" ? "down" : "attacking"),
      "data-adventurer": adv, "data-where": where,
      title: where === "home" ? `${adv}: ready` : where === "down" ? `${adv}: face down` : `${adv}: attacking ${where}`,
      text: where === "home" || where === "down" ? adv : `${adv}→${where}`,
    }));
    const hoard = board.hoards[s];
    const hidden = [];
    if (hoard.unseen) hidden.push(h("span", { class: "chip hidden", text: `+${hoard.unseen} unseen` }));
    if (hoard.lost) hidden.push(h("span", { class: "chip hidden", text: `−${hoard.lost} unseen` }));
    const parts = [
      h("div", { class: "seat-head" }, [LadderViewer.seatTag(data, s),
        board.marks.seats[String(s)] ? h("span", { class: "mark", text: board.marks.seats[String(s)] }) : null,
        h("span", { class: "muted", text: ` ${hoard.size} tokens` + (data.score_label === "points" ? ` · ${frame.scores[s]} points` : "") })]),
      h("div", { class: "advs" }, advs),
      h("div", { class: "hoard", "data-size": hoard.size }, [chips(h, hoard.colours, hidden)]),
    ];
    if (board.hands) {
      const hand = board.hands[s];
      const unknown = hand.size - hand.cards.length;
      parts.push(h("div", { class: "hand" }, [h("span", { class: "muted", text: `hand ${hand.size}: ` }),
        ...hand.cards.map((k) => h("span", { class: "card-kind", text: k })),
        unknown > 0 ? h("span", { class: "card-kind unknown", text: `${unknown} unseen` }) : null]));
    }
    return h("div", { class: "seat-panel s" + (s % 8) + (frame.seat === s ? " active" : "")
      + (board.marks.seats[String(s)] ? " marked" : ""), "data-seat": s }, parts);
  }

  function negotiation(h, data, n) {
    const rounds = n.history.map((r) => h("div", { class: "round", "data-round": r.round }, [
      h("strong", { text: `Round ${r.round}` }),
      h("ul", {}, r.proposals.map((p) => {
        const accepted = r.votes ? Object.entries(r.votes).filter(([, ids]) => ids.includes(p.id)).map(([s]) => Number(s)) : null;
        const agreed = n.outcome && n.outcome.proposal === p.id;
        return h("li", { class: "proposal" + (agreed ? " agreed" : ""), "data-proposal": p.id, "data-proposer": p.proposer }, [
          h("span", { class: "pid", text: p.id }), " ", LadderViewer.seatTag(data, p.proposer), " proposes: ",
          ...Object.entries(p.shares).map(([s, counts]) => h("span", { class: "share" }, [
            LadderViewer.seatTag(data, Number(s)), " ", chips(h, counts)])),
          accepted === null ? h("span", { class: "muted", text: " (votes pending)" })
            : h("span", { class: "votes", "data-accepted": accepted.join(",") }, [" accepted by: ",
              ...(accepted.length ? accepted.map((s) => LadderViewer.seatTag(data, s)) : [h("span", { class: "muted", text: "nobody" })])]),
        ]);
      })),
    ]));
    let outcome = null;
    if (n.outcome && n.outcome.box) outcome = h("p", { class: "outcome box", text: "No agreement: the treasure goes into the box lid." });
    else if (n.outcome) outcome = h("p", { class: "outcome agreed", text: `Agreement on ${n.outcome.proposal} in round ${n.outcome.round}.` });
    return h("section", { class: "negotiation" }, [
      h("h4", {}, [`Negotiation over ${n.dragon} (${n.rounds} rounds at most) for `, chips(h, n.tokens)]),
      h("p", {}, ["Between ", ...n.involved.map((s) => LadderViewer.seatTag(data, s))]),
      ...rounds, outcome]);
  }

  function division(h, data, d) {
    return h("section", { class: "division" }, [
      h("h4", {}, [LadderViewer.seatTag(data, d.divider), ` divides ${d.dragon}'s treasure`]),
      h("ul", {}, d.shares.map((counts, i) => {
        const who = Object.entries(d.chosen).filter(([, k]) => k === i).map(([s]) => Number(s));
        return h("li", {}, [`#${i} `, chips(h, counts), who.length ? " chosen by " : "", ...who.map((s) => LadderViewer.seatTag(data, s))]);
      }))]);
  }

  function market(h, data, m) {
    const items = [];
    for (const o of m.offers) items.push(h("li", {}, [LadderViewer.seatTag(data, o.from), " offers ", chips(h, o.give),
      " to ", LadderViewer.seatTag(data, o.to), " for ", chips(h, o.want)]));
    for (const t of m.trades) items.push(h("li", {}, [LadderViewer.seatTag(data, t.from), ` gives ${t.given} token(s) `,
      t.give ? chips(h, t.give) : "", " to ", LadderViewer.seatTag(data, t.to), ` for ${t.paid} `, t.pay ? chips(h, t.pay) : ""]));
    return h("section", { class: "market" }, [h("h4", { text: `Market, round ${m.round} of ${m.rounds}${m.closed ? " (closed)" : ""}` }),
      items.length ? h("ul", {}, items) : h("p", { class: "muted", text: "No trade the view can see yet." })]);
  }

  function draw(el, frame, data, h) {
    const b = frame.board;
    el.appendChild(h("div", { class: "dg" }, [
      h("div", { class: "table-info muted", text: `${b.slain} dragons slain` + (b.bag !== null && b.bag !== undefined ? ` · ${b.bag} tokens in the bag` : "") }),
      h("div", { class: "dragons" }, b.slots.map((s, i) => slot(h, data, s, i, b.marks))),
      b.negotiation ? negotiation(h, data, b.negotiation) : null,
      b.division ? division(h, data, b.division) : null,
      b.market ? market(h, data, b.market) : null,
      h("div", { class: "seats" }, b.hoards.map((_, s) => seatPanel(h, data, b, frame, s))),
    ]));
  }

  LadderViewer.register("drachengold", draw);
})();
