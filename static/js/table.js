// Table page helpers. htmx + its ws extension do the transport; this file only adds what plain
// HTML cannot: running totals for payment/discard forms, confirm prompts, clock countdowns, a
// connection indicator and reconnects, and the feel of the table: opponents that stay expanded
// or collapsed across pushes, focus kept for keyboard players, cards that glide to where they
// went (FLIP), set-complete flashes, spoken announcements and optional synthesised sounds.
(function () {
  "use strict";
  var root = document.getElementById("table-root");
  if (!root) { return; }
  var reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)");
  var wide = window.matchMedia && window.matchMedia("(min-width: 961px)");
  function calm() { return !!(reduced && reduced.matches); }
  function $(sel, el) { return (el || root).querySelector(sel); }
  function $$(sel, el) { return Array.prototype.slice.call((el || root).querySelectorAll(sel)); }

  // --- "attrs": a push gives an element the attributes of its new start tag -----------------
  // (games/platform/swaps.py): its children stay as they are, swapped one by one if at all.
  // The swap's element carries no id, so the press-keeping below never holds it.
  if (window.htmx && window.htmx.defineExtension) {
    window.htmx.defineExtension("attrs-swap", {
      isInlineSwap: function (style) { return style === "attrs"; },
      handleSwap: function (style, target, fragment) {
        if (style !== "attrs") { return false; }
        var from = fragment.firstElementChild;
        if (!from) { return []; }
        Array.prototype.slice.call(target.attributes).forEach(function (a) {
          if (a.name !== "id" && !from.hasAttribute(a.name)) { target.removeAttribute(a.name); }
        });
        Array.prototype.slice.call(from.attributes).forEach(function (a) {
          if (a.name !== "id") { target.setAttribute(a.name, a.value); }
        });
        return [];
      }
    });
  }

  // --- payment and discard forms ----------------------------------------------------------
  function checked(form) { return $$("input[name=cards]:checked", form); }

  function refreshPay(form) {
    var boxes = $$("input[name=cards]", form);
    var picked = checked(form);
    var total = picked.reduce(function (sum, box) {
      return sum + parseInt(box.getAttribute("data-value") || "0", 10);
    }, 0);
    var owed = parseInt(form.getAttribute("data-owed") || "0", 10);
    var out = $(".pay-total", form);
    if (out) { out.textContent = String(total); }
    // Legal: covers the debt, or surrenders every payable card (REFERENCE §5).
    var everything = boxes.length > 0 && picked.length === boxes.length;
    var ok = picked.length > 0 && (total >= owed || everything);
    var button = $(".pay-confirm", form);
    if (button) { button.disabled = !ok; }
    var fill = $(".pay-fill", form);
    if (fill) {
      fill.style.width = Math.min(100, owed ? (100 * total / owed) : (ok ? 100 : 0)) + "%";
      fill.parentNode.classList.toggle("ok", ok);
    }
  }

  function refreshDiscard(form) {
    var need = parseInt(form.getAttribute("data-need") || "0", 10);
    var n = checked(form).length;
    var out = $(".discard-total", form);
    if (out) { out.textContent = String(n); }
    var button = $(".discard-confirm", form);
    if (button) { button.disabled = n !== need; }
  }

  function refreshForms() {
    $$(".pay-form").forEach(refreshPay);
    $$(".discard-form").forEach(refreshDiscard);
  }

  root.addEventListener("change", function (evt) {
    var form = evt.target.closest && evt.target.closest("form");
    if (!form) { return; }
    if (form.classList.contains("pay-form")) { refreshPay(form); }
    if (form.classList.contains("discard-form")) { refreshDiscard(form); }
  });

  // Confirm prompts run in the capture phase, before htmx's submit handler on the form.
  document.addEventListener("submit", function (evt) {
    var form = evt.target;
    var question = form.getAttribute && form.getAttribute("data-confirm");
    if (question && !window.confirm(question)) {
      evt.preventDefault();
      evt.stopImmediatePropagation();
    }
  }, true);

  // The server's clock minus this browser's: the page says when the server rendered it
  // (data-now on the version input, epoch seconds), compared with when its first byte arrived
  // here. A device whose clock is off still counts down to the server's deadlines.
  var skew = (function () {
    var input = document.getElementById("table-version");
    var at = input ? parseFloat(input.getAttribute("data-now")) : NaN;
    if (isNaN(at)) { return 0; }
    var nav = window.performance && performance.getEntriesByType ?
      performance.getEntriesByType("navigation")[0] : null;
    var since = nav && nav.responseStart ? Math.max(0, performance.now() - nav.responseStart) : 0;
    return at * 1000 - (Date.now() - since);
  })();

  // --- clocks: every <time data-deadline> counts down to its ISO deadline -----------------
  function tick() {
    var now = Date.now() + skew;
    $$("time[data-deadline]").forEach(function (el) {
      var left = Math.max(0, Math.round((Date.parse(el.getAttribute("data-deadline")) - now) / 1000));
      var text = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
      if (el.textContent !== text) { el.textContent = text; }
      el.classList.toggle("low", left <= 10);
    });
  }
  setInterval(tick, 1000);

  // --- connection -------------------------------------------------------------------------
  var status = document.getElementById("connection");
  function setStatus(state, text) {
    if (!status) { return; }
    status.setAttribute("data-state", state);
    status.textContent = text;
  }
  // The page starts "first-connect" (the template): until the first socket opens, or for a
  // second if it is slower, "Connecting…" is not drawn (a phone's amber pill, a desktop's grey
  // line), so a normal load shows no alarm. Once it has opened, a lost connection shows at once.
  // The words change as ever (read out either way).
  var FIRST_CONNECT_GRACE_MS = 1000;
  function firstConnectOver() { if (status) { status.classList.remove("first-connect"); } }
  setTimeout(firstConnectOver, FIRST_CONNECT_GRACE_MS);
  var retries = 0;
  document.body.addEventListener("htmx:wsOpen", function () {
    retries = 0;
    firstConnectOver();
    setStatus("open", "Connected");
  });
  document.body.addEventListener("htmx:wsClose", function (evt) {
    var code = evt.detail && evt.detail.event ? evt.detail.event.code : 0;
    if (code === 4404) { setStatus("closed", "This table no longer exists."); return; }
    setStatus("connecting", "Reconnecting…");
    // The extension itself retries 1006/1011/1012/1013; retry the others (a server restart
    // may close with 1001) with a capped backoff.
    if ([1006, 1011, 1012, 1013].indexOf(code) < 0 && evt.detail && evt.detail.socketWrapper) {
      var wrapper = evt.detail.socketWrapper;
      var delay = Math.min(10000, 500 * Math.pow(2, retries++));
      setTimeout(function () { wrapper.reconnect(); }, delay);
    }
  });
  document.body.addEventListener("htmx:wsError", function () {
    setStatus("connecting", "Connection trouble; retrying…");
  });

  // --- opponents: collapsed summaries on phones, open on wide screens; your taps are kept ---
  // Every seat's panel is one <details class="seat"> (the same HTML for every viewer); the
  // viewer's own (class "me", markMe) is their board, always open.
  var chosen = {};  // seat -> true/false, what this browser last chose for that opponent
  var applying = false;
  function applyOpen() {
    applying = true;
    $$("details.seat").forEach(function (d) {
      var seat = d.getAttribute("data-seat");
      var want = d.classList.contains("me") ||
        (Object.prototype.hasOwnProperty.call(chosen, seat) ? chosen[seat] : !!(wide && wide.matches));
      if (d.open !== want) { d.open = want; }
    });
    applying = false;
    root.setAttribute("data-ready", "1");
  }
  root.addEventListener("toggle", function (evt) {
    var d = evt.target;
    if (applying || !d.classList || !d.classList.contains("seat")) { return; }
    if (d.classList.contains("me")) { if (!d.open) { d.open = true; } return; }
    chosen[d.getAttribute("data-seat")] = d.open;
  }, true);
  if (wide && wide.addEventListener) {
    wide.addEventListener("change", function () { chosen = {}; applyOpen(); });
  }

  // --- what survives a push: focus, scroll, half-made choices -----------------------------
  // The log's lines every viewer shares, and the seat's own beside them (#log-mine).
  var LINES = "#log li[data-k], #log-mine li[data-k]";

  function snapshot() {
    var active = document.activeElement;
    var snap = {
      focusId: active && active !== document.body && root.contains(active) ? active.id : null,
      focusZone: null, scroll: {}, selects: {}, ticks: {}, typed: {}, rects: {},
      decision: !!$("#decision.active"), myTurn: myTurn(),
      complete: {}, result: !!$("#result"), approach: !!$(".final-approach"),
      lines: {}
    };
    if (active && root.contains(active)) {
      var zone = active.closest("#hand, #decision, #deals, #players, #status, #log, #lobby");
      snap.focusZone = zone ? zone.id : null;
    }
    $$(".hand-scroll, .game-log-wrap, .chat-log").forEach(function (el) {
      snap.scroll[el.className.split(" ")[0]] = [el.scrollLeft, el.scrollTop];
    });
    $$("#hand select, #players select").forEach(function (s) { if (s.id) { snap.selects[s.id] = s.value; } });
    $$(".pay-form input[name=cards], .discard-form input[name=cards]").forEach(function (b) {
      if (b.checked) { snap.ticks[b.value] = true; }
    });
    // A name half typed in the lobby (the host's invite form) outlives a push of the lobby.
    $$(TYPED).forEach(function (i) {
      if (i.id && i.value !== i.defaultValue) {
        snap.typed[i.id] = { value: i.value, start: i.selectionStart, end: i.selectionEnd };
      }
    });
    if (!calm()) {
      $$("#hand [data-card-id], #players [data-card-id], #status .discard [data-card-id]").forEach(function (el) {
        var id = el.getAttribute("data-card-id");
        if (snap.rects[id]) { return; }
        var r = el.getBoundingClientRect();
        if (r.width && r.height) { snap.rects[id] = r; }
      });
    }
    $$(".zone.complete").forEach(function (z) { snap.complete[z.id] = true; });
    $$(LINES).forEach(function (li) { snap.lines[li.getAttribute("data-k")] = true; });
    return snap;
  }

  var TYPED = "#lobby input[id]:not([type]), #lobby input[id][type=text], #lobby input[id][type=search]";

  function firstControl(el) {
    return el && el.querySelector("button:not([disabled]), select, input:not([type=hidden]), summary, [tabindex='0']");
  }

  function restore(snap) {
    Object.keys(snap.scroll).forEach(function (cls) {
      var el = $("." + cls);
      if (el) { el.scrollLeft = snap.scroll[cls][0]; el.scrollTop = snap.scroll[cls][1]; }
    });
    Object.keys(snap.selects).forEach(function (id) {
      var s = document.getElementById(id);
      if (s && s.tagName === "SELECT" && s.querySelector("option[value='" + CSS.escape(snap.selects[id]) + "']")) {
        s.value = snap.selects[id];
      }
    });
    $$(".pay-form input[name=cards], .discard-form input[name=cards]").forEach(function (b) {
      if (snap.ticks[b.value]) { b.checked = true; }
    });
    Object.keys(snap.typed).forEach(function (id) {
      var i = document.getElementById(id);
      if (i && i.matches(TYPED) && i.value === i.defaultValue) { i.value = snap.typed[id].value; }
    });
    var decision = $("#decision.active");
    var lost = !document.activeElement || document.activeElement === document.body || !document.activeElement.isConnected;
    if (decision && !snap.decision) {
      // A decision just arrived: bring it into view, and bring keyboard focus to it if focus was
      // on the board (never out of the chat box).
      if (lost || (snap.focusZone && snap.focusZone !== "log" && snap.focusZone !== "lobby")) {
        var c = firstControl(decision);
        if (c) { c.focus({ preventScroll: true }); lost = false; }
      }
      decision.scrollIntoView({ block: "nearest", behavior: calm() ? "auto" : "smooth" });
    }
    if (lost && snap.focusId) {
      var again = document.getElementById(snap.focusId);
      var zone = snap.focusZone && document.getElementById(snap.focusZone);
      var target = again || firstControl(zone) || document.getElementById("end-turn") || firstControl($("#hand"));
      if (target) { target.focus({ preventScroll: !!again }); }
      var caret = again && snap.typed[snap.focusId];
      if (caret && caret.start !== null) { again.setSelectionRange(caret.start, caret.end); }
    }
  }

  // FLIP: each card that moved glides from where it was; a card that arrived grows in.
  var gliding = [];  // the glides still running, stopped at their end if motion is turned off
  function still() {
    gliding.forEach(function (a) { a.finish(); });
    gliding = [];
  }
  if (reduced && reduced.addEventListener) {
    reduced.addEventListener("change", function () { if (calm()) { still(); } });
  }
  function moved(anim) {
    gliding.push(anim);
    anim.onfinish = anim.oncancel = function () {
      gliding = gliding.filter(function (a) { return a !== anim; });
    };
  }
  function glide(snap) {
    if (calm()) { still(); }
    if (calm() || !Element.prototype.animate) { return; }
    var seen = {};
    $$("#hand [data-card-id], #players [data-card-id], #status .discard [data-card-id]").forEach(function (el) {
      var id = el.getAttribute("data-card-id");
      if (seen[id]) { return; }
      seen[id] = true;
      var now = el.getBoundingClientRect();
      if (!now.width || !now.height) { return; }
      var was = snap.rects[id];
      if (was) {
        var dx = was.left - now.left, dy = was.top - now.top;
        if (Math.abs(dx) < 2 && Math.abs(dy) < 2) { return; }
        moved(el.animate([{ transform: "translate(" + dx + "px," + dy + "px)", zIndex: 10 },
                          { transform: "none", zIndex: 10 }],
                         { duration: 380, easing: "cubic-bezier(.2,.8,.2,1)" }));
      } else if (Object.keys(snap.rects).length) {
        moved(el.animate([{ transform: "scale(.6)", opacity: 0 }, { transform: "none", opacity: 1 }],
                         { duration: 260, easing: "ease-out" }));
      }
    });
  }

  // --- announcements (a persistent live region: the partials are replaced on every push) ---
  var announcer = document.getElementById("announcer");
  function announce(text) {
    if (!announcer || !text) { return; }
    var p = document.createElement("p");
    p.textContent = text;
    announcer.appendChild(p);
    while (announcer.childNodes.length > 6) { announcer.removeChild(announcer.firstChild); }
  }

  // --- sounds: synthesised with WebAudio, no files; off switch remembered per browser ------
  var SOUND_KEY = "chudopoly.sound";
  var soundButton = document.getElementById("sound-toggle");
  var audio = null;
  function soundOn() {
    try { return window.localStorage.getItem(SOUND_KEY) !== "off"; } catch (e) { return true; }
  }
  function showSound() {
    if (!soundButton) { return; }
    var on = soundOn();
    soundButton.hidden = false;
    soundButton.setAttribute("aria-pressed", on ? "true" : "false");
    soundButton.textContent = on ? "Sound on" : "Sound off";
  }
  if (soundButton) {
    soundButton.addEventListener("click", function () {
      try { window.localStorage.setItem(SOUND_KEY, soundOn() ? "off" : "on"); } catch (e) { /* private mode */ }
      showSound();
      if (soundOn()) { unlock(); play("card"); }
    });
    showSound();
  }
  // Browsers allow audio only after a gesture: the first tap or key press creates the context.
  function unlock() {
    if (audio || !soundOn()) { return; }
    var AC = window.AudioContext || window.webkitAudioContext;
    if (AC) { try { audio = new AC(); } catch (e) { audio = null; } }
  }
  document.addEventListener("pointerdown", unlock, true);
  document.addEventListener("keydown", unlock, true);
  function tone(freq, at, dur, type, gain) {
    var o = audio.createOscillator();
    var g = audio.createGain();
    var t = audio.currentTime + at;
    o.type = type || "sine";
    o.frequency.setValueAtTime(freq, t);
    g.gain.setValueAtTime(0.0001, t);
    g.gain.exponentialRampToValueAtTime(gain || 0.07, t + 0.012);
    g.gain.exponentialRampToValueAtTime(0.0001, t + dur);
    o.connect(g);
    g.connect(audio.destination);
    o.start(t);
    o.stop(t + dur + 0.03);
  }
  var SOUNDS = {
    card: function () { tone(700, 0, 0.07, "triangle", 0.04); },
    turn: function () { tone(523, 0, 0.14, "sine"); tone(784, 0.13, 0.22, "sine"); },
    alert: function () { tone(466, 0, 0.12, "square", 0.035); tone(466, 0.18, 0.14, "square", 0.035); },
    set: function () { [523, 659, 784, 1047].forEach(function (f, i) { tone(f, i * 0.08, 0.2, "triangle", 0.06); }); },
    approach: function () { tone(880, 0, 0.18, "sawtooth", 0.03); tone(660, 0.2, 0.18, "sawtooth", 0.03); tone(880, 0.4, 0.25, "sawtooth", 0.03); },
    win: function () { [523, 659, 784, 1047, 1319].forEach(function (f, i) { tone(f, i * 0.11, 0.3, "triangle", 0.07); }); },
    lose: function () { [392, 330, 262].forEach(function (f, i) { tone(f, i * 0.16, 0.3, "sine", 0.06); }); },
    // A game's log line may ask for its own sound (data-sound): Boardroom's new branch.
    branch: function () { tone(988, 0, 0.09, "square", 0.03); tone(1319, 0.09, 0.09, "square", 0.03); tone(1760, 0.18, 0.3, "triangle", 0.05); }
  };
  function play(name) {
    if (!audio || !soundOn() || !SOUNDS[name]) { return; }
    try {
      if (audio.state === "suspended") { audio.resume(); }
      SOUNDS[name]();
    } catch (e) { /* sound is a nicety */ }
  }

  // A set completed by a push hops once (site.css .just-completed). The class comes off when
  // its animation ends or is cancelled, or at once if none started (a zone in a closed panel
  // is not rendered): left on, it lingered until a later push happened to replace the zone, so
  // the live page differed from a fresh load of the same table.
  function celebrate(z) {
    function done(evt) {
      if (evt && evt.target !== z) { return; }  // a card's own animation, bubbled up
      z.classList.remove("just-completed");
      z.removeEventListener("animationend", done);
      z.removeEventListener("animationcancel", done);
    }
    z.addEventListener("animationend", done);
    z.addEventListener("animationcancel", done);
    z.classList.add("just-completed");
    if (z.getAnimations && !z.getAnimations().length) { done(); }
  }

  // --- after every push --------------------------------------------------------------------
  function react(snap) {
    var fresh = $$(LINES).filter(function (li) { return !snap.lines[li.getAttribute("data-k")]; });
    if (Object.keys(snap.lines).length || fresh.length < 6) {
      fresh.slice().reverse().forEach(function (li) {
        var t = li.querySelector(".log-text") || li;
        // The words shown: a line names each seat's own part for it alone (.you-mark).
        announce(t.innerText);
      });
    }
    var completed = $$(".zone.complete").filter(function (z) { return !snap.complete[z.id]; });
    if (!calm()) { completed.forEach(celebrate); }
    var decision = $("#decision.active");
    if (decision && !snap.decision) {
      var title = $("#decision-heading");
      var pending = $("#pending-text");
      announce((title ? title.textContent + ". " : "") + (pending ? pending.textContent : ""));
    }
    var result = $("#result");
    var sound = null;
    var named = !Object.keys(snap.lines).length ? [] : fresh.filter(function (li) { return SOUNDS[li.getAttribute("data-sound")]; });
    if (result && !snap.result) { sound = iWon(result) ? "win" : "lose"; }
    else if (named.length) { sound = named[0].getAttribute("data-sound"); }
    else if ($(".final-approach") && !snap.approach) { sound = "approach"; }
    else if (completed.length) { sound = "set"; }
    else if (decision && !snap.decision) { sound = "alert"; }
    else if (myTurn() && !snap.myTurn) { sound = "turn"; }
    else if (fresh.length) { sound = "card"; }
    if (sound) { play(sound); }
  }

  // --- the viewer's own seat ---------------------------------------------------------------
  // A game's players panel reads alike for every seat (it is rendered once for all of them):
  // the seat marker says whose screen it is (#table-me's data-me, before every board's root)
  // and CSS marks that seat's look and its "You" (static/css/site.css). Its panel is also given
  // the class "me" here, after every push, for what table.js does with it (Chudopoly's own
  // board stays open) and whatever else looks it up.
  function mySeat() {
    var holder = $("[data-me]");
    return holder ? holder.getAttribute("data-me") : null;
  }
  // Whether this seat is to move: a board game's decision panel, its own, says so (my-turn);
  // Chudopoly's status, the same for every seat, names whose turn it is (data-turn).
  function myTurn() {
    var me = mySeat();
    return !!($("#decision.my-turn") || (me !== null && $('#status[data-turn="' + me + '"]')));
  }
  // Whether this seat won: a board game's result, its own, says so (i-won); Chudopoly's, the
  // same for every seat, names who placed first (data-first).
  function iWon(result) {
    var me = mySeat();
    return result.classList.contains("i-won") ||
      (me !== null && result.getAttribute("data-first") === me);
  }
  function markMe() {
    var me = mySeat();
    $$("#players li[data-seat], #players details[data-seat]").forEach(function (panel) {
      panel.classList.toggle("me", panel.getAttribute("data-seat") === me);
    });
  }

  // --- a board game's decision bar on a narrow screen ---------------------------------------
  // The bar is fixed to the window's foot and as tall as what it holds; the card of a tile the
  // decision is about rides on top of it (site.css), at --decision-bar. Pushes replace the
  // decision, and a panel opened in it (a trade) changes its height: both are watched.
  var barWatch = window.ResizeObserver ? new ResizeObserver(measureBar) : null;
  var watchedBar = null;
  function measureBar() {
    if (!$(".square-board")) { return; }
    var bar = $(".decision-dock") || $("#decision");
    if (!bar) { return; }
    if (barWatch && bar !== watchedBar) {
      if (watchedBar) { barWatch.unobserve(watchedBar); }
      barWatch.observe(bar);
      watchedBar = bar;
    }
    root.style.setProperty("--decision-bar", bar.getBoundingClientRect().height + "px");
    // The whole card, opened at one decision, shuts with it: the next one opens condensed.
    var inspect = $("#inspect");
    var focus = $("#decision.active") && inspect ? inspect.getAttribute("data-focus") : null;
    if (focus !== cardFocus) { showWholeCard(false); }
    cardFocus = focus;
  }
  var cardFocus = null;

  // Riding on the bar the tile's card is condensed (site.css); "Full card" opens it whole.
  // The choice lives on the root, which no push replaces.
  function showWholeCard(whole) {
    root.classList.toggle("card-full", whole);
    var more = document.getElementById("card-more");
    if (more) {
      more.setAttribute("aria-expanded", whole ? "true" : "false");
      more.textContent = whole ? "Less" : "Full card";
    }
  }
  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("#card-more")) {
      showWholeCard(!root.classList.contains("card-full"));
      measureBar();
    }
  });

  var pending = null;
  var errorTimer = null;
  document.body.addEventListener("htmx:wsBeforeMessage", function () { pending = snapshot(); });
  document.body.addEventListener("htmx:wsAfterMessage", function () {
    var snap = pending || snapshot();
    pending = null;
    markMe();
    applyOpen();
    refreshForms();
    restore(snap);
    refreshForms();
    glide(snap);
    react(snap);
    tick();
    measureBar();
    var box = document.getElementById("frame-error");
    if (box && box.textContent.trim()) {
      clearTimeout(errorTimer);
      errorTimer = setTimeout(function () { box.textContent = ""; }, 6000);
    }
  });

  // --- a press survives a push ------------------------------------------------------------
  // A push that replaced the panel under a pressed button (another seat moved while this
  // player's finger was down) would swap the button for a copy between press and release, and
  // the browser sends the click to neither: the tap does nothing. So while a button that sends
  // a move is pressed, the swaps of the region holding it, and of the version and decision
  // token the move goes with, wait until the tap has been handled. The move then goes out
  // from what the player saw; the server applies it if this seat's own decision has not
  // changed meanwhile, and says why not if it has.
  var TOKENS = { "table-version": true, "table-decision": true };
  var pressed = null;   // the move's button under a pointer that is down
  var waiting = {};     // id -> the newest swap held back for it
  var letGo = null;
  root.addEventListener("pointerdown", function (evt) {
    var button = evt.target.closest && evt.target.closest("button");
    pressed = button && button.form && button.form.hasAttribute("ws-send") ? button : null;
  }, true);
  document.body.addEventListener("htmx:oobBeforeSwap", function (evt) {
    var target = evt.detail.target;
    // Only a swap of the whole element by its id (hx-swap-oob="true") is held: what comes in
    // later is then that element, whole and newest.
    var fresh = evt.detail.fragment && evt.detail.fragment.firstElementChild;
    if (!pressed || !fresh || !target.id || fresh.id !== target.id) { return; }
    if (!TOKENS[target.id] && !target.contains(pressed)) { return; }
    evt.detail.shouldSwap = false;
    waiting[target.id] = fresh;
  });
  function release() {
    clearTimeout(letGo);
    pressed = null;
    var ids = Object.keys(waiting);
    if (!ids.length) { return; }
    var held = waiting;
    waiting = {};
    // The page's after-push work (focus, half-made choices, announcements) runs as for a push.
    document.body.dispatchEvent(new CustomEvent("htmx:wsBeforeMessage"));
    ids.forEach(function (id) {
      var old = document.getElementById(id);
      if (!old) { return; }
      old.replaceWith(held[id]);
      window.htmx.process(held[id]);
    });
    document.body.dispatchEvent(new CustomEvent("htmx:wsAfterMessage"));
  }
  function releaseIn(ms) {
    if (!pressed) { return; }
    clearTimeout(letGo);
    letGo = setTimeout(release, ms);
  }
  // The click (and the move it sends) is handled before a timer set as it starts; a press let
  // go without a click (dragged off the button) lets the swaps through a little later.
  document.addEventListener("click", function () { releaseIn(0); }, true);
  window.addEventListener("pointerup", function () { releaseIn(400); }, true);
  window.addEventListener("pointercancel", function () { releaseIn(0); }, true);

  // --- a refusal beside the control that sent the move ------------------------------------
  // The server answers a refused move with one sentence in #frame-error, at the top of the
  // page and often out of sight. It is moved beside the form whose button sent the move, in
  // an element screen readers announce (role="alert"), and stays until that form is edited
  // or sends again. A form the answer's push replaced leaves the sentence at the top.
  var sentFrom = null;
  var answered = false;
  document.body.addEventListener("htmx:wsConfigSend", function (evt) {
    var form = evt.target && evt.target.closest ? evt.target.closest("form") : null;
    sentFrom = form && root.contains(form) ? form : null;
    answered = false;
    if (sentFrom) { clearRefusal(sentFrom); }
  });
  document.body.addEventListener("htmx:oobAfterSwap", function (evt) {
    if (evt.detail && evt.detail.target && evt.detail.target.id === "frame-error") { answered = true; }
  });
  function clearRefusal(form) {
    $$(".form-refusal", form).forEach(function (el) { el.remove(); });
  }
  document.body.addEventListener("htmx:wsAfterMessage", function () {
    var box = document.getElementById("frame-error");
    if (!answered || !box || !sentFrom) { return; }
    var form = sentFrom;
    var message = box.textContent.trim();
    sentFrom = null;
    answered = false;
    if (box.getAttribute("data-code") === "ok" || !message || !form.isConnected) { return; }
    var line = document.createElement("p");
    line.className = "form-refusal";
    line.setAttribute("role", "alert");
    line.textContent = message;
    form.appendChild(line);
    box.textContent = "";
  });
  root.addEventListener("input", function (evt) {
    var form = evt.target.closest && evt.target.closest("form");
    if (form) { clearRefusal(form); }
  });

  // --- the site's menu: on a phone the header's navigation folds behind a button -----------
  var menu = document.querySelector(".site-header .nav-menu");
  var menuNav = menu && document.querySelector(".site-header nav");
  if (menuNav) { menuNav.id = menuNav.id || "site-nav"; menu.setAttribute("aria-controls", menuNav.id); }
  function menuOpen() { return !!menu && menu.getAttribute("aria-expanded") === "true"; }
  function setMenu(open) { if (menu) { menu.setAttribute("aria-expanded", open ? "true" : "false"); } }
  if (menu && menuNav) {
    menu.addEventListener("click", function () { setMenu(!menuOpen()); });
    // A tap anywhere else folds it again, as focus leaving it by Tab does.
    document.addEventListener("click", function (evt) {
      if (menuOpen() && !menu.contains(evt.target) && !menuNav.contains(evt.target)) { setMenu(false); }
    });
    menuNav.addEventListener("focusout", function (evt) {
      if (menuOpen() && evt.relatedTarget && !menuNav.contains(evt.relatedTarget) &&
          evt.relatedTarget !== menu) { setMenu(false); }
    });
  }

  // --- keyboard: Escape closes what is open -------------------------------------------------
  document.addEventListener("keydown", function (evt) {
    if (evt.key !== "Escape") { return; }
    if (menuOpen()) { setMenu(false); menu.focus(); evt.preventDefault(); return; }
    var active = document.activeElement;
    var open = active && active.closest && active.closest("details.seat[open]:not(.me)");
    if (open) {
      open.open = false;
      var summary = open.querySelector("summary");
      if (summary) { summary.focus(); }
      evt.preventDefault();
      return;
    }
    var box = document.getElementById("frame-error");
    if (box && box.textContent.trim()) { box.textContent = ""; evt.preventDefault(); return; }
    var form = active && active.closest && active.closest(".pay-form, .discard-form");
    if (form) {
      $$("input[name=cards]", form).forEach(function (b) { b.checked = false; });
      refreshForms();
      evt.preventDefault();
    }
  });

  // Auto move (templates/games/_auto_move.html): while it is on the dice glow, and tapping
  // them turns it off, as the toggle in the decision panel (the keyboard's way) does.
  root.addEventListener("click", function (evt) {
    var dice = evt.target.closest && evt.target.closest("#dice");
    var toggle = dice && $("#auto-move.on");
    if (toggle) { toggle.click(); }
  });

  markMe();
  applyOpen();
  refreshForms();
  tick();
  measureBar();
})();
