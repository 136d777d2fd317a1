/* The site's only script: the search box, sortable tables, and what is folded opened for the print.
   Every page reads without it.
   Written for reportgen (no library); the sorting follows tofsjonas/sortable's approach (a click on
   a header sorts its table by that column's cells, `data-sort` when a cell gives one). */
(function () {
  "use strict";
  // accents, case and the apostrophe's form aside (’ is what a phone's keyboard types), as the
  // index's keys are made (reportgen/french.py `search_key`)
  function key(text) {
    return text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/[\u2018\u2019\u02bc]/g, "'");
  }
  // 0: the name starts with what is typed, 1: one of its words does (a first name, the second
  // half of a compound name), 2: it is inside a word; the closest first, each in the index's order
  function closeness(name, wanted) {
    if (name.lastIndexOf(wanted, 0) === 0) { return 0; }
    return (" " + name.replace(/[-']/g, " ")).indexOf(" " + wanted) >= 0 ? 1 : 2;
  }

  // A player's name, each word of it with a hyphen a box of its own, on one line while it fits
  // (« Jean-François », not « Jean- » over « François »: site.css `.kept`, as the pages write it,
  // site/lines.py), its text unchanged.
  function named(parent, name) {
    name.split(/(\S+-\S+)/).forEach(function (part, index) {
      if (index % 2) {
        var kept = document.createElement("span");
        kept.className = "kept";
        kept.textContent = part;
        parent.appendChild(kept);
      } else if (part) {
        parent.appendChild(document.createTextNode(part));
      }
    });
  }

  var form = document.querySelector("form.search");
  var entries = window.RECHERCHE || [];
  if (form && entries.length) {
    var input = form.querySelector("input");
    var list = form.querySelector("#resultats");
    var here = document.querySelector('script[src$="site.js"]').getAttribute("src").replace(/site\.js$/, "");
    form.hidden = false;
    // Enter opens the first result, as a search engine's box does; the arrows go through the results
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var first = list.querySelector("a");
      if (first) { window.location.href = first.href; }
    });
    form.addEventListener("keydown", function (event) {
      var links = Array.prototype.slice.call(list.querySelectorAll("a"));
      var at = links.indexOf(document.activeElement);  // -1: the box itself
      // Escape on a result closes the results and goes back to the box, what is typed kept (in the box,
      // the browser's own Escape empties it); the box focused first: a box focused with no results searches again
      if (event.key === "Escape" && at >= 0) {
        event.preventDefault();
        input.focus();
        close();
        return;
      }
      if (event.key !== "ArrowDown" && event.key !== "ArrowUp") { return; }
      if (!links.length || (at === -1 && event.key === "ArrowUp")) { return; }
      event.preventDefault();
      var next = event.key === "ArrowDown" ? Math.min(at + 1, links.length - 1) : at - 1;
      if (next < 0) { input.focus(); } else { links[next].focus(); }
    });
    var status = form.querySelector("#statut");
    function close() {
      list.textContent = "";
      status.textContent = "";
    }
    function search() {
      var wanted = key(input.value.trim());
      close();
      if (wanted.length < 2) { return; }
      var found = [];
      entries.forEach(function (e, index) {
        if (e.k.indexOf(wanted) >= 0) { found.push([closeness(e.k, wanted), index, e]); }
      });
      found.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; });
      found.slice(0, 15).forEach(function (match) {
        var e = match[2];
        var item = document.createElement("li");
        var link = document.createElement("a");
        link.href = here + e.u;
        if (e.t === "joueur") { named(link, e.n); } else { link.textContent = e.n; }
        link.appendChild(document.createTextNode(" (" + e.t + (e.d ? ", " + e.d : "") + ")"));
        item.appendChild(link);
        list.appendChild(item);
      });
      // what a screen reader says (the list itself is not read at each letter typed)
      var count = found.length.toLocaleString("fr-FR");
      status.textContent = found.length === 0 ? "Aucun résultat" : found.length === 1 ? "1 résultat"
        : found.length > 15 ? count + " résultats, les 15 premiers affichés" : count + " résultats";
      if (!found.length) {  // said on the screen too: a search that finds nothing is not one that did not run
        var none = document.createElement("li");
        none.textContent = "Aucun résultat";
        list.appendChild(none);
      }
    }
    input.addEventListener("input", search);
    input.addEventListener("focus", function () {  // back in the box, what it holds is found again
      if (!list.firstChild) { search(); }
    });
    // The results lie over the page: they close on a click or a tap elsewhere (`pointerdown`: a
    // finger's too, where a phone sends no click for a tap on words), and when the focus leaves the
    // search for another element (Tab past the results); not when it goes nowhere (a tap on a
    // result, in a browser that does not focus links, must still reach it)
    document.addEventListener("pointerdown", function (event) {
      if (!form.contains(event.target)) { close(); }
    });
    form.addEventListener("focusout", function (event) {
      if (event.relatedTarget && !form.contains(event.relatedTarget)) { close(); }
    });
  }

  // A table's scroll region is in the Tab order (tabindex="0" in the page: a region that scrolls
  // must be reachable by the keyboard, to scroll it, script or not), but a region whose table fits
  // scrolls nothing: five Tab stops on the home page that did nothing. Each is a stop only while it
  // scrolls, checked again whenever it or its content changes size (a phone turned, the fonts
  // loaded, a table sorted, a <details> opened: ResizeObserver; without it, every region stays a
  // stop). Checked at once too: a region not shown (a closed <details>) is reported only once shown.
  var regions = document.querySelectorAll(".scroll[tabindex]");
  function focusable(region) {
    if (region.scrollWidth > region.clientWidth || region.scrollHeight > region.clientHeight) {
      region.setAttribute("tabindex", "0");
    } else {
      region.removeAttribute("tabindex");
    }
  }
  if (window.ResizeObserver && regions.length) {
    var watched = new ResizeObserver(function (changed) {
      changed.forEach(function (change) { focusable(change.target.closest(".scroll")); });
    });
    Array.prototype.forEach.call(regions, function (region) {
      focusable(region);
      watched.observe(region);
      Array.prototype.forEach.call(region.children, function (child) { watched.observe(child); });
    });
  }

  // Printed, what the page folds for the screen alone is on paper too: a <details> marked
  // `data-print="open"` (the home page's « Tournois passés ») is opened for the print and folded again
  // after, as the reader had it (Chromium cannot open one from CSS); one the reader opened stays open.
  // A chart's data stays folded, and so out of print (site.css): the chart itself is printed.
  var unfolded = [];
  window.addEventListener("beforeprint", function () {
    unfolded = Array.prototype.filter.call(document.querySelectorAll('details[data-print="open"]'),
      function (details) { return !details.open; });
    unfolded.forEach(function (details) { details.open = true; });
  });
  window.addEventListener("afterprint", function () {
    unfolded.forEach(function (details) { details.open = false; });
    unfolded = [];
  });

  function value(cell) {
    var text = cell.getAttribute("data-sort");
    if (text === null) { text = cell.textContent.trim(); }
    var number = parseFloat(text.replace(/[\s\u202f\u00a0]/g, "").replace(",", ".").replace("\u2212", "-"));
    return isNaN(number) || !/^[\s\u2212+\-]?\d/.test(text) ? key(text) : number;
  }

  // The accessible sortable table: a button in each header (Enter and Space press it, a screen
  // reader says it is one), made here so that a page read without the script shows plain headers;
  // `aria-sort` on the column the table is sorted by (the template gives the order it comes in)
  Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), function (table) {
    var headers = table.querySelectorAll("thead th");
    Array.prototype.forEach.call(headers, function (header, column) {
      var button = document.createElement("button");
      button.type = "button";
      while (header.firstChild) { button.appendChild(header.firstChild); }
      header.appendChild(button);
      function sort() {
        var ascending = header.getAttribute("aria-sort") !== "ascending";
        Array.prototype.forEach.call(headers, function (h) { h.removeAttribute("aria-sort"); });
        header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        table.classList.add("sorted");  // its arrow drawn from now on (site.css)
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = value(a.cells[column]), y = value(b.cells[column]);
          var order = typeof x === typeof y ? (x < y ? -1 : x > y ? 1 : 0) : (typeof x === "number" ? -1 : 1);
          return ascending ? order : -order;
        });
        rows.forEach(function (row) { body.appendChild(row); });
      }
      header.addEventListener("click", sort);  // the button's click (a mouse, Enter, Space) comes up to it
    });
  });
}());
