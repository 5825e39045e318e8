// Table page helpers. htmx + its ws extension do the transport; this file only adds what plain
// HTML cannot: running totals for payment/discard forms, confirm prompts, clock countdowns,
// a connection indicator, and reconnecting after closes the ws extension does not retry.
(function () {
  "use strict";
  var root = document.getElementById("table-root");
  if (!root) { return; }

  function checked(form) {
    return Array.prototype.slice.call(form.querySelectorAll("input[name=cards]:checked"));
  }

  function refreshPay(form) {
    var boxes = form.querySelectorAll("input[name=cards]");
    var picked = checked(form);
    var total = picked.reduce(function (sum, box) {
      return sum + parseInt(box.getAttribute("data-value") || "0", 10);
    }, 0);
    var owed = parseInt(form.getAttribute("data-owed") || "0", 10);
    var out = form.querySelector(".pay-total");
    if (out) { out.textContent = String(total); }
    // Legal: covers the debt, or surrenders every payable card (REFERENCE §5).
    var everything = boxes.length > 0 && picked.length === boxes.length;
    var ok = picked.length > 0 && (total >= owed || everything);
    var button = form.querySelector(".pay-confirm");
    if (button) { button.disabled = !ok; }
  }

  function refreshDiscard(form) {
    var need = parseInt(form.getAttribute("data-need") || "0", 10);
    var n = checked(form).length;
    var out = form.querySelector(".discard-total");
    if (out) { out.textContent = String(n); }
    var button = form.querySelector(".discard-confirm");
    if (button) { button.disabled = n !== need; }
  }

  function refreshForms() {
    root.querySelectorAll(".pay-form").forEach(refreshPay);
    root.querySelectorAll(".discard-form").forEach(refreshDiscard);
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

  // Clocks: every <time data-deadline> counts down to its ISO deadline.
  function tick() {
    var now = Date.now() + skew;
    root.querySelectorAll("time[data-deadline]").forEach(function (el) {
      var left = Math.max(0, Math.round((Date.parse(el.getAttribute("data-deadline")) - now) / 1000));
      var text = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
      if (el.textContent !== text) { el.textContent = text; }
      el.classList.toggle("low", left <= 10);
    });
  }
  setInterval(tick, 1000);

  var status = document.getElementById("connection");
  function setStatus(state, text) {
    if (!status) { return; }
    status.setAttribute("data-state", state);
    status.textContent = text;
  }

  var retries = 0;
  document.body.addEventListener("htmx:wsOpen", function () {
    retries = 0;
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

  var errorTimer = null;
  document.body.addEventListener("htmx:wsAfterMessage", function () {
    refreshForms();
    tick();
    var box = document.getElementById("frame-error");
    if (box && box.textContent.trim()) {
      clearTimeout(errorTimer);
      errorTimer = setTimeout(function () { box.textContent = ""; }, 6000);
    }
  });

  refreshForms();
  tick();
})();
