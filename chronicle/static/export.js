// Check an export against the campaign's latest checkpoint, in the player's
// own browser: every whole line's hash recomputes from the line itself (the
// line is canonical JSON, so its bytes without the "hash" member are the
// bytes hashed), every line's prev_hash is the hash of the line before, and
// the Merkle tree of RFC 9162 over the first `size` events has the root the
// checkpoint signs (leaf: SHA-256(0x00 || the event's 32-byte hash); node:
// SHA-256(0x01 || left || right)). A chronicle's export withholds other
// campaigns' events: such a line is {"hash","position","prev_hash","withheld":true},
// and only its hash counts. Nothing leaves the machine.
"use strict";

function hexBytes(text) {
  return new Uint8Array(text.match(/../g).map((b) => parseInt(b, 16)));
}

async function sha256(...parts) {
  const length = parts.reduce((n, p) => n + p.length, 0);
  const joined = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  return new Uint8Array(await crypto.subtle.digest("SHA-256", joined));
}

function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// The root of the tree over these leaf hashes: the perfect subtrees of the right edge, folded leftwards.
async function treeRoot(leaves) {
  if (!leaves.length) return sha256(new Uint8Array(0));
  const stack = [];
  for (const leaf of leaves) {
    let level = 0, hashed = leaf;
    while (stack.length && stack[stack.length - 1][0] === level) {
      hashed = await sha256(Uint8Array.of(1), stack.pop()[1], hashed);
      level += 1;
    }
    stack.push([level, hashed]);
  }
  let result = stack[stack.length - 1][1];
  for (let i = stack.length - 2; i >= 0; i--) result = await sha256(Uint8Array.of(1), stack[i][1], result);
  return result;
}

// checkpoint: {size, root (base64)}. The export's text as JSON Lines.
async function checkTree(text, checkpoint) {
  const lines = text.split(/\r?\n/).filter((line) => line.trim());
  const problems = [];
  const encoder = new TextEncoder();
  const leaves = [];
  let previous = "0".repeat(64), withheld = 0;
  for (let i = 0; i < lines.length && problems.length < 5; i++) {
    let event;
    try {
      event = JSON.parse(lines[i]);
    } catch (error) {
      problems.push("line " + (i + 1) + ": not JSON");
      continue;
    }
    if (event.position !== i + 1 || !/^[0-9a-f]{64}$/.test(event.hash || "")) {
      problems.push("line " + (i + 1) + ": not event " + (i + 1) + " with its hash");
      continue;
    }
    if (event.prev_hash !== previous) problems.push("event " + event.position + ": does not follow the event before it");
    previous = event.hash;
    if (event.withheld === true) {
      withheld += 1;
    } else {
      const member = '"hash":"' + event.hash + '",';
      const at = lines[i].indexOf(member);
      const body = at < 0 ? lines[i] : lines[i].slice(0, at) + lines[i].slice(at + member.length);
      if (hex(await sha256(encoder.encode(body))) !== event.hash) {
        problems.push("event " + event.position + ": its hash does not match its fields");
      }
    }
    if (i < checkpoint.size) leaves.push(await sha256(Uint8Array.of(0), hexBytes(event.hash)));
  }
  if (!problems.length && lines.length < checkpoint.size) {
    problems.push("the checkpoint covers " + checkpoint.size + " events, the export holds " + lines.length);
  }
  if (!problems.length) {
    const root = btoa(String.fromCharCode(...(await treeRoot(leaves))));
    if (root !== checkpoint.root) problems.push("the first " + checkpoint.size + " events do not hash to the checkpoint's root");
  }
  return { ok: problems.length === 0, size: checkpoint.size, events: lines.length, withheld, problems };
}
