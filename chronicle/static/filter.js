// The static log's filter: hide the rows whose text lacks the words typed.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const box = document.getElementById("log-filter");
  if (!box) return;
  box.addEventListener("input", () => {
    const words = box.value.toLowerCase().split(/\s+/).filter(Boolean);
    for (const row of document.querySelectorAll("#log tbody tr")) {
      const text = row.textContent.toLowerCase();
      row.hidden = !words.every((word) => text.includes(word));
    }
  });
});
