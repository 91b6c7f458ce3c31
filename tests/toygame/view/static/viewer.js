// Toy Nim in the replay viewer: the pile as a row of counters, and per seat what it took, its
// secret when this view knows it and its bet. Frames: tests/toygame/view/frames.py.
(function () {
  "use strict";

  function draw(el, frame, data, h) {
    const t = frame.table;
    const pile = h("p", { class: "toy-pile", "data-pile": t.pile, "aria-label": `${t.pile} counters in the pile` },
      Array.from({ length: t.pile }, () => h("span", { class: "toy-counter", text: "●" })));
    const rows = t.taken.map((taken, s) => h("tr", { class: frame.seat === s ? "active" : "" }, [
      h("td", {}, [LadderViewer.seatTag(data, s)]),
      h("td", { class: "num", text: String(taken) }),
      h("td", { class: "toy-secret", text: t.secrets[s] === null ? "?" : String(t.secrets[s]) }),
      h("td", { text: t.bets[s] || "—" }),
    ]));
    const table = h("table", { class: "toy-seats" }, [
      h("thead", {}, [h("tr", {}, ["seat", "taken", "secret", "bet"].map((x) => h("th", { text: x })))]),
      h("tbody", {}, rows)]);
    el.appendChild(h("div", { class: "toy" }, [pile, table]));
  }

  LadderViewer.register("toy", draw);
})();
