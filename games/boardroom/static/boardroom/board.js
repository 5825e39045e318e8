// Boardroom's board: tap or click a tile (or Enter/Space on it) to show its card in the centre.
// The card of every tile is rendered on the page (<template id="tile-card-N">); the chosen
// tile is kept across the socket's pushes, which replace the whole board.
(function () {
  "use strict";
  var chosen = null;

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
  }

  document.addEventListener("click", function (evt) {
    var tile = evt.target.closest && evt.target.closest(".br-tile[data-tile]");
    if (!tile) { return; }
    chosen = tile.getAttribute("data-tile");
    show(chosen);
  });
  document.addEventListener("keydown", function (evt) {
    if (evt.key !== "Enter" && evt.key !== " ") { return; }
    var tile = evt.target.closest && evt.target.closest(".br-tile[data-tile]");
    if (!tile) { return; }
    evt.preventDefault();
    chosen = tile.getAttribute("data-tile");
    show(chosen);
  });
  document.body.addEventListener("htmx:wsAfterMessage", function () {
    if (chosen !== null) { show(chosen); }
  });
})();
