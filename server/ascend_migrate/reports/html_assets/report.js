// The HTML report's filter: a text box (every word must appear) and one toggle per category.
(function () {
  "use strict";
  var filter = document.getElementById("filter");
  var shown = document.getElementById("shown-count");
  var noMatch = document.getElementById("no-match");
  var toggles = Array.prototype.slice.call(document.querySelectorAll("button.toggle[data-category]"));
  var findings = Array.prototype.slice.call(document.querySelectorAll("article.finding"));
  var files = Array.prototype.slice.call(document.querySelectorAll("section.file"));

  function enabledCategories() {
    var enabled = {};
    toggles.forEach(function (toggle) {
      if (toggle.getAttribute("aria-pressed") === "true") {
        enabled[toggle.getAttribute("data-category")] = true;
      }
    });
    return enabled;
  }

  function apply() {
    var words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
    var enabled = enabledCategories();
    var visible = 0;
    findings.forEach(function (finding) {
      var text = finding.getAttribute("data-search");
      var show = enabled[finding.getAttribute("data-category")] === true &&
        words.every(function (word) { return text.indexOf(word) !== -1; });
      finding.hidden = !show;
      if (show) {
        visible += 1;
      }
    });
    files.forEach(function (file) {
      file.hidden = file.querySelector("article.finding:not([hidden])") === null;
    });
    shown.textContent = "Showing " + visible + " of " + findings.length + " findings";
    shown.setAttribute("data-count", String(visible));
    noMatch.hidden = visible !== 0 || findings.length === 0;
  }

  toggles.forEach(function (toggle) {
    toggle.addEventListener("click", function () {
      var pressed = toggle.getAttribute("aria-pressed") === "true";
      toggle.setAttribute("aria-pressed", pressed ? "false" : "true");
      apply();
    });
  });
  filter.addEventListener("input", apply);
  apply();
})();
