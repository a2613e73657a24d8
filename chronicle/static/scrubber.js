// The campaign page's scrubber: show the date under the thumb as it moves,
// and load the campaign as of that day when it is let go. Without
// JavaScript the form's Show button does the same.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const range = document.getElementById("day");
  if (!range) return;
  const shown = document.getElementById("day-shown");
  const labels = JSON.parse(document.getElementById("day-labels").textContent);
  range.addEventListener("input", () => {
    shown.textContent = labels[range.value] || "day " + range.value;
  });
  range.addEventListener("change", () => {
    document.querySelector("#scrubber input[name=date]").value = "";
    range.form.submit();
  });
});
