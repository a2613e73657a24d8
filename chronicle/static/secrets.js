// Check sealed secrets in the player's own browser, from docs/secrets.md
// alone: a secret's commitment is the lowercase hex SHA-256 of the UTF-8
// bytes of the RFC 8785 canonical JSON of {"label", "salt", "text"} — the
// three keys in that (sorted) order, no white space, each string as
// JSON.stringify writes it, which is how RFC 8785 writes strings. A roll on a
// sealed table picks the line its total falls on (docs/secrets.md, "Which
// line a roll picks"). Nothing here trusts the server's word, and nothing
// leaves the machine.
"use strict";

function secretPreimage(label, salt, text) {
  return '{"label":' + JSON.stringify(label) + ',"salt":' + JSON.stringify(salt) + ',"text":' + JSON.stringify(text) + "}";
}

async function secretCommitment(label, salt, text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(secretPreimage(label, salt, text)));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

// A line that starts with a number or a range ("3 goblins", "1-2 ogre", "4. troll", "96–00 dragon").
const NUMBERED = /^[ \t]*(\d{1,9})(?:[ \t]*[-\u2013\u2014][ \t]*(\d{1,9}))?(?:[.:)]|(?=[ \t])|$)/;
const tableNumber = (digits) => (digits === "00" ? 100 : parseInt(digits, 10));

// If any line starts with a number or a range, those lines are the entries; else every line that is
// not blank is one, the first covering 1, the next 2…
function tableEntries(text) {
  const lines = text.split("\n");
  const numbered = [];
  lines.forEach((line, i) => {
    const found = NUMBERED.exec(line);
    if (found) {
      const low = tableNumber(found[1]);
      numbered.push({ low, high: found[2] ? tableNumber(found[2]) : low, line: i + 1, text: line.trim() });
    }
  });
  if (numbered.length) return numbered;
  const plain = [];
  lines.forEach((line, i) => {
    if (line.trim()) plain.push({ low: plain.length + 1, high: plain.length + 1, line: i + 1, text: line.trim() });
  });
  return plain;
}

function pickedLine(text, total) {
  const found = tableEntries(text).filter((e) => e.low <= total && total <= e.high);
  return found.length === 1 ? found[0] : null;
}

// Every revealed secret among events shaped as `tally export` writes them: its label, salt and text
// hash to its commitment, and a seal with that label and commitment came before it; and the line each
// roll on a revealed table picked.
async function checkSecrets(events) {
  const seals = new Map();
  const revealed = new Map();
  const problems = [];
  let checked = 0, sealedOnly = 0;
  const name = (e, commitment) => (e.campaign || "") + "/" + commitment;
  for (const e of events) {
    const p = e.payload || {};
    if (e.type === "secret.sealed") {
      seals.set(name(e, p.commitment), { label: p.label, position: e.position });
    } else if (e.type === "secret.revealed") {
      checked += 1;
      const seal = seals.get(name(e, p.commitment));
      const hashed = /^[0-9a-f]{64}$/.test(p.salt || "") ? await secretCommitment(p.label, p.salt, p.text) : "";
      if (hashed !== p.commitment) {
        problems.push("event " + e.position + ": the revealed text and salt of \u201c" + p.label + "\u201d do not hash to its commitment");
      } else if (!seal || seal.label !== p.label || seal.position > e.position) {
        problems.push("event " + e.position + ": \u201c" + p.label + "\u201d was not sealed with this commitment before its reveal");
      } else {
        revealed.set(name(e, p.commitment), p);
      }
    }
  }
  for (const key of seals.keys()) if (!revealed.has(key)) sealedOnly += 1;
  const picks = [];
  let waiting = 0;
  for (const e of events) {
    const p = e.payload || {};
    if (e.type !== "dice.rolled" || !p.on) continue;
    const table = revealed.get(name(e, p.on.commitment));
    if (!table) {
      waiting += 1;
      continue;
    }
    const line = pickedLine(table.text, p.total);
    picks.push("event " + e.position + " (" + p.expression + " = " + p.total + ") picked " +
      (line ? "line " + line.line + " of \u201c" + table.label + "\u201d: " + line.text : "no single line of \u201c" + table.label + "\u201d"));
  }
  return { ok: problems.length === 0 && checked > 0, checked, sealedOnly, waiting, picks, problems };
}

function secretEvents(text) {
  text = text.trim();
  if (text.startsWith("[")) return JSON.parse(text);
  return text.split(/\r?\n/).filter((line) => line.trim()).map((line) => JSON.parse(line));
}

function showSecrets(result, where) {
  const box = document.getElementById("secret-result");
  box.dataset.ok = String(result.ok);
  box.className = result.ok ? "pass" : "fail";
  if (result.problems.length) {
    box.textContent = "FAIL (" + where + "): " + result.problems.join("; ");
  } else if (!result.checked) {
    box.textContent = "nothing to check (" + where + "): no secret has been revealed";
  } else {
    box.textContent = "PASS (" + where + "): " + result.checked + " revealed secret(s) hash to their commitments" +
      (result.sealedOnly ? ", " + result.sealedOnly + " still sealed" : "") +
      (result.picks.length ? "; " + result.picks.join("; ") : "") +
      (result.waiting ? "; " + result.waiting + " roll(s) on tables still sealed" : "");
  }
}

function secretFailed(error, where) {
  const box = document.getElementById("secret-result");
  box.dataset.ok = "false";
  box.className = "fail";
  box.textContent = "FAIL (" + where + "): " + error.message;
}

document.addEventListener("DOMContentLoaded", () => {
  const own = document.getElementById("check-secrets");
  if (own) {
    own.addEventListener("click", async () => {
      try {
        showSecrets(await checkSecrets(JSON.parse(document.getElementById("secret-events").textContent)), "this page");
      } catch (error) {
        secretFailed(error, "this page");
      }
    });
  }
  const file = document.getElementById("secret-file");
  if (file) {
    file.addEventListener("change", async () => {
      if (!file.files.length) return;
      const chosen = file.files[0];
      try {
        showSecrets(await checkSecrets(secretEvents(await chosen.text())), chosen.name);
      } catch (error) {
        secretFailed(error, chosen.name);
      }
    });
  }
});
