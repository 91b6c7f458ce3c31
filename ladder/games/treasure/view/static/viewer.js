// Treasure of the Dragons in the replay viewer: the cave with column letters and row numbers (the
// moves say "flips C5"), this step's squares outlined, and each seat's tiles won so far.
(function () {
  "use strict";
  const SYMBOL = { chest: "C", sword: "S", scroll: "R", potion: "P", egg: "E", diamond: "◆", dragon: "D", spider: "✱" };
  const KINDS = ["chest", "sword", "scroll", "potion", "egg", "diamond", "dragon"];
  const STATE = { down: "face down", known: "seen, face down again", up: "face up", kept: "kept",
    lost: "back face down", spider: "a spider moved here", empty: "empty" };

  function draw(el, frame, data, h) {
    const b = frame.board;
    const hl = new Set(b.hl.map((sq) => sq[0] + "," + sq[1]));
    const letters = "ABCDEFGHIJ";
    const head = h("tr", {}, [h("th", { class: "corner" }),
      ...Array.from({ length: b.cols }, (_, c) => h("th", { scope: "col", text: letters[c] || String(c) }))]);
    const rows = b.cells.map((row, r) => h("tr", {}, [h("th", { scope: "row", text: String(r + 1) }),
      ...row.map(([state, kind], c) => {
        const name = (letters[c] || String(c)) + (r + 1);
        return h("td", {
          class: `st-${state} k-${kind || "unknown"}${hl.has(r + "," + c) ? " hl" : ""}`,
          "data-square": name, "data-state": state, "data-kind": kind || "",
          title: `${name}: ${kind ? kind + ", " : ""}${STATE[state] || state}`,
          text: state === "empty" || state === "down" ? "" : (SYMBOL[kind] || "?"),
        });
      })]));
    const grid = h("table", { class: "cave", "aria-label": "the cave" }, [h("thead", {}, [head]), h("tbody", {}, rows)]);

    const counts = h("table", { class: "tile-counts" }, [
      h("thead", {}, [h("tr", {}, [h("th", { text: "seat" }),
        ...KINDS.map((k) => h("th", { title: k, text: SYMBOL[k] })), h("th", { text: "total" })])]),
      h("tbody", {}, b.hoards.map((hoard, s) => h("tr", { class: frame.seat === s ? "active" : "" }, [
        h("td", {}, [LadderViewer.seatTag(data, s)]),
        ...KINDS.map((k) => h("td", { class: "num", text: hoard[k] ? String(hoard[k]) : "·" })),
        h("td", { class: "num strong", text: String(frame.scores[s]) })]))),
    ]);
    const side = h("div", { class: "side" }, [counts, h("p", { class: "muted", text: `${b.left} tiles left in the cave` }),
      h("p", { class: "legend" }, ["C chest · S sword · R scroll · P potion · E egg · ◆ diamond · D dragon · ✱ spider; ",
        "dim: seen before and face down again; green: kept; red: went back face down."])]);
    el.appendChild(h("div", { class: "treasure" }, [grid, side]));
  }

  LadderViewer.register("treasure", draw);
})();
