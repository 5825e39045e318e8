// Replay: the arrow keys step back and forward (Home and End jump to the ends), by pressing
// the page's own step links, so the URL, the history and the htmx swap stay as a click's.
(function () {
  "use strict";
  var KEYS = {ArrowLeft: "#step-back", ArrowRight: "#step-forward",
              Home: "#step-start", End: "#step-end"};
  document.addEventListener("keydown", function (evt) {
    if (evt.altKey || evt.ctrlKey || evt.metaKey || evt.shiftKey) { return; }
    var target = evt.target;
    if (target && target.closest && target.closest("input, textarea, select, [contenteditable]")) {
      return;
    }
    var selector = KEYS[evt.key];
    var link = selector && document.querySelector(selector);
    if (!link) { return; }
    evt.preventDefault();
    link.click();
  });
})();
