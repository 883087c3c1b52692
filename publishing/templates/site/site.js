// Filter and sort of an edition's ranked list, in plain JavaScript. The list's data comes from
// the <script type="application/json" id="list-data"> element; names and clubs are written
// with textContent only, never as HTML. "Player" sorts by surname (sortName, accents folded).
"use strict";
(function () {
  var source = document.getElementById("list-data");
  var table = document.getElementById("list");
  if (!source || !table) { return; }
  var data = JSON.parse(source.textContent);
  var rows = data.rows;
  var before = data.before || [], after = data.after || [];  // the scheme's own columns
  var clubs = data.clubs || {};  // club name -> its page's name (clubs/<slug>.html)
  var body = table.tBodies[0];
  var club = document.getElementById("filter-club");
  var name = document.getElementById("filter-name");
  var status = document.getElementById("filter-status");
  var count = document.getElementById("row-count");
  var numeric = { rank: true, rating: true, change: true, events: true, eventsYear: true,
                  deviation: true, deals: true, vists_per_deal: true };
  var order = { key: "rank", descending: false };

  function fold(text) {
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }

  function cell(tr, text, className) {
    var td = document.createElement("td");
    td.textContent = text;
    if (className) { td.className = className; }
    tr.appendChild(td);
    return td;
  }

  function render(row) {
    var tr = document.createElement("tr");
    cell(tr, String(row.rank), "num");
    var td = cell(tr, "", "");
    var link = document.createElement("a");
    link.href = "../players/" + Number(row.id) + ".html";
    link.textContent = row.player;
    td.appendChild(link);
    if (row.status === "new") {
      var flag = document.createElement("span");
      flag.className = "flag";
      flag.title = "first edition with this player";
      flag.textContent = "new";
      td.appendChild(document.createTextNode(" "));
      td.appendChild(flag);
    }
    var clubCell = cell(tr, "", "wide");
    if (Object.prototype.hasOwnProperty.call(clubs, row.club)) {
      var clubLink = document.createElement("a");
      clubLink.href = "../clubs/" + encodeURIComponent(clubs[row.club]) + ".html";
      clubLink.textContent = row.club;
      clubCell.appendChild(clubLink);
    } else {
      clubCell.textContent = row.club;
    }
    cell(tr, row.ratingText, "num");
    before.forEach(function (key) { cell(tr, row[key] || "", key === "grade" ? "num" : "num wide"); });
    var change = row.changeText;
    cell(tr, change, "num" + (change.charAt(0) === "+" ? " up" : change.charAt(0) === "-" ? " down" : ""));
    cell(tr, String(row.events), "num");
    cell(tr, String(row.eventsYear), "num wide");
    after.forEach(function (key) { cell(tr, row[key] || "", "num"); });
    var played = cell(tr, row.lastPlayedSlug ? "" : row.lastPlayed, "wide");
    if (row.lastPlayedSlug) {  // a go tournament: its day, linked to its edition
      var playedLink = document.createElement("a");
      playedLink.href = "../" + row.lastPlayedSlug + "/index.html";
      playedLink.textContent = row.lastPlayed;
      played.appendChild(playedLink);
    }
    cell(tr, row.federationId || "", "wide");
    return tr;
  }

  function compare(a, b) {
    var x = a[order.key], y = b[order.key], result;
    if (typeof x === "string" && numeric[order.key]) { x = x === "" ? null : parseFloat(x); }
    if (typeof y === "string" && numeric[order.key]) { y = y === "" ? null : parseFloat(y); }
    if (numeric[order.key]) {
      if (x === null && y === null) { result = 0; }
      else if (x === null) { return 1; }        // players without a change go last
      else if (y === null) { return -1; }
      else { result = x - y; }
    } else {
      result = String(x).localeCompare(String(y));
    }
    if (order.descending) { result = -result; }
    return result || a.rank - b.rank || a.id - b.id;
  }

  function keep(row) {
    if (club.value && row.club !== club.value) { return false; }
    if (status.value && row.status !== status.value) { return false; }
    var wanted = fold(name.value.trim());
    return !wanted || fold(row.player).indexOf(wanted) >= 0;
  }

  function update() {
    var shown = rows.filter(keep).sort(compare);
    var fragment = document.createDocumentFragment();
    shown.forEach(function (row) { fragment.appendChild(render(row)); });
    body.replaceChildren(fragment);
    count.textContent = shown.length + " of " + rows.length + " players";
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th) {
      if (th.dataset.key === order.key) {
        th.setAttribute("aria-sort", order.descending ? "descending" : "ascending");
      } else {
        th.removeAttribute("aria-sort");
      }
    });
  }

  Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th) {
    var button = th.querySelector("button");
    if (!button) { return; }
    button.addEventListener("click", function () {
      var key = th.dataset.key;
      if (order.key === key) { order.descending = !order.descending; }
      // numbers start from the largest (rank from the first), text from A
      else { order = { key: key, descending: numeric[key] && key !== "rank" }; }
      update();
    });
  });
  [club, status].forEach(function (el) { el.addEventListener("change", update); });
  name.addEventListener("input", update);
  document.getElementById("filters").addEventListener("submit", function (e) { e.preventDefault(); });
  update();
})();
