// Copy buttons: <button data-copy="#field"> copies that field's value (or text) and says so.
// A link with data-path shows the whole address (this page's origin + the path), also
// after the table socket swaps the box in again.
(function () {
  "use strict";

  function whole(root) {
    (root || document).querySelectorAll("[data-path]").forEach(function (box) {
      var path = box.getAttribute("data-path");
      if (path && path.charAt(0) === "/") { box.textContent = window.location.origin + path; }
    });
  }

  function said(button, words) {
    var status = button.parentNode.querySelector(".copy-status");
    if (status) { status.textContent = words; }
  }

  document.addEventListener("click", function (evt) {
    var button = evt.target.closest && evt.target.closest("button[data-copy]");
    if (!button) { return; }
    var field = document.querySelector(button.getAttribute("data-copy"));
    if (!field) { return; }
    var text = (field.value !== undefined ? field.value : field.textContent).trim();
    function fallback() {
      // Older browsers and plain-http pages without the clipboard API: select and copy.
      var range = document.createRange();
      range.selectNodeContents(field);
      var selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      var ok = false;
      try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
      said(button, ok ? "Copied." : "Select the link and copy it.");
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { said(button, "Copied."); }, fallback);
    } else {
      fallback();
    }
  });

  document.addEventListener("DOMContentLoaded", function () { whole(document); });
  document.addEventListener("htmx:oobAfterSwap", function (evt) { whole(evt.detail && evt.detail.target); });
  document.addEventListener("htmx:afterSwap", function (evt) { whole(evt.detail && evt.detail.target); });
  whole(document);
})();
