// Commonwealth's board: tap or click a space (or Enter/Space on it) to read its card in the
// centre; the chosen space is kept across the socket's pushes, which replace the board.
// Forms marked .cw-compose (a deal offer, a free amount) build their action here, just before
// htmx sends it: each input with data-path="side.field" (or "amount") fills that field of the
// base action in the form's "action" input. Those inputs have no name, so nothing else is sent.
// Half-made choices in the decision panel and the deal forms survive the pushes that replace
// them. The deal forms carry no cash figure (so their partial changes only when what the seat
// can deal changes): each side's cash limit is taken here from the players panel.
(function () {
  "use strict";
  var chosen = null;
  // What the server showed when the player chose a space ("lot:12", "token:7"): a push that
  // opens an auction shows the project on auction instead of the player's choice, so a bidder
  // always sees what the bid is for.
  var chosenOver = null;

  function serverFocus() {
    var box = document.getElementById("inspect");
    return box ? box.getAttribute("data-focus") || "" : "";
  }

  function keepChoice() {
    var now = serverFocus();
    if (chosen !== null && now !== chosenOver && now.indexOf("token:") !== 0) {
      // The push may have sent only the box's new attributes (its card unchanged on the
      // server), so the server's space is put back here, unmarked on the board.
      chosen = null;
      show(now.split(":")[1]);
      document.querySelectorAll(".cw-space.inspected").forEach(function (el) {
        el.classList.remove("inspected");
      });
    }
    chosenOver = now;
    return chosen !== null;
  }

  function show(index) {
    var tpl = document.getElementById("space-card-" + index);
    var box = document.getElementById("inspect");
    if (!tpl || !box) { return; }
    box.innerHTML = "";
    box.appendChild(tpl.content.cloneNode(true));
    document.querySelectorAll(".cw-space.inspected").forEach(function (el) {
      el.classList.remove("inspected");
    });
    var space = document.querySelector('.cw-space[data-space="' + index + '"]');
    if (space) { space.classList.add("inspected"); }
  }

  function pick(evt) {
    var space = evt.target.closest && evt.target.closest(".cw-space[data-space]");
    if (!space) { return; }
    if (evt.type === "keydown") {
      if (evt.key !== "Enter" && evt.key !== " ") { return; }
      evt.preventDefault();
    }
    chosen = space.getAttribute("data-space");
    chosenOver = serverFocus();
    show(chosen);
    reveal();
  }

  // The card opens in the board's centre, which a tall board can have scrolled out of sight
  // (a bottom-row space clicked at 1440×900): bring it into view, or the click seems to do
  // nothing. Only on the player's own pick, never on a push.
  function reveal() {
    var card = document.querySelector("#inspect > *");
    if (card && card.scrollIntoView) { card.scrollIntoView({ block: "nearest" }); }
  }

  function whole(value) {
    var n = parseInt(value, 10);
    return isNaN(n) ? 0 : n;
  }

  function compose(form, base) {
    var action = JSON.parse(base);
    if (action.type === "offer") {
      action.give = { projects: [], cash: 0, jail_card: false };
      action.get = { projects: [], cash: 0, jail_card: false };
    }
    form.querySelectorAll("[data-path]").forEach(function (input) {
      var path = input.getAttribute("data-path").split(".");
      var holder = path.length > 1 ? action[path[0]] : action;
      var field = path[path.length - 1];
      if (input.type === "checkbox") {
        if (field === "projects") {
          if (input.checked) { holder.projects.push(whole(input.value)); }
        } else {
          holder[field] = input.checked;
        }
      } else {
        holder[field] = whole(input.value);
      }
    });
    return JSON.stringify(action);
  }

  // A push replaces the decision panel whenever anything changed (a bot moved), and the deal
  // forms when what the seat can deal changed: what the player had half chosen in them — the
  // open deal panel, ticks, amounts, the card to play — comes back if the same control is
  // still there and the value still fits it.
  var held = null;
  var KEPT = "#decision input[id], #decision select[id], #deals input[id], #deals select[id]";
  function hold() {
    var s = { open: {}, values: {} };
    document.querySelectorAll("#decision details[id], #deals details[id]").forEach(function (d) {
      s.open[d.id] = d.open;
    });
    document.querySelectorAll(KEPT).forEach(function (el) {
      s.values[el.id] = el.type === "checkbox" ? el.checked : el.value;
    });
    return s;
  }
  function fits(el, value) {
    if (el.tagName === "SELECT") {
      return Array.prototype.some.call(el.options, function (o) { return o.value === value; });
    }
    if (el.type !== "number") { return true; }
    var n = Number(value);
    return !isNaN(n) && (el.min === "" || n >= Number(el.min)) && (el.max === "" || n <= Number(el.max));
  }
  function giveBack(s) {
    Object.keys(s.open).forEach(function (id) {
      var d = document.getElementById(id);
      if (d && d.open !== s.open[id]) { d.open = s.open[id]; }
    });
    Object.keys(s.values).forEach(function (id) {
      var el = document.getElementById(id);
      if (!el) { return; }
      if (el.type === "checkbox") { el.checked = s.values[id]; }
      else if (fits(el, s.values[id])) { el.value = s.values[id]; }
    });
  }

  // Each deal form's cash field goes up to what that side may hand over in a deal now, as the
  // players panel shows it (#player-N's data-deal-cash: its cash less the high bid it leads or
  // the GO donation it owes, engine/rules.deal_cash): the limit in the label and the field's max.
  function cashLimits() {
    document.querySelectorAll("#deals [data-cash-of]").forEach(function (el) {
      var seat = el.getAttribute("data-cash-of");
      var cash = document.querySelector("#player-" + seat + " [data-deal-cash]");
      if (!cash) { return; }
      var n = cash.getAttribute("data-deal-cash");
      if (el.tagName === "INPUT") {
        if (el.max !== n) { el.max = n; }
      } else if (el.textContent !== n) {
        el.textContent = n;
      }
    });
  }

  // Each project a deal form lists says how many chips it carries, as the board shows them
  // (#space-N's chips): the forms name no chip count of their own, so that they change only
  // when who manages what changes, not with every chip placed (the seats that only wait are
  // then pushed without a screen: CommonwealthGame.seat_screen_key).
  function chipCounts() {
    document.querySelectorAll("#deals [data-chips-at]").forEach(function (el) {
      var n = document.querySelectorAll(
        "#space-" + el.getAttribute("data-chips-at") + " .cw-chips i:not(.open)").length;
      var words = " (" + n + (n === 1 ? " chip)" : " chips)");
      if (el.textContent !== words) { el.textContent = words; }
    });
  }

  // A deal hands over at least one project or the Pardon card (the engine refuses cash
  // alone): a deal form's button is sendable only once one is ticked, and the line beside
  // it, which says so, is hidden while it is.
  function gate(form) {
    var goods = form.querySelector(
      'input[data-path$=".projects"]:checked, input[data-path$=".jail_card"]:checked');
    var button = form.querySelector("button.offer-deal");
    var why = button ? document.getElementById(button.getAttribute("aria-describedby")) : null;
    if (button) { button.disabled = !goods; }
    if (why) { why.hidden = !!goods; }
  }
  function gateAll() {
    document.querySelectorAll("form.cw-deal-form").forEach(gate);
  }
  document.addEventListener("change", function (evt) {
    var form = evt.target.closest && evt.target.closest("form.cw-deal-form");
    if (form) { gate(form); }
  });

  document.addEventListener("click", pick);
  document.addEventListener("keydown", pick);
  document.body.addEventListener("htmx:wsConfigSend", function (evt) {
    var form = evt.target;
    if (!form.classList || !form.classList.contains("cw-compose")) { return; }
    var base = form.querySelector('input[name="action"]');
    if (base) { evt.detail.parameters.action = compose(form, base.value); }
  });
  document.body.addEventListener("htmx:wsBeforeMessage", function () { held = hold(); });
  document.body.addEventListener("htmx:wsAfterMessage", function () {
    if (keepChoice()) { show(chosen); }
    cashLimits();
    chipCounts();
    if (held) { giveBack(held); held = null; }
    gateAll();
  });
  cashLimits();
  chipCounts();
  gateAll();
})();
