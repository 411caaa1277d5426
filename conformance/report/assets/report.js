// Filters for cruxgate's report tables: no network, no library. A form.filters[data-table] filters the rows
// of that table carrying data-* attributes: a select named N keeps rows whose data-N holds its value (a
// space-separated list), the search box keeps rows whose text contains it, a checkbox named N keeps rows
// with data-N="1". A header row (tr.requirement) stays while one of its rows does.
"use strict";
(function () {
  function matches(row, form) {
    for (const select of form.querySelectorAll("select")) {
      const wanted = select.value;
      if (!wanted) continue;
      const have = (row.dataset[select.name] || "").split(" ");
      if (!have.includes(wanted)) return false;
    }
    for (const box of form.querySelectorAll("input[type=checkbox]")) {
      if (box.checked && row.dataset[box.name] !== "1") return false;
    }
    const search = form.querySelector("input[type=search]");
    if (search && search.value.trim()) {
      const needle = search.value.trim().toLowerCase();
      if (!(row.dataset.text || row.textContent).toLowerCase().includes(needle)) return false;
    }
    return true;
  }

  function apply(form) {
    const table = document.getElementById(form.dataset.table);
    if (!table) return;
    let shown = 0, total = 0, header = null, headerHasRow = false;
    const finishHeader = function () { if (header) header.classList.toggle("hidden", !headerHasRow); };
    for (const row of table.tBodies[0].rows) {
      if (row.classList.contains("requirement")) {
        finishHeader();
        header = row; headerHasRow = false;
        continue;
      }
      total += 1;
      const keep = matches(row, form);
      row.classList.toggle("hidden", !keep);
      if (keep) { shown += 1; headerHasRow = true; }
    }
    finishHeader();
    const counter = form.querySelector(".shown");
    if (counter) counter.textContent = shown + " of " + total + " shown";
  }

  function openTarget() {
    // A link to #story-X opens that story (and the details around it), so a cell is one click from the detail.
    if (!location.hash) return;
    const target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (!target) return;
    for (let node = target; node; node = node.parentElement) {
      if (node.tagName === "DETAILS") node.open = true;
      if (node.tagName === "TR" && node.classList.contains("hidden")) node.classList.remove("hidden");
    }
    target.scrollIntoView();
  }

  document.addEventListener("DOMContentLoaded", function () {
    for (const form of document.querySelectorAll("form.filters")) {
      form.addEventListener("input", function () { apply(form); });
      form.addEventListener("change", function () { apply(form); });
      form.addEventListener("submit", function (event) { event.preventDefault(); });
      apply(form);
    }
    openTarget();
    window.addEventListener("hashchange", openTarget);
  });
})();
