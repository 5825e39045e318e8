// Boardroom's board on the table page (the platform's table.js does the socket, clocks,
// focus and sounds). Here: tap or click a tile (or Enter/Space on it) to show its card in the
// centre, turn the card over for its rent table on a phone, walk the tokens tile by tile to
// where a push put them (reduced motion: they jump), and the portfolio's "To auction…" and
// "Sell to a rival…" buttons that open the Trade panel on that tile. Every push replaces the
// board, so what the player chose (the tile, the card's side) is kept here and put back.
(function () {
  "use strict";
  var chosen = null;
  // What the server showed when the player chose a tile ("lot:12", "buy:5", "token:7"): a
  // push that brings a new decision about a tile (a lot, an offer, a tile to buy) shows that
  // tile instead of the player's choice, so a bidder always sees what the bid is for.
  var chosenOver = null;
  var flipped = false;
  var reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)");
  var STEP_MS = 110;
  var WALK_MS_MAX = 1600;

  function show(pos) {
    var tpl = document.getElementById("tile-card-" + pos);
    var box = document.getElementById("inspect");
    if (!tpl || !box) { return; }
    box.innerHTML = "";
    box.appendChild(tpl.content.cloneNode(true));
    document.querySelectorAll(".br-tile.inspected").forEach(function (el) {
      el.classList.remove("inspected");
    });
    var tile = document.querySelector('.br-tile[data-tile="' + pos + '"]');
    if (tile) { tile.classList.add("inspected"); }
    if (flipped) { turn(box.querySelector(".br-card"), true, false); }
  }

  function turn(card, over, moveFocus) {
    if (!card || !card.querySelector(".br-card-back")) { return; }
    card.classList.toggle("flipped", over);
    var button = card.querySelector(".br-flip");
    if (button) { button.setAttribute("aria-expanded", over ? "true" : "false"); }
    if (moveFocus) {
      var target = card.querySelector(over ? ".br-unflip" : ".br-flip");
      if (target) { target.focus(); }
    }
  }

  function serverFocus() {
    var box = document.getElementById("inspect");
    return box ? box.getAttribute("data-focus") || "" : "";
  }

  function keepChoice() {
    var now = serverFocus();
    if (chosen !== null && now !== chosenOver && now.indexOf("token:") !== 0) {
      // The push may have sent only the box's new attributes (its card unchanged on the
      // server), so the server's tile is put back here, unmarked on the board.
      chosen = null;
      flipped = false;
      show(now.split(":")[1]);
      document.querySelectorAll(".br-tile.inspected").forEach(function (el) {
        el.classList.remove("inspected");
      });
    }
    chosenOver = now;
    return chosen !== null;
  }

  function choose(tile) {
    chosen = tile.getAttribute("data-tile");
    chosenOver = serverFocus();
    flipped = false;
    show(chosen);
    reveal();
  }

  // The card opens in the board's centre, which a tall board can have scrolled out of sight
  // (a bottom-row tile clicked at 1440×900): bring it into view, or the click seems to do
  // nothing. Only on the player's own choice, never on a push.
  function reveal() {
    var card = document.querySelector("#inspect > *");
    if (card && card.scrollIntoView) { card.scrollIntoView({ block: "nearest" }); }
  }

  // --- the Trade panel: one form shown per kind (a rival, or a tile to auction) -----------
  // Each rival (each tile for an auction) has its form; a picker above them shows the one
  // chosen. The picker's value survives pushes (table.js keeps selects), so this re-applies.
  var picked = {};
  function applyPicks() {
    document.querySelectorAll("select.br-pick").forEach(function (select) {
      var want = picked[select.id];
      if (want !== undefined && select.querySelector('option[value="' + want + '"]')) {
        select.value = want;
      }
      var cls = select.getAttribute("data-pick");
      select.closest("section").querySelectorAll("." + cls).forEach(function (f) {
        f.hidden = f.getAttribute("data-pick-value") !== select.value;
      });
    });
  }

  function pick(id, value) {
    var select = document.getElementById(id);
    if (select) { picked[id] = String(value); applyPicks(); }
  }

  // --- the Trade panel, opened on a tile from the portfolio --------------------------------
  function openTrade(kind, pos) {
    var trade = document.getElementById("trade");
    if (!trade) { return; }
    trade.open = true;
    var form = null;
    if (kind === "lot") {
      pick("pick-lot", pos);
      form = trade.querySelector('.lot-form[data-tile="' + pos + '"]');
    } else {
      var shown = trade.querySelector(".sell-form:not([hidden])");
      var forms = shown ? [shown] : [];
      trade.querySelectorAll(".sell-form").forEach(function (f) { forms.push(f); });
      forms.forEach(function (f) {
        var select = f.querySelector('select[name="give"]');
        if (!form && select && select.querySelector('option[value="' + pos + '"]')) {
          pick("pick-sell", f.getAttribute("data-to"));
          select.value = String(pos);
          bounds(f);
          form = f;
        }
      });
    }
    if (!form) { return; }
    form.scrollIntoView({block: "center", behavior: reduced && reduced.matches ? "auto" : "smooth"});
    var field = form.querySelector("input[type=range], input[type=number]");
    if (field) { field.focus({preventScroll: true}); }
  }

  // Each bound beside a cash field follows the tiles chosen (the server prints the first
  // tiles' bounds): a sale asks at least what the bank pays for that tile and, after a
  // refusal of it, at most what the rival must now be spared (the option's data-min and
  // data-max); a swap offers some cash when no tile of yours goes with it and, after a
  // refusal of the same tiles, more than before (the form's data-refused, "take:give").
  function bounds(form) {
    var cash = form.querySelector('input[name="cash"]');
    if (!cash) { return; }
    var give = form.querySelector('select[name="give"]');
    var min, max = null, why = "";
    if (form.classList.contains("sell-form")) {
      var option = give && give.options[give.selectedIndex];
      if (!option) { return; }
      min = Number(option.getAttribute("data-min"));
      max = Number(option.getAttribute("data-max"));
      var theirs = Number(cash.getAttribute("data-their-cash"));
      text(form, ".sell-min", min);
      text(form, ".sell-max", max);
      text(form, ".sell-max-why", max < theirs ? "they refused more" : "all they have");
      cash.max = max;
    } else {
      var take = form.querySelector('select[name="take"]');
      var refused = JSON.parse(form.getAttribute("data-refused") || "{}");
      var mine = give ? give.value : "";
      var beat = refused[(take ? take.value : "") + ":" + mine] || 0;
      min = Math.max(mine === "" ? 1 : 0, beat);
      why = beat ? ": they refused these tiles for less" : (mine === "" ? ": with no tile of yours, offer some cash" : "");
      text(form, ".swap-min", min);
      text(form, ".swap-why", why);
    }
    cash.min = min;
    if (cash.value === "" || Number(cash.value) < min) { cash.value = min; }
    if (max !== null && Number(cash.value) > max) { cash.value = max; }
    preview(form);
  }

  // The offer as the rival will read it, kept in step with the fields: the server gives the
  // sentence with "{give}" and "{get}" in it (the one form of every trade); here they are
  // filled with the chosen tiles' names and the cash.
  function preview(form) {
    var out = form.querySelector(".trade-preview");
    var sentence = form.getAttribute("data-sentence");
    var cash = form.querySelector('input[name="cash"]');
    if (!out || !sentence || !cash) { return; }
    var money = Number(cash.value) > 0 ? Number(cash.value) + " in cash" : "";
    var give = named(form, "give");
    var gives, gets;
    if (form.classList.contains("sell-form")) {
      gives = give;
      gets = money || "nothing";
    } else {
      gives = [give, money].filter(Boolean).join(" and ") || "nothing";
      gets = named(form, "take");
    }
    text(form, ".trade-preview", sentence.replace("{give}", gives).replace("{get}", gets));
  }

  function named(form, field) {
    var select = form.querySelector('select[name="' + field + '"]');
    var option = select && select.options[select.selectedIndex];
    return option ? option.getAttribute("data-name") || "" : "";
  }

  function text(form, selector, value) {
    var el = form.querySelector(selector);
    if (el && el.textContent !== String(value)) { el.textContent = value; }
  }

  function allBounds() {
    document.querySelectorAll(".sell-form, .swap-form").forEach(bounds);
  }

  document.addEventListener("click", function (evt) {
    var t = evt.target;
    if (!t.closest) { return; }
    var flip = t.closest(".br-flip, .br-unflip");
    if (flip) {
      flipped = flip.classList.contains("br-flip");
      turn(flip.closest(".br-card"), flipped, true);
      return;
    }
    var trade = t.closest("[data-trade]");
    if (trade) {
      openTrade(trade.getAttribute("data-trade"), trade.getAttribute("data-tile"));
      return;
    }
    var tile = t.closest(".br-tile[data-tile]");
    if (tile) { choose(tile); }
  });
  document.addEventListener("keydown", function (evt) {
    if (evt.key !== "Enter" && evt.key !== " ") { return; }
    var tile = evt.target.closest && evt.target.closest(".br-tile[data-tile]");
    if (!tile) { return; }
    evt.preventDefault();
    choose(tile);
  });
  document.addEventListener("change", function (evt) {
    var form = evt.target.closest && evt.target.closest(".sell-form, .swap-form");
    if (form && evt.target.tagName === "SELECT") { bounds(form); }
    if (evt.target.matches && evt.target.matches("select.br-pick")) {
      picked[evt.target.id] = evt.target.value;
      applyPicks();
    }
  });
  document.addEventListener("input", function (evt) {
    var trading = evt.target.closest && evt.target.closest(".sell-form, .swap-form");
    if (trading && evt.target.name === "cash") { preview(trading); }
    if (evt.target.matches && evt.target.matches('.lot-form input[type="range"]')) {
      var out = evt.target.closest("label").querySelector(".lot-start");
      if (out) { out.textContent = evt.target.value; }
    }
  });

  // --- tokens walking tile by tile ---------------------------------------------------------
  var where = positions();

  function positions() {
    var out = {};
    document.querySelectorAll(".br-tokens .token[data-seat]").forEach(function (el) {
      var tile = el.closest(".br-tile");
      if (tile) { out[el.getAttribute("data-seat")] = Number(tile.getAttribute("data-tile")); }
    });
    return out;
  }

  // The tiles a token passes from `from` to `to`: forward by the dice (or a card), back by a
  // card's three steps; straight to the audit it jumps, as the rules say it goes.
  function path(from, to) {
    var ahead = (to - from + 40) % 40;
    var steps = [];
    if (ahead === 0) { return steps; }
    if (to === 10 && ahead > 12) { return steps; }
    if (40 - ahead <= 3) {
      for (var b = 1; b <= 40 - ahead; b++) { steps.push((from - b + 40) % 40); }
      return steps;
    }
    for (var f = 1; f <= ahead; f++) { steps.push((from + f) % 40); }
    return steps;
  }

  function centre(board, pos) {
    var tile = board.querySelector('.br-tile[data-tile="' + pos + '"]');
    if (!tile) { return null; }
    var b = board.getBoundingClientRect();
    var r = tile.getBoundingClientRect();
    return [r.left - b.left + r.width / 2, r.top - b.top + r.height / 2];
  }

  function walk(board, token, steps) {
    if (!token.animate || steps.length < 2) { return; }
    var points = steps.map(function (p) { return centre(board, p); });
    if (points.some(function (p) { return !p; })) { return; }
    var end = points[points.length - 1];
    var ghost = token.cloneNode(false);
    ghost.classList.add("br-ghost");
    ghost.removeAttribute("data-seat");
    ghost.style.left = end[0] + "px";
    ghost.style.top = end[1] + "px";
    board.appendChild(ghost);
    token.classList.add("walking");
    var frames = points.map(function (p) {
      return {transform: "translate(" + (p[0] - end[0]) + "px," + (p[1] - end[1]) + "px) translate(-50%,-50%)"};
    });
    var anim = ghost.animate(frames, {duration: Math.min(WALK_MS_MAX, STEP_MS * steps.length), easing: "linear"});
    anim.onfinish = anim.oncancel = function () {
      ghost.remove();
      token.classList.remove("walking");
    };
  }

  function moveTokens() {
    var now = positions();
    var board = document.getElementById("br-board");
    if (board && !(reduced && reduced.matches)) {
      Object.keys(now).forEach(function (seat) {
        if (!(seat in where) || where[seat] === now[seat]) { return; }
        var token = board.querySelector('.br-tokens .token[data-seat="' + seat + '"]');
        if (token) { walk(board, token, [where[seat]].concat(path(where[seat], now[seat]))); }
      });
    }
    where = now;
  }

  applyPicks();
  allBounds();
  document.body.addEventListener("htmx:wsAfterMessage", function () {
    applyPicks();
    allBounds();
    if (keepChoice()) { show(chosen); }
    moveTokens();
  });
  // A replay page steps by swapping its frame, not by socket messages: the tokens walk and the
  // chosen tile's card stays open the same way.
  document.body.addEventListener("htmx:afterSettle", function () {
    if (!document.getElementById("replay-frame")) { return; }
    if (chosen !== null) { show(chosen); }
    moveTokens();
  });
})();
