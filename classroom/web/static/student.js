// The student's light view: draws the screens the server pushes (classroom/web/screen.py) and sends answers.
// Every sentence arrives as HTML the server rendered and escaped; what the student typed is set as text only.
"use strict";
(function () {
  const config = JSON.parse(document.getElementById("config").textContent);
  const phrases = config.phrases;
  const status = document.getElementById("status");
  const root = document.getElementById("screen");
  const mine = {};          // question id -> this student's answer, as sent
  let shown = null;         // the screen on display
  let note = null;          // {question, html, value}: the last confirmation or refusal
  let timer = null;         // {question, version, ends}: the timer of the question on display (ends: performance.now())
  let ticking = null;       // the countdown's interval
  const NUMBER = /^[-+]?(\d+([.,]\d*)?|[.,]\d+)\s*%?$|^[-+]?\d+\s*\/\s*\d+$/;
  const drafts = {};        // question id -> what the student typed and has not had accepted (kept on a refusal)
  const own = {};           // question id -> this phone's own list of a variant question ({state, data, asking})
  const RETRY_FIRST = 500, RETRY_MOST = 8000, RETRY_LATE = 3;  // ms, ms, failures before "taking longer"

  function el(tag, attrs, htmlText) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (htmlText !== undefined) node.innerHTML = htmlText;
    return node;
  }

  // A server sentence with the student's answer (quoted) or another text put in its slot as text (never as HTML).
  function withAnswer(tag, template, value, attrs, quote = "'") {
    const node = el(tag, attrs);
    const parts = template.split(config.slot);
    parts.forEach((part, i) => {
      node.insertAdjacentHTML("beforeend", part);
      if (i < parts.length - 1) node.append(quote + value + quote);
    });
    return node;
  }

  function setStatus(htmlText) { status.innerHTML = htmlText || ""; }

  // An answer as this phone writes it, as plain text: a chosen option as its choice reads (0,75 on a Turkish phone, a
  // label in the student's language), a typed number as typed. The value sent stays the option's own.
  function answerText(q, value) {
    const options = q.variant ? ((own[q.id] || {}).data || {}).options : q.options;
    const option = (options || []).find((o) => o.value === value);
    if (!option) return value;
    const inert = document.createElement("template");  // parsed, never run or loaded
    inert.innerHTML = option.text;
    return inert.content.textContent;
  }

  function draw(screen, moved) {
    const focused = document.activeElement && root.contains(document.activeElement);
    root.replaceChildren();
    if (screen.waiting) { root.append(el("p", {}, screen.waiting)); return; }
    const title = el("h2", {tabindex: "-1", id: "step-title"}, screen.title);
    root.append(title, el("div", {}, screen.body));
    if (screen.items) {
      root.append(el("p", {}, screen.list_caption));
      const list = el("ol", {class: "items"});
      screen.items.forEach((item) => list.append(el("li", {}, item)));
      root.append(list, el("p", {}, screen.facts));
    }
    const q = screen.question;
    if (q && q.variant) {
      const mineNow = own[q.id];
      if (!mineNow || mineNow.state !== phase(q)) fetchOwn(q);
      if (mineNow && mineNow.data) {
        root.append(el("p", {}, mineNow.data.list_caption));
        const list = el("ol", {class: "items", id: "own-list"});
        mineNow.data.items.forEach((item) => list.append(el("li", {}, item)));
        root.append(list, el("p", {}, mineNow.data.facts));
      }
      const failures = failuresOf(q.id);
      if (failures) {  // asked again after a refusal or a dropped connection: the student knows it is coming
        const coming = phase(q) === "revealed" ? phrases.own_verdict_coming : phrases.own_list_coming;
        root.append(el("p", {role: "status", id: "own-note"}, coming + (failures >= RETRY_LATE ? " " +
                                                                         phrases.own_late : "")));
      }
      root.append(el("p", {class: "note"}, q.note));
    }
    if (q) root.append(question(q));
    if (moved && !focused) title.focus();
  }

  function question(q) {
    const box = el("section", {"aria-labelledby": "prompt"});
    box.append(el("p", {id: "prompt"}, "<strong>" + q.prompt + "</strong>"));
    const answer = mine[q.id];
    if (q.state === "open") {
      const options = q.variant ? ((own[q.id] || {}).data || {}).options : q.options;
      if (q.variant === "value" && !options) {
        if (!failuresOf(q.id)) box.append(el("p", {}, phrases.connecting));  // else the note above says why
      } else box.append(options ? choices(q, answer, options) : numberForm(q, answer));
      if (timer && timer.question === q.id) box.append(countdown());
    } else if (q.state === "locked") {
      box.append(answer === undefined ? el("p", {}, phrases.locked_none)
                                      : withAnswer("p", phrases.locked_yours, answerText(q, answer)));
    } else box.append(reveal(q.reveal, answer, q.variant ? ((own[q.id] || {}).data || {}).verdict : undefined));
    const said = el("p", {role: "status", id: "answer-note"});
    if (note && note.question === q.id && q.state === "open") {
      if (note.value !== undefined) {
        said.append(withAnswer("span", note.html, answerText(q, note.value)));
        if (note.refused) said.className = "error";
      }
      else { said.innerHTML = note.html; said.className = "error"; }
    }
    box.append(said);
    return box;
  }

  function choices(q, answer, options) {
    const set = el("fieldset");
    set.append(el("legend", {}, q.label));
    options.forEach((option, i) => {
      const id = "option-" + i;
      const row = el("div", {class: "choice"});
      const input = el("input", {type: "radio", name: "answer", id: id});
      input.value = option.value;
      input.checked = option.value === answer;
      input.addEventListener("change", () => send(q.id, option.value));
      row.append(input, el("label", {for: id}, option.text));
      set.append(row);
    });
    return set;
  }

  function numberForm(q, answer) {
    const form = el("form");
    const input = el("input", {id: "number", name: "number", inputmode: "decimal", autocomplete: "off",
                               maxlength: String(q.max_length)});
    input.value = drafts[q.id] !== undefined ? drafts[q.id] : (answer === undefined ? "" : answer);
    input.addEventListener("input", () => { drafts[q.id] = input.value; });
    form.append(el("label", {for: "number"}, q.label), input);
    if (q.tolerance) {
      input.setAttribute("aria-describedby", "tolerance");
      form.append(el("p", {id: "tolerance", class: "note"}, q.tolerance));
    }
    form.append(el("button", {type: "submit"}, phrases.send));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      drafts[q.id] = input.value;
      const typed = input.value.trim();
      // Checked here first (the server checks again): "0.5", "0,5", "1/2", "50%". Anything else is refused with
      // the reason, and what was typed stays in the box.
      if (!NUMBER.test(typed)) {
        note = {question: q.id, html: phrases.not_a_number, value: typed, refused: true};
        draw(shown, false);
        document.getElementById("number").focus();
        return;
      }
      send(q.id, typed);
    });
    return form;
  }

  function reveal(r, answer, ownVerdict) {
    const box = el("div", {id: "verdict"});
    if (ownVerdict !== undefined) box.insertAdjacentHTML("beforeend", ownVerdict);
    else box.insertAdjacentHTML("beforeend",
                                answer !== undefined && r.verdicts[answer] !== undefined ? r.verdicts[answer] : r.none);
    box.append(el("p", {}, r.right));
    if (r.counts.length) {
      const list = el("ul");
      r.counts.forEach((c) => {
        const item = el("li", c.value === answer ? {class: "mine"} : {}, c.answer + (c.right ? " ✓" : "") + ": ");
        item.append(String(c.students));
        list.append(item);
      });
      box.append(list);
    }
    r.mistakes.forEach((m) => box.append(el("p", {}, m)));
    if (r.why) box.append(el("div", {}, r.why));
    return box;
  }

  // The timer: the server says how many seconds are left when it sends the screen; the phone counts them
  // down and closes the answers itself at zero, as the server does (its locked screen follows).
  function countdown() {
    const seconds = Math.max(0, Math.ceil((timer.ends - performance.now()) / 1000));
    const time = Math.floor(seconds / 60) + ":" + String(seconds % 60).padStart(2, "0");
    return withAnswer("p", phrases.timer, time, {role: "timer", id: "timer"}, "");
  }

  function tick() {
    const q = shown && shown.question;
    if (!timer || !q || q.id !== timer.question || q.state !== "open" || shown.version !== timer.version) {
      stopTimer();
    } else if (performance.now() >= timer.ends) {
      stopTimer();
      shown = Object.assign({}, shown, {question: Object.assign({}, q, {state: "locked"})});
      draw(shown, false);
    } else {
      const old = document.getElementById("timer");
      if (old) old.replaceWith(countdown());
    }
  }

  function stopTimer() {
    if (ticking !== null) clearInterval(ticking);
    ticking = null;
    timer = null;
  }

  async function send(questionId, value) {
    try {
      const response = await fetch(config.answer, {method: "POST", headers: {"Content-Type": "application/json"},
                                                   body: JSON.stringify({question_id: questionId, value: value})});
      const body = await response.json();
      if (response.ok) {
        mine[questionId] = value;
        delete drafts[questionId];
        note = {question: questionId, html: phrases.answer_in, value: value};
      }
      else note = {question: questionId, html: body.error || phrases.not_sent};
    } catch (e) {
      note = {question: questionId, html: phrases.not_sent};
    }
    if (shown) draw(shown, false);
  }

  // A variant question: this phone's own list (and choices), then its own verdict after the reveal. One small
  // request per phone when the question opens and when it is revealed; the screen itself stays shared.
  // Asked once while answers are open or locked (the list), once more after the reveal (the verdict).
  // A refusal (429, a 5xx, a proxy's 502) or a dropped connection is asked again after about 0.5, 1, 2, 4 s, then
  // every 8 s (or after the server's Retry-After), while the question is on screen in that phase; spread a little
  // at random, so a class refused at once does not come back at once. Without this the phone never asked again.
  function phase(q) { return q.state === "revealed" ? "revealed" : "asked"; }

  function onScreen(questionId, state) {
    return Boolean(shown && shown.question && shown.question.id === questionId && phase(shown.question) === state);
  }

  function failuresOf(questionId) {
    const asking = (own[questionId] || {}).asking;
    return asking ? asking.failures : 0;
  }

  function retryWait(response, failures) {
    const header = response && response.headers.get("Retry-After");  // seconds (a date is not sent here)
    const said = header ? Number(header) : NaN;
    if (Number.isFinite(said) && said >= 0) return Math.min(Math.max(said * 1000, RETRY_FIRST), 4 * RETRY_MOST);
    return Math.min(RETRY_FIRST * 2 ** (failures - 1), RETRY_MOST) * (0.75 + Math.random() / 2);
  }

  async function fetchOwn(q) {
    const asking = {state: phase(q), failures: 0};  // this phase's asking, until its answer comes
    own[q.id] = Object.assign({}, own[q.id], {state: asking.state, asking: asking});
    const current = () => own[q.id].asking === asking;  // a newer phase asks for itself
    for (;;) {
      let response = null;
      try {
        response = await fetch(config.own + "&question=" + encodeURIComponent(q.id), {cache: "no-store"});
        if (response.ok) {
          const data = await response.json();
          if (!current()) return;
          own[q.id] = {state: asking.state, data: data};
          break;
        }
      } catch (e) {
        // a dropped connection, or a body that is not the server's JSON: asked again below
      }
      if (!current()) return;
      asking.failures += 1;
      if (onScreen(q.id, asking.state)) draw(shown, false);
      await new Promise((resolve) => setTimeout(resolve, retryWait(response, asking.failures)));
      if (!current()) return;
      if (!onScreen(q.id, asking.state)) {  // moved on: asked afresh if it comes back
        own[q.id] = Object.assign({}, own[q.id], {state: null, asking: null});
        return;
      }
    }
    if (onScreen(q.id, asking.state)) draw(shown, false);
  }

  const events = new EventSource(config.events);
  events.addEventListener("open", () => setStatus(""));
  events.addEventListener("error", () => {
    if (events.readyState !== EventSource.CLOSED) setStatus(phrases.reconnecting);
  });
  events.addEventListener("mine", (event) => {
    const own = JSON.parse(event.data);
    Object.assign(mine, own.answers);
    document.getElementById("caption").innerHTML = own.caption;
  });
  events.addEventListener("screen", (event) => {
    const screen = JSON.parse(event.data);
    const moved = !shown || shown.title !== screen.title || (shown.question || {}).id !== (screen.question || {}).id;
    if (moved) note = null;
    stopTimer();  // a timer still running comes again after its screen
    shown = screen;
    setStatus("");
    draw(screen, moved);
    document.body.dataset.version = String(screen.version);
  });
  events.addEventListener("timer", (event) => {
    const running = JSON.parse(event.data);
    if (!shown || shown.version !== running.version) return;
    stopTimer();
    timer = {question: running.question_id, version: running.version,
             ends: performance.now() + running.seconds_left * 1000};
    ticking = setInterval(tick, 250);
    draw(shown, false);
    tick();
  });
  // The server could not build the class's new screen: say so, and keep the last one until the next arrives.
  events.addEventListener("notice", (event) => setStatus(JSON.parse(event.data).notice));
  events.addEventListener("ended", () => {
    events.close();
    root.replaceChildren(el("p", {role: "status"}, phrases.ended));
    setStatus("");
  });
})();
