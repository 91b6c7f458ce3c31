// A person's table (ladder/web/play.py): long-poll what the worker wrote for the seat, show each
// event as a line and each request as the form the server drew, post the form, count the clock.
// Everything shown as text goes through textContent; only the server's own form HTML is inserted.
(() => {
  const table = document.querySelector("section.play-table");
  if (!table) return;
  const status = table.querySelector(".play-status");
  const clock = table.querySelector(".play-clock");
  const slot = table.querySelector(".play-request");
  const log = table.querySelector(".play-log");
  let after = "0";
  let deadline = null;
  let over = false;

  const say = (text) => { status.textContent = text; };
  const line = (text, cls) => {
    if (!text) return;
    const item = document.createElement("li");
    item.textContent = text;
    if (cls) item.className = cls;
    log.prepend(item);
  };

  const tick = () => {
    if (deadline === null) { clock.hidden = true; return; }
    const left = Math.max(0, Math.round(deadline - Date.now() / 1000));
    clock.hidden = false;
    clock.textContent = `${left} s left for this decision`;
  };
  setInterval(tick, 1000);

  const show = (item) => {
    if (item.type === "event") {
      line(item.text);
    } else if (item.type === "request") {
      slot.innerHTML = item.html;
      deadline = item.deadline;
      say("Your decision.");
      tick();
      const form = slot.querySelector("form.play-form");
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        send(form);
      });
    } else if (item.type === "restart") {
      // the ladder plays the game again from scratch: the earlier table is not this game's
      log.replaceChildren();
      slot.replaceChildren();
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
                                                            credentials: "same-origin" });
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
