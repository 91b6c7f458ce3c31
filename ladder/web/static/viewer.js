// The replay viewer: controls, scrub bar, keys, #step=N, the score chart. Games draw their own
// board: ladder/games/<game>/view/static/viewer.js (served as /games/<game>/viewer.js) calls LadderViewer.register(game, draw), where
// draw(element, frame, data, h) fills `element` from one frame (frames come from the server,
// computed by the game's view, Game.view: ladder/games/<game>/view/frames.py). Every text goes in through textContent: bot names
// are user input. No inline styles (the CSP forbids them): colours are classes.
(function () {
  "use strict";
  const renderers = {};
  const SVG = "http://www.w3.org/2000/svg";

  // h("div", {class: "x", text: "y"}, [children]) — the one way elements are made here.
  function h(tag, attrs, children) {
    const svg = tag.startsWith("svg:");
    const el = svg ? document.createElementNS(SVG, tag.slice(4)) : document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "text") el.textContent = String(value);
      else if (key === "class") el.setAttribute("class", value);
      else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
      else el.setAttribute(key, String(value));
    }
    for (const child of children || []) {
      if (child === null || child === undefined || child === false) continue;
      el.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    }
    return el;
  }

  function seatTag(data, seat) {
    const name = (data.names && data.names[seat]) || "seat " + seat;
    return h("span", { class: "seat-tag s" + (seat % 8), title: "seat " + seat }, [name]);
  }

  // drawFrame: one frame drawn outside the replay viewer (a person's table, ladder/web/static/play.js)
  function drawFrame(game, el, frame, data) {
    const draw = renderers[game];
    if (!draw) return false;
    el.replaceChildren();
    draw(el, frame, data, h);
    return true;
  }

  window.LadderViewer = { register: (game, draw) => { renderers[game] = draw; }, h: h, seatTag: seatTag,
    drawFrame: drawFrame };

  function readHash() {
    const out = {};
    for (const part of window.location.hash.replace(/^#/, "").split("&")) {
      const [key, value] = part.split("=");
      if (key) out[decodeURIComponent(key)] = decodeURIComponent(value || "");
    }
    return out;
  }

  // The owner's seat view (ladder/replay/decisions.py): each request the bot answered, its time
  // against the clock, the bank it left and the stderr it wrote meanwhile. Text through textContent only.
  // Each row's request number jumps to the step that shows its answer (onPick).
  const ms = (v) => (v === null || v === undefined ? "—" : String(Math.round(v)));

  function decisionTable(data, onPick) {
    const rows = data.decisions || [];
    if (!rows.length) return [];
    const body = rows.map((d) => h("tr", { class: d.fault ? "refused" : null, "data-request": d.request }, [
      h("td", { class: "num" }, [h("button", { type: "button", class: "link", text: String(d.request),
        title: "show this step", "aria-label": "show the step of request " + d.request, onclick: () => onPick(d) })]),
      h("td", { text: d.kind }),
      h("td", { class: "num", text: ms(d.wall_ms) + (d.decision_ms ? " / " + d.decision_ms : "") }),
      h("td", { class: "num", text: ms(d.cpu_ms) }), h("td", { class: "num", text: ms(d.bank_left_ms) }),
      h("td", { text: d.fault || "" }),
      h("td", {}, [d.stderr ? h("pre", { class: "decision-stderr", text: d.stderr })
        : h("span", { class: "muted", text: d.stderr === null ? "not recorded" : "" })]),
    ]));
    const head = ["Request", "Kind", "Wall ms / clock", "CPU ms", "Bank left ms", "Refused", "stderr"];
    return [h("details", { class: "decisions" }, [
      h("summary", { text: `Your bot's ${rows.length} answers: time against its clock, and its stderr (only you see this)` }),
      h("div", { class: "scroll" }, [h("table", { class: "board" }, [
        h("thead", {}, [h("tr", {}, head.map((t) => h("th", { text: t })))]), h("tbody", {}, body)])]),
    ])];
  }

  // The frames name the log entry they were drawn after (frame.entry), the decisions theirs: at a
  // step, the seat's answers up to it, and those given since the step before.
  function answersAt(data, index) {
    const rows = data.decisions || [], frame = data.frames[index];
    if (!rows.length || !frame || typeof frame.entry !== "number") return null;
    const before = index > 0 && typeof data.frames[index - 1].entry === "number" ? data.frames[index - 1].entry : -1;
    const upTo = rows.filter((d) => d.entry <= frame.entry);
    return { upTo: upTo, here: upTo.filter((d) => d.entry > before) };
  }

  // The panel beside the board (CodinGame's per-frame stderr): the answers given at this step, else
  // the latest before it, each with its time against the clock and its stderr.
  function answerPanel(data, answers) {
    const latest = answers.upTo[answers.upTo.length - 1];
    const shown = answers.here.length ? answers.here.slice(-4) : latest ? [latest] : [];
    const head = answers.here.length
      ? `Answered at this step: request ${answers.here.map((d) => d.request).join(", ")}`
      : latest ? `No answer at this step; the latest before it, request ${latest.request}:` : "No request answered yet.";
    const clock = (d) => `${ms(d.wall_ms)} ms` + (d.decision_ms ? ` of ${d.decision_ms} ms` : "") +
      `, CPU ${ms(d.cpu_ms)} ms` + (d.bank_left_ms === null || d.bank_left_ms === undefined ? "" : `, bank left ${ms(d.bank_left_ms)} ms`);
    return [
      h("h4", { text: "Your bot at this step" }), h("p", { class: "muted", text: head }),
      ...shown.map((d) => h("div", { class: "answer" + (d.fault ? " refused" : ""), "data-request": d.request }, [
        h("p", {}, [h("strong", { text: `#${d.request} ${d.kind}` }), " " + clock(d)]),
        d.fault ? h("p", { class: "refused", text: "refused: " + d.fault + " (its default was played)" }) : null,
        d.stderr ? h("pre", { class: "decision-stderr", text: d.stderr })
          : h("p", { class: "muted", text: d.stderr === null ? "stderr not recorded" : "no stderr" }),
      ])),
      h("p", { class: "muted small", text: `${answers.upTo.length} of ${data.decisions.length} answers so far; only you see this.` }),
    ];
  }

  // The score chart. Its lines are drawn in step and score units inside a group that scales them
  // to the box, so a live batch adds its frames' points (`extend`) and moves the scale: the chart
  // of a long match is not drawn again from its first step at every batch.
  function chart(data, onPick, width) {
    const n = data.names.length;
    const W = width < 500 ? 360 : 640, H = width < 500 ? 130 : 150, L = 34, R = 8, T = 10, B = 22;  // phones get bigger text
    let frames = data.frames, max = 1;
    const x = (i) => L + (frames.length < 2 ? 0 : (i * (W - L - R)) / (frames.length - 1));
    const svg = h("svg:svg", { class: "score-chart", viewBox: `0 0 ${W} ${H}`, role: "img",
      "aria-label": `${data.score_label} over the match` });
    svg.appendChild(h("svg:line", { class: "axis", x1: L, y1: H - B, x2: W - R, y2: H - B }));
    const top = h("svg:text", { x: 2, y: T + 4, text: "1" });
    svg.appendChild(top);
    svg.appendChild(h("svg:text", { x: 2, y: H - B, text: "0" }));
    svg.appendChild(h("svg:text", { x: L, y: H - 6, text: data.score_label + " by step" }));
    const plot = h("svg:g", {});  // x: the step, y: the score, scaled to the box by its transform
    svg.appendChild(plot);
    const series = [];
    for (let s = 0; s < n; s++) {
      const line = h("svg:polyline", { class: "series s" + (s % 8), points: "", "vector-effect": "non-scaling-stroke" },
        [h("svg:title", { text: data.names[s] })]);
      plot.appendChild(line);
      series.push(line);
    }
    const marker = h("svg:line", { class: "marker", x1: L, y1: T, x2: L, y2: H - B });
    svg.appendChild(marker);
    svg.addEventListener("click", (event) => {
      const box = svg.getBoundingClientRect();
      const px = ((event.clientX - box.left) / box.width) * W;
      const i = Math.round(((px - L) / (W - L - R)) * (frames.length - 1));
      onPick(Math.max(0, Math.min(frames.length - 1, i)));
    });
    svg.moveTo = (i) => { marker.setAttribute("x1", x(i)); marker.setAttribute("x2", x(i)); };
    // the points from frame `from` on are (re)placed by the frames' own; earlier ones stay
    svg.extend = (all, from) => {
      frames = all;
      for (let i = from; i < all.length; i++) for (const v of all[i].scores) max = Math.max(max, v || 0);
      series.forEach((line, s) => {
        const points = line.points;
        while (points.numberOfItems > from) points.removeItem(points.numberOfItems - 1);
        for (let i = from; i < all.length; i++) {
          const point = svg.createSVGPoint();
          point.x = i;
          point.y = all[i].scores[s] || 0;
          points.appendItem(point);
        }
      });
      const sx = all.length < 2 ? 0 : (W - L - R) / (all.length - 1), sy = (H - T - B) / max;
      plot.setAttribute("transform", `translate(${L} ${H - B}) scale(${sx} ${-sy})`);
      top.textContent = String(max);
    };
    svg.extend(frames, 0);
    return svg;
  }

  function start(root) {
    const game = root.dataset.game;
    const viewSelect = root.querySelector("select.view");
    const status = h("p", { class: "viewer-status muted", text: "Loading the replay…" });
    root.appendChild(status);
    root.hidden = false;
    let data = null, index = 0, timer = null;
    const speeds = [0.5, 1, 2, 4, 8];
    let speed = 1;

    const title = h("h3", { class: "frame-title" });
    const counter = h("span", { class: "counter" });
    const scrub = h("input", { type: "range", min: 1, max: 1, value: 1, class: "scrub", "aria-label": "step" });
    const playButton = h("button", { type: "button", class: "play", text: "▶ Play", "aria-label": "play" });
    const speedSelect = h("select", { class: "speed", "aria-label": "speed" },
      speeds.map((s) => h("option", { value: s, text: s + "×", selected: s === 1 ? "selected" : null })));
    const button = (text, label, go) => h("button", { type: "button", class: "step", "aria-label": label, text: text, onclick: go });
    const board = h("div", { class: "viewer-board" });
    const answerBox = h("aside", { class: "viewer-answer", "aria-label": "your bot at this step", hidden: "hidden" });
    const stage = h("div", { class: "viewer-stage" }, [board, answerBox]);
    const lines = h("ul", { class: "frame-lines" });
    const note = h("p", { class: "viewer-note muted" });
    const legend = h("p", { class: "viewer-legend" });
    const chartBox = h("div", { class: "viewer-chart" });
    const controls = h("div", { class: "viewer-controls" }, [
      button("|◀", "first step", () => show(0)), button("◀", "previous step", () => show(index - 1)),
      playButton, button("▶", "next step", () => show(index + 1)), button("▶|", "last step", () => show(data.frames.length - 1)),
      h("label", { class: "speed-label" }, ["speed ", speedSelect]), counter,
    ]);
    const decisionsBox = h("div", { class: "viewer-decisions" });
    const ui = h("div", { class: "viewer-ui", hidden: "hidden" },
      [note, legend, controls, scrub, title, lines, stage, chartBox, decisionsBox]);
    root.appendChild(ui);

    function setHash() {
      const parts = ["step=" + (index + 1)];
      if (data.view !== "public") parts.push("view=" + data.view);
      if (data.seat !== null && data.seat !== undefined) parts.push("seat=" + data.seat);
      history.replaceState(null, "", "#" + parts.join("&"));
    }

    function show(i) {
      if (!data || !data.frames.length) return;
      index = Math.max(0, Math.min(data.frames.length - 1, i));
      const frame = data.frames[index];
      root.dataset.step = String(index + 1);
      counter.textContent = `step ${index + 1} / ${data.frames.length}`;
      scrub.value = String(index + 1);
      title.textContent = frame.title;
      lines.replaceChildren(...frame.lines.map((line) => h("li", { text: line })));
      board.replaceChildren();
      const draw = renderers[game];
      if (draw) draw(board, frame, data, h);
      if (chartBox.firstChild) chartBox.firstChild.moveTo(index);
      showAnswers();
      setHash();
      if (index === data.frames.length - 1) pause();
    }

    function showAnswers() {
      const answers = answersAt(data, index);
      stage.classList.toggle("with-answers", !!answers);
      answerBox.hidden = !answers;
      answerBox.replaceChildren(...(answers ? answerPanel(data, answers) : []));
      const latest = answers && answers.upTo.length ? answers.upTo[answers.upTo.length - 1].request : 0;
      answerBox.dataset.request = String(latest);
      for (const row of decisionsBox.querySelectorAll("tr[data-request]")) {  // the table follows the step too
        const n = Number(row.dataset.request);
        row.classList.toggle("current", n === latest);
        row.classList.toggle("later", n > latest);
      }
    }

    // the first step showing a request's answer
    function showAnswer(d) {
      const i = data.frames.findIndex((f) => typeof f.entry === "number" && f.entry >= d.entry);
      show(i < 0 ? data.frames.length - 1 : i);
    }

    function pause() {
      if (timer) clearInterval(timer);
      timer = null;
      playButton.textContent = "▶ Play";
      playButton.setAttribute("aria-label", "play");
    }

    function play() {
      if (index >= data.frames.length - 1) show(0);
      pause();
      timer = setInterval(() => show(index + 1), 700 / speed);
      playButton.textContent = "⏸ Pause";
      playButton.setAttribute("aria-label", "pause");
    }

    playButton.addEventListener("click", () => (timer ? pause() : play()));
    speedSelect.addEventListener("change", () => { speed = Number(speedSelect.value) || 1; if (timer) play(); });
    scrub.addEventListener("input", () => show(Number(scrub.value) - 1));
    document.addEventListener("keydown", (event) => {
      if (!data || event.ctrlKey || event.metaKey || event.altKey) return;
      // Form fields keep their own keys: the scrub bar's arrows move it (and so the step), a
      // focused button's space presses it.
      const tag = (event.target && event.target.tagName) || "";
      if (["INPUT", "SELECT", "TEXTAREA"].includes(tag)) return;
      if (tag === "BUTTON" && (event.key === " " || event.key === "Enter")) return;
      const keys = {
        ArrowRight: () => show(index + 1), ArrowLeft: () => show(index - 1), Home: () => show(0),
        End: () => show(data.frames.length - 1), " ": () => (timer ? pause() : play()),
        PageDown: () => show(index + 10), PageUp: () => show(index - 10),
      };
      if (keys[event.key]) { event.preventDefault(); keys[event.key](); }
    });

    function load(view, seat, step) {
      pause();
      let url = root.dataset.frames + "?view=" + encodeURIComponent(view);
      if (seat !== null && seat !== undefined && seat !== "") url += "&seat=" + encodeURIComponent(seat);
      status.textContent = "Loading the replay…";
      status.hidden = false;
      fetch(url, { credentials: "same-origin" }).then((r) => {
        if (!r.ok) throw new Error("the viewer could not load this view (" + r.status + ")");
        return r.json();
      }).then((payload) => {
        data = payload;
        status.hidden = true;
        ui.hidden = false;
        note.textContent = data.note;
        legend.replaceChildren(...data.names.map((_, s) => seatTag(data, s)));
        scrub.max = String(Math.max(1, data.frames.length));
        chartBox.replaceChildren(chart(data, (i) => show(i), root.clientWidth));
        decisionsBox.replaceChildren(...decisionTable(data, showAnswer));
        root.dataset.view = data.view;
        root.dataset.framesCount = String(data.frames.length);
        show(Number.isFinite(step) ? step - 1 : 0);
        root.dataset.ready = "1";
      }).catch((error) => { status.textContent = error.message; status.hidden = false; });
    }

    // Live mode (data-live: ladder/web/live.py): long polls bring the frames the page lacks; the
    // server resends the last one it has (a fault line may still join it). A viewer at the last
    // frame follows the live end; one who stepped back stays put ("● live" jumps to the end). When
    // the match is over, the finished replay (frames.json) replaces the live frames.
    const live = { cursor: "", attempt: "" };  // attempt: the id of the start message the frames come from
    const liveButton = button("● live", "jump to the live end", () => show(data.frames.length - 1));
    liveButton.classList.add("live-end");

    function applyLive(p) {
      const atEnd = !data || index >= data.frames.length - 1;
      const restarted = !data || p.attempt !== live.attempt;
      live.attempt = p.attempt;
      status.hidden = true;
      ui.hidden = false;
      if (restarted) {  // a new attempt: everything is drawn from its first frame
        data = Object.assign({}, p, { frames: p.frames.slice() });
        note.textContent = data.note;
        legend.replaceChildren(...data.names.map((_, s) => seatTag(data, s)));
        chartBox.replaceChildren(chart(data, (i) => show(i), root.clientWidth));
      } else {  // only what is new: the frames from the server's first one on replace the page's
        data.frames.length = p.from;
        for (const frame of p.frames) data.frames.push(frame);
        data.total = p.total;
        if (chartBox.firstChild) chartBox.firstChild.extend(data.frames, p.from);
      }
      scrub.max = String(Math.max(1, data.frames.length));
      root.dataset.framesCount = String(data.frames.length);
      show(restarted || atEnd ? data.frames.length - 1 : index);
      root.dataset.ready = "1";
    }

    function finishLive(p) {
      root.dataset.liveState = "done";
      liveButton.remove();
      const badge = root.querySelector(".live-badge");
      if (badge) badge.remove();
      const reload = h("p", { class: "viewer-over" }, [
        "The match is over. ", h("a", { href: window.location.pathname, text: "Reload the page" }),
        " for its results and every view of it."]);
      root.insertBefore(reload, ui);
      if (p.status === "finished") {
        const atEnd = !data || index >= data.frames.length - 1;
        load("public", null, atEnd ? Number.MAX_SAFE_INTEGER : index + 1);
      } else {
        status.textContent = "The match " + p.status + ": no replay to show.";
        status.hidden = false;
      }
    }

    function poll(first) {
      let url = root.dataset.live + "?have=" + (data ? data.frames.length : 0);
      if (live.attempt) url += "&attempt=" + encodeURIComponent(live.attempt);
      if (live.cursor) url += "&cursor=" + encodeURIComponent(live.cursor);
      if (!first) url += "&wait=1";
      fetch(url, { credentials: "same-origin", cache: "no-store" }).then((r) => {
        // past the server's budget of waiting requests, or this address's share: ask again when told
        if (r.status === 429) return r.json().catch(() => ({})).then((b) => ({ retry_ms: b.retry_ms || 3000, again: true }));
        if (!r.ok) throw new Error("the live view could not load (" + r.status + ")");
        return r.json();
      }).then((p) => {
        if (!p.again) {
          live.cursor = p.cursor;
          if (p.done) return finishLive(p);
          if (p.live) applyLive(p);
          else {
            root.dataset.liveState = "waiting";
            status.textContent = p.status === "queued" ? "The match is waiting for a worker…" : "Waiting for the first move…";
            status.hidden = false;
          }
          if (p.live) root.dataset.liveState = "live";
        }
        setTimeout(() => poll(false), p.retry_ms || 0);
      }).catch((error) => {
        status.textContent = error.message + "; trying again";
        status.hidden = false;
        setTimeout(() => poll(false), 3000);
      });
    }

    window.addEventListener("hashchange", () => {  // a #step=N typed or followed on the same page
      const wanted = parseInt(readHash().step, 10);
      if (data && Number.isFinite(wanted) && wanted !== index + 1) show(wanted - 1);
    });
    const hash = readHash();
    const step = hash.step ? parseInt(hash.step, 10) : NaN;
    let view = hash.view || "public", seat = hash.seat || null;
    if (viewSelect) {
      const wanted = view === "seat" ? "seat:" + seat : view;
      if ([...viewSelect.options].some((o) => o.value === wanted)) viewSelect.value = wanted;
      else { view = "public"; seat = null; }
      viewSelect.addEventListener("change", () => {
        const [v, s] = viewSelect.value.split(":");
        root.dataset.ready = "";
        load(v, s === undefined ? null : s, index + 1);
      });
    }
    if (root.dataset.live) {
      controls.appendChild(liveButton);
      poll(true);
    } else load(view, seat, step);
  }

  document.addEventListener("DOMContentLoaded", () => {
    document.querySelectorAll("[data-viewer]").forEach(start);
  });
})();
