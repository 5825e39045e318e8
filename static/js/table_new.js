// Start-a-table form: choosing a preset fills the Custom fields with that preset's values,
// so "Custom" starts from whatever the player last looked at. Works without it, too.
(function () {
  "use strict";
  var form = document.getElementById("table-form");
  var data = document.getElementById("preset-values");
  var custom = document.getElementById("custom-rules");  // a game with no Custom rules has none
  if (!form || !data || !custom) { return; }
  var presets = JSON.parse(data.textContent);
  var select = form.querySelector("[name=preset]");
  function sync() {
    var values = presets[select.value];
    // The Custom panel is there only when Custom is chosen (CSS does the same without JS).
    custom.hidden = select.value !== "custom";
    if (!values) { return; }
    Object.keys(values).forEach(function (name) {
      var input = form.querySelector("[name='" + name + "']");
      if (!input) { return; }
      if (input.type === "checkbox") { input.checked = !!values[name]; }
      else { input.value = String(values[name]); }
    });
  }
  select.addEventListener("change", sync);
  if (select.value !== "custom") { sync(); } else { custom.hidden = false; }
})();
