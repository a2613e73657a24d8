// Re-derive a campaign's dice in the player's own browser, from docs/dice.md
// alone (tests/independent_verifier.py's reading of the faces, and the
// totals the expressions make of them): nothing here trusts the
// server's word, and nothing leaves the machine. Roll n of an epoch reads
// HMAC-SHA256(key=S, msg="K:n:0") || HMAC-SHA256(key=S, msg="K:n:1") || ...;
// each die of size s takes 4 bytes big-endian u, discarded if
// u >= floor(2^32/s)*s, else face u mod s + 1. SHA-256(S) must be C.
"use strict";
const AVERAGE = [2, 3, 3, 4, 4, 5];
const DEPTH = 20; // rr rerolls and !, x, e explosions stop after 20
const MOD = "(rr|ro|min|max|mi|ma|kh|kl|dh|dl|xo|x|e|!|s)\\s*(>=|<=)?\\s*(\\d*)";
const TERM = "(\\d*)\\s*d\\s*(\\d+|%|a)((?:\\s*" + MOD + ")*)";

function fromHex(text) {
  if (!/^([0-9a-f]{2})+$/i.test(text)) throw new Error("not hex");
  return new Uint8Array(text.match(/../g).map((b) => parseInt(b, 16)));
}
function toHex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

async function faces(seedHex, clientSeed, nonce, expression) {
  return (await roll(seedHex, clientSeed, nonce, expression)).faces;
}

// The arithmetic around the dice terms, each term already replaced by its value:
// + - * / (division rounds up, docs/dice.md), unary minus, brackets.
function arithmetic(text) {
  const tokens = text.match(/\d+|[-+*\/()]/g) || [];
  let at = 0;
  const sum = () => {
    let value = product();
    while (tokens[at] === "+" || tokens[at] === "-") value = tokens[at++] === "+" ? value + product() : value - product();
    return value;
  };
  const product = () => {
    let value = unary();
    while (tokens[at] === "*" || tokens[at] === "/") value = tokens[at++] === "*" ? value * unary() : Math.ceil(value / unary());
    return value;
  };
  const unary = () => (tokens[at] === "-" ? (at++, -unary()) : atom());
  const atom = () => {
    if (tokens[at] === "(") {
      at++;
      const value = sum();
      at++;
      return value;
    }
    return parseInt(tokens[at++], 10);
  };
  return sum();
}

