// DragonFlame in the replay viewer: the castles with their face-up and face-down stacks, the
// village grid with each dragon's fire, and per dragon its banner, fire left, hand and hoard.
// Frames come from ladder/games/dragonflame/view/frames.py; this step's castle and burnt spaces are
// outlined. Text goes in through textContent only; colours are classes (viewer.css).
(function () {
  "use strict";

  function cardItem(h, card, tag) {
    const down = card.face === "down";
    const cls = `df-card df-${card.category || "unknown"}${down ? " df-down" : ""}${card.spied ? " df-spied" : ""}`;
    return h(tag, { class: cls, title: `${card.text}${card.face ? " (face " + card.face + ")" : ""}` },
      [card.text, down ? h("small", { text: card.spied ? " ▼ face down, seen with a Spyglass" : " ▼ face down" }) : null]);
  }

  function castles(h, t, data) {
    if (!t.castles.length) return null;
    return h("div", { class: "df-castles", "aria-label": "castles and the cards played on them" }, t.castles.map((c) => {
      const marked = t.mark && t.mark.castle === c.number;
      const looted = c.attacker !== null && c.attacker !== undefined;
      return h("div", { class: `df-castle df-${c.colour}${marked ? " df-mark" : ""}${looted ? " df-looted" : ""}`,
        "data-castle": c.number, "data-cards": c.cards.length }, [
        h("div", { class: "df-castle-head" }, [`${c.colour} castle ${c.number} `,
          h("span", { class: "muted", text: `${c.cards.length}/${c.limit}` })]),
        looted ? h("div", { class: "df-looter" }, ["looted by ", LadderViewer.seatTag(data, c.attacker)]) : null,
        h("ol", { class: "df-stack" }, c.cards.map((card) => cardItem(h, card, "li"))),
      ]);
    }));
  }

  function grid(h, t) {
    const marked = new Set(((t.mark && t.mark.cells) || []).map((rc) => rc[0] + "," + rc[1]));
    return h("table", { class: "df-grid", "aria-label": "villages and fire" }, [h("tbody", {}, t.grid.map((row, r) =>
      h("tr", {}, row.map((cell, c) => {
        const cls = [cell.spaces ? "" : "df-field", cell.full ? "df-full" : "", marked.has(r + "," + c) ? "df-mark" : ""];
        const spaces = [];
        for (let i = 0; i < cell.spaces; i++) {
          spaces.push(h("span", { class: "df-space" + (i < cell.fire.length ? " df-fire-" + cell.fire[i] : "") }));
        }
        return h("td", { class: cls.filter(Boolean).join(" ") || null, "data-fire": cell.fire.length,
          title: cell.spaces ? `${cell.name}: ${cell.fire.length} of ${cell.spaces} spaces burnt` : cell.name }, [
          h("div", { text: cell.name }), cell.spaces ? h("div", { class: "df-spaces" }, spaces) : null]);
      }))))]);
  }

  function dragons(h, t, frame, data) {
    const head = ["Dragon", "Banner", "Fire left", "Hand", "Hoard", "Glory"];
    return h("table", { class: "df-dragons" }, [
      h("thead", {}, [h("tr", {}, head.map((text) => h("th", { text: text })))]),
      h("tbody", {}, t.hoards.map((hoard, s) => {
        const banner = t.banners[s] || {};
        const hand = (t.hands && t.hands[s]) || { size: 0, cards: null };
        const handCell = hand.cards === null
          ? h("td", { class: "muted df-hand", text: hand.size ? `${hand.size} unseen` : "·" })
          : h("td", { class: "df-hand" }, hand.cards.length ? hand.cards.map((card) => cardItem(h, card, "span")) : ["·"]);
        return h("tr", { class: frame.seat === s ? "active" : null, "data-seat": s }, [
          h("td", {}, [h("span", { class: "df-token df-fire-" + hoard.colour }), " ", LadderViewer.seatTag(data, s)]),
          h("td", {}, [`${banner.colour || "?"} ${banner.number || "?"} `, h("code", { text: banner.pattern || "" })]),
          h("td", { class: "num", text: String(hoard.fire) }),
          handCell,
          h("td", { class: "df-hoard", "data-cards": hoard.cards.length }, hoard.cards.map((text, i) =>
            cardItem(h, { text: text, category: hoard.categories[i] }, "span"))),
          h("td", { class: "num strong", text: String(frame.scores[s]) }),
        ]);
      })),
    ]);
  }

  function breakdown(h, t) {
    if (!t.breakdown || !t.breakdown.length) return null;
    // The match page's order (the replay stores the keys sorted); any other key after them.
    const order = ["villages", "banner", "statues", "chests", "jewelry", "princess", "knights", "curse", "total"];
    const keys = Object.keys(t.breakdown[0]).filter((k) => k !== "who");
    const cols = order.filter((k) => keys.includes(k)).concat(keys.filter((k) => !order.includes(k)));
    return h("table", { class: "df-dragons df-breakdown" }, [
      h("thead", {}, [h("tr", {}, [h("th", { text: "Dragon" }), ...cols.map((k) => h("th", { text: k }))])]),
      h("tbody", {}, t.breakdown.map((row) => h("tr", {}, [h("td", { text: row.who }),
        ...cols.map((k) => h("td", { class: "num" + (k === "total" ? " strong" : ""), text: String(row[k]) }))]))),
    ]);
  }

  function draw(el, frame, data, h) {
    const t = frame.table;
    el.appendChild(h("div", { class: "df-table df-viewer" }, [
      castles(h, t, data), grid(h, t), dragons(h, t, frame, data), breakdown(h, t),
      t.deck === null || t.deck === undefined ? null : h("p", { class: "muted", text: `${t.deck} card${t.deck === 1 ? "" : "s"} left in the deck` }),
    ]));
  }

  LadderViewer.register("dragonflame", draw);
})();
