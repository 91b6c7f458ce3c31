// A person's table (ladder/web/play.py): long-poll what the worker wrote for the seat, draw the table
// with the game's own viewer script (the frame the server made from the seat's observation), put the
// request's form beside it, and let a click on a dragon, a tile or a castle fill the form in. The form
// is the decision: the board only sets its fields, so a person without the board plays the same form.
// Everything shown as text goes through textContent; only the server's own form HTML is inserted.
(() => {
  const table = document.querySelector("section.play-table");
  if (!table) return;
  const game = table.dataset.game;
  const me = Number(table.dataset.seat);
  const names = JSON.parse(table.dataset.names || "[]");
  const status = table.querySelector(".play-status");
  const clock = table.querySelector(".play-clock");
  const board = table.querySelector(".play-board");
  const slot = table.querySelector(".play-request");
  const log = table.querySelector(".play-log");
  let after = "0";
  let deadline = null;
  let over = false;
  let offers = new Set(); // the person's market offers this round, until a trade settles them

  const say = (text) => { status.textContent = text; };
  const line = (text, cls) => {
    if (!text) return;
    const item = document.createElement("li");
    item.textContent = text;
    if (cls) item.className = cls;
    log.append(item); // in the order it happened
  };

  const tick = () => {
    if (deadline === null) { clock.hidden = true; return; }
    const left = Math.max(0, Math.round(deadline - Date.now() / 1000));
    clock.hidden = false;
    clock.textContent = `${left} s left for this decision`;
  };
  setInterval(tick, 1000);

  const radios = (form, name) => Array.from(form.querySelectorAll(`input[type=radio][name="${CSS.escape(name)}"]`));

  const drawBoard = (item, form) => {
    if (!item.frame || !window.LadderViewer || !board) return;
    const data = { names: names, seat: me, score_label: "score" };
    if (!window.LadderViewer.drawFrame(game, board, item.frame, data)) return;
    board.dataset.kind = item.kind || "";
    // the person's own seat, wherever the game draws one (a phone shows it next to what is decided)
    board.querySelectorAll(`[data-seat="${me}"]`).forEach((el) => el.classList.add("mine"));
    // What a click means comes with the request (the game's seat_view `targets`): the drawn elements
    // offered, the form field each fills and the field's value for each element's own value.
    const picks = item.picks || { hint: "", targets: [] };
    if (picks.hint) board.prepend(window.LadderViewer.h("p", { class: "play-hint", text: picks.hint }));
    for (const spec of picks.targets || []) {
      const target = { field: spec.field, value: (el) => spec.values[el.getAttribute(spec.attr)] };
      const found = Array.from(board.querySelectorAll(spec.select));
      const choices = radios(form, target.field);
      if (!choices.length) continue;
      const els = found.filter((el) => Object.prototype.hasOwnProperty.call(spec.values, el.getAttribute(spec.attr)));
      // the choices the board shows leave the panel's list (a button brings it back); the others stay
      const onBoard = new Set(els.map(target.value));
      const field = choices[0].closest("fieldset.play-field");
      const said = window.LadderViewer.h("p", { class: "play-chosen" });
      if (field && els.length) {
        choices.forEach((r) => { if (onBoard.has(r.value)) r.closest("label").classList.add("play-on-board"); });
        field.classList.add("play-listed-on-board");
        const list = window.LadderViewer.h("button", { type: "button", class: "secondary play-list",
          text: "or pick from a list", onclick: () => field.classList.toggle("play-show-list") });
        field.querySelector("legend").after(said, list);
      }
      const mark = () => {
        const chosen = choices.find((r) => r.checked);
        for (const el of els) el.classList.toggle("picked", !!chosen && chosen.value === target.value(el));
        const label = chosen && chosen.closest("label");
        said.textContent = label ? label.textContent.trim() : "none yet: click one on the board";
      };
      for (const el of els) {
        el.classList.add("pickable");
        el.setAttribute("role", "button");
        el.setAttribute("tabindex", "0");
        const pick = (event) => {
          event.stopPropagation();
          const radio = choices.find((r) => r.value === target.value(el));
          if (!radio) return;
          radio.checked = true;
          radio.dispatchEvent(new Event("change", { bubbles: true }));
        };
        el.addEventListener("click", pick);
        el.addEventListener("keydown", (event) => { if (event.key === "Enter" || event.key === " ") pick(event); });
      }
      choices.forEach((r) => r.addEventListener("change", mark));
      mark();
    }
  };

  // The split editor: a seat chosen for a token means "propose this split".
  // The tally says how many tokens each seat gets (a divide's shares too).
  const splitEditor = (form) => {
    const tokens = Array.from(form.querySelectorAll("input[type=radio][name^='token:']"));
    if (!tokens.length) return;
    const split = radios(form, "action").find((r) => r.value === "split");
    const tally = window.LadderViewer ? window.LadderViewer.h("p", { class: "play-tally" }) : document.createElement("p");
    tally.className = "play-tally";
    const group = tokens[0].closest("fieldset.play-group");
    if (group) group.before(tally);
    const count = () => {
      const got = new Map();
      for (const r of tokens) {
        if (!r.checked) continue;
        const who = r.closest("label").textContent.trim();
        got.set(who, (got.get(who) || 0) + 1);
      }
      tally.textContent = "This split: " + Array.from(got, ([who, n]) => `${who} ${n}`).join(" · ");
    };
    tokens.forEach((r) => r.addEventListener("change", () => {
      if (split) split.checked = true;
      count();
    }));
    count();
  };

  // The market: one offer shown, the others behind "add another offer" (all of them without this script).
  const compactMarket = (form) => {
    const groups = Array.from(form.querySelectorAll("fieldset.play-group")).filter((g) => g.querySelector("select[name$=':to']"));
    if (groups.length < 2) return;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "secondary play-add";
    button.textContent = "Add another offer";
    groups.slice(1).forEach((g) => { g.hidden = true; });
    groups[groups.length - 1].after(button);
    button.addEventListener("click", () => {
      const next = groups.find((g) => g.hidden);
      if (next) next.hidden = false;
      if (!groups.some((g) => g.hidden)) button.remove();
    });
  };

  const show = (item) => {
    if (item.type === "event") {
      line(item.text);
      if (item.offer) offers.add(item.offer);
      if (item.settled) offers.delete(item.settled);
      if (item.market_round_over) {
        offers.forEach((id) => line(`Your offer ${id} was refused: no trade came of it.`, "play-outcome"));
        offers = new Set();
      }
    } else if (item.type === "request") {
      slot.innerHTML = item.html;
      deadline = item.deadline;
      say("Your decision.");
      tick();
      const form = slot.querySelector("form.play-form");
      drawBoard(item, form);
      const top = (board && board.childElementCount ? board : form).getBoundingClientRect().top;
      if (top < 0 || top > window.innerHeight * 0.6) table.scrollIntoView(); // the new decision in sight
      splitEditor(form);
      compactMarket(form);
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        send(form);
      });
    } else if (item.type === "restart") {
      // the ladder plays the game again from scratch: the earlier table is not this game's
      log.replaceChildren();
      slot.replaceChildren();
      if (board) board.replaceChildren();
      deadline = null;
      line(item.text, "play-notice");
      say(item.text);
    } else if (item.type === "hello") {
      line(item.text, "play-notice");
      say("The game is on; the bots are thinking.");
    } else {
      line(item.text, "play-notice");
      if (item.type === "takeover" || item.type === "end") {
        slot.replaceChildren();
        deadline = null;
        over = item.type === "end";
        say(item.text);
      }
    }
  };

  const send = async (form) => {
    const button = form.querySelector("button[type=submit]");
    const error = form.querySelector(".play-error");
    button.disabled = true;
    try {
      const response = await fetch(table.dataset.answer, { method: "POST", body: new FormData(form),
        credentials: "same-origin", headers: { "X-Requested-With": "play.js" } }); // JSON back, not a page
      const body = await response.json().catch(() => ({ error: `the site answered ${response.status}` }));
      if (!response.ok) {
        error.textContent = body.error || `the site answered ${response.status}`;
        error.hidden = false;
        button.disabled = false;
        return;
      }
      // The next request may have come in while this answer travelled: drop only this form.
      if (slot.contains(form)) {
        slot.replaceChildren();
        deadline = null;
        say("Sent. The others are thinking.");
      }
    } catch (exc) {
      error.textContent = `not sent: ${exc}`;
      error.hidden = false;
      button.disabled = false;
    }
  };

  const poll = async () => {
    let pause = 0;
    try {
      const url = `${table.dataset.updates}?after=${encodeURIComponent(after)}&wait=1`;
      const response = await fetch(url, { credentials: "same-origin" });
      if (response.ok) {
        const body = await response.json();
        after = body.after;
        body.items.forEach(show);
        if (body.status === "finished" || body.status === "failed") {
          if (!body.items.length) over = true;
          if (body.status === "failed") say("The match failed on the ladder's side; nothing is rated.");
        }
      } else if (response.status === 429) { // the site holds its most waiting requests: as told
        pause = (await response.json().catch(() => ({}))).retry_ms || 2000;
      } else {
        pause = 2000;
      }
    } catch (exc) {
      pause = 2000; // a cut: try again; the relay keeps everything since `after`
    }
    if (!over) setTimeout(poll, pause);
    else table.dataset.over = "1";
  };
  poll();
})();