// Roll n of an epoch: every face read, in order, and the total the expression makes of them.
async function roll(seedHex, clientSeed, nonce, expression) {
  const key = await crypto.subtle.importKey("raw", fromHex(seedHex), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const encoder = new TextEncoder();
  let block = -1, words = [], at = 0;
  async function word() {
    if (at >= words.length) {
      block += 1;
      const view = new DataView(await crypto.subtle.sign("HMAC", key, encoder.encode(clientSeed + ":" + nonce + ":" + block)));
      words = [];
      for (let i = 0; i < 32; i += 4) words.push(view.getUint32(i, false));
      at = 0;
    }
    return words[at++];
  }
  const out = [];
  const values = [];
  const terms = new RegExp(TERM, "gi");
  let term;
  while ((term = terms.exec(expression)) !== null) {
    const mods = {};
    const found = new RegExp(MOD, "gi");
    let m;
    while ((m = found.exec(term[3])) !== null) {
      mods[m[1].toLowerCase().replace("min", "mi").replace("max", "ma")] = [m[2] || "=", m[3]];
    }
    const average = term[2].toLowerCase() === "a";
    const size = term[2] === "%" ? 100 : average ? 6 : parseInt(term[2], 10);
    const limit = Math.floor(4294967296 / size) * size;
    const die = async () => {
      let u = await word();
      while (u >= limit) u = await word();
      const face = (u % size) + 1;
      return average ? AVERAGE[face - 1] : face;
    };
    const value = (face) => {
      if (mods.mi) face = Math.max(face, parseInt(mods.mi[1], 10));
      return mods.ma ? Math.min(face, parseInt(mods.ma[1], 10)) : face;
    };
    const matches = (rule, v) => {
      const n = parseInt(rule[1], 10);
      return rule[0] === ">=" ? v >= n : rule[0] === "<=" ? v <= n : v === n;
    };
    const reroll = mods.rr || mods.ro;
    const read = async () => {
      let face = await die(), times = 0;
      while (reroll && times < (mods.rr ? DEPTH : 1) && matches(reroll, face)) {
        out.push(face);
        face = await die();
        times += 1;
      }
      out.push(face);
      return value(face);
    };
    let dice = [];
    const count = parseInt(term[1] || "1", 10);
    for (let i = 0; i < count; i++) dice.push(await read());
    for (const name of ["kh", "kl", "dh", "dl"]) {
      if (!mods[name]) continue;
      const n = parseInt(mods[name][1], 10);
      const keep = name === "kh" || name === "kl" ? n : dice.length - n;
      const high = name === "kh" || name === "dl";
      const order = dice.map((_, i) => i).sort((a, b) => (high ? dice[b] - dice[a] : dice[a] - dice[b]));
      dice = order.slice(0, keep).sort((a, b) => a - b).map((i) => dice[i]);
    }
    const counted = dice.slice();
    const explode = ["!", "x", "e", "xo"].find((name) => name in mods);
    if (explode) {
      const all = average ? AVERAGE : Array.from({ length: size }, (_, i) => i + 1);
      const top = Math.max(...all.map(value));
      const rule = mods[explode][1] ? mods[explode] : ["=", String(top)];
      for (let v of dice) {
        let extra = 0;
        while (extra < (explode === "xo" ? 1 : DEPTH) && matches(rule, v)) {
          v = await read();
          counted.push(v);
          extra += 1;
        }
      }
    }
    values.push(mods.s ? counted.filter((v) => v >= parseInt(mods.s[1], 10)).length : counted.reduce((a, b) => a + b, 0));
  }
  let index = 0;
  const total = arithmetic(expression.replace(new RegExp(TERM, "gi"), () => "(" + values[index++] + ")"));
  return { faces: out, total };
}

// Check every revealed epoch among events shaped as `tally export` writes
// them (or `tally log --json`): the commitment, then every derived roll's faces.
async function checkEvents(events) {
  const epochs = new Map();
  const name = (e) => (e.campaign || "") + "/" + e.payload.epoch;
  for (const e of events) {
    const p = e.payload;
    if (e.type === "dice.committed") epochs.set(name(e), { commitment: p.commitment, seed: null, clientSeed: "", epoch: p.epoch });
    else if (e.type === "dice.client_seed_set" && epochs.has(name(e))) epochs.get(name(e)).clientSeed = p.client_seed;
    else if (e.type === "dice.revealed" && epochs.has(name(e))) epochs.get(name(e)).seed = p.seed;
  }
  const problems = [];
  let revealed = 0, checked = 0;
  for (const epoch of epochs.values()) {
    if (!epoch.seed) continue;
    revealed += 1;
    let digest;
    try {
      digest = toHex(await crypto.subtle.digest("SHA-256", fromHex(epoch.seed)));
    } catch (error) {
      digest = "";
    }
    if (digest !== epoch.commitment) problems.push("epoch " + epoch.epoch + ": SHA-256 of the revealed seed is not the commitment");
  }
  for (const e of events) {
    const p = e.payload;
    if (e.type !== "dice.rolled" || !p.verifiable) continue;
    const epoch = epochs.get(name(e));
    if (!epoch || !epoch.seed) continue;
    checked += 1;
    let derived;
    try {
      derived = await roll(epoch.seed, epoch.clientSeed, p.nonce, p.expression);
    } catch (error) {
      problems.push("event " + e.position + ": cannot re-derive (" + error.message + ")");
      continue;
    }
    if (JSON.stringify(derived.faces) !== JSON.stringify(p.dice)) {
      problems.push("event " + e.position + ": faces [" + p.dice.join(", ") + "] recorded, [" + derived.faces.join(", ") + "] derived");
    } else if (derived.total !== p.total) {
      problems.push("event " + e.position + ": total " + p.total + " recorded, " + derived.total + " derived");
    }
  }
  return { ok: problems.length === 0 && checked + revealed > 0, revealed, checked, problems };
}

function readEvents(text) {
  text = text.trim();
  if (text.startsWith("[")) return JSON.parse(text);
  return text.split(/\r?\n/).filter((line) => line.trim()).map((line) => JSON.parse(line));
}

function show(result, where) {
  const box = document.getElementById("check-result");
  const tree = result.tree;
  const problems = result.problems.concat(tree ? tree.problems : []);
  const ok = problems.length === 0 && (result.checked + result.revealed > 0 || (tree && tree.ok));
  box.dataset.ok = String(ok);
  box.className = ok ? "pass" : "fail";
  if (ok) {
    box.textContent = "PASS (" + where + "): " + result.checked + " derived roll(s) re-derived in this browser, " +
      result.revealed + " revealed seed(s) match their commitments" + (tree ? "; the first " + tree.size + " of its " +
      tree.events + " event(s) hash to the checkpoint's root" + (tree.withheld ? " (" + tree.withheld +
      " of other campaigns by their hashes only)" : "") : "");
  } else if (problems.length) {
    box.textContent = "FAIL (" + where + "): " + problems.join("; ");
  } else {
    box.textContent = "nothing to check (" + where + "): no revealed epoch with derived rolls";
  }
}

function failed(error, where) {
  const box = document.getElementById("check-result");
  box.dataset.ok = "false";
  box.className = "fail";
  box.textContent = "FAIL (" + where + "): " + error.message;
}

document.addEventListener("DOMContentLoaded", () => {
  const own = document.getElementById("check-page");
  if (own) {
    own.addEventListener("click", async () => {
      try {
        show(await checkEvents(JSON.parse(document.getElementById("epoch-events").textContent)), "this page's rolls");
      } catch (error) {
        failed(error, "this page's rolls");
      }
    });
  }
  const file = document.getElementById("check-file");
  if (file) {
    file.addEventListener("change", async () => {
      if (!file.files.length) return;
      const chosen = file.files[0];
      try {
        const text = await chosen.text();
        const result = await checkEvents(readEvents(text));
        // With the campaign's latest checkpoint on the page (export.js), an export in lines is
        // also checked against the root it signs.
        const checkpoint = document.getElementById("checkpoint");
        if (checkpoint && typeof checkTree === "function" && !text.trim().startsWith("[")) {
          result.tree = await checkTree(text, JSON.parse(checkpoint.textContent));
        }
        show(result, chosen.name);
      } catch (error) {
        failed(error, chosen.name);
      }
    });
  }
});
