"""`tally chronicle --out DIR` as a kill, a careless --force and a second
campaign would meet it: the new site replaces the old one whole (a kill at
any step leaves one or the other, and the next build removes what the kill
left beside it); --force replaces only a folder tally made, and never the
ledger's own files; and one campaign's site carries only its own events,
the others' as hashes, from which the checkpoint's root still recomputes."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from chronicle.folder import MARKER
from tests.chronicle_support import build_campaign

ROOT = Path(__file__).parent.parent


def manifest(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def sites(tally_sqlite, tmp_path):
    """The old site at DIR (built before the cash change), and what the new one must be (built after,
    elsewhere): (tally, DIR, old manifest, new manifest)."""
    build_campaign(tally_sqlite)
    out = tmp_path / "site"
    tally_sqlite.ok("chronicle", "--out", str(out))
    old = manifest(out)
    tally_sqlite.ok("cash", "Nureddine", "+5", "--why", "sold a saddle")
    reference = tmp_path / "reference" / "site"
    reference.parent.mkdir()
    tally_sqlite.ok("chronicle", "--out", str(reference))
    new = manifest(reference)
    assert old != new and old.keys() <= new.keys()
    return tally_sqlite, out, old, new


# Where a build is killed (os._exit in the process, as kill -9 would stop it), and how.
KILLS = {
    "staged": "site.folder.staging = after(site.folder.staging)",
    "half the pages written": "site._render = nth(site._render, 8)",
    "all written, before the swap": "site.folder.put_in_place = before(site.folder.put_in_place)",
    "swapped, the old site not yet removed": "site.folder.remove = before(site.folder.remove)",
    "the old site half removed": "site.folder._remove_tree = before(site.folder._remove_tree)",
    "between the two renames (no exchange)": "site.folder._exchange = lambda a, b: False; "
                                             "site.folder.os.rename = nth(site.folder.os.rename, 2)",
}

KILLED = """
import os, sys
import chronicle.site as site

def after(f):
    def g(*a, **k):
        f(*a, **k)
        os._exit(9)
    return g

def before(f):
    return lambda *a, **k: os._exit(9)

def nth(f, n):
    calls = []
    def g(*a, **k):
        calls.append(1)
        if len(calls) == n:
            os._exit(9)
        return f(*a, **k)
    return g

{patch}
from cli.main import app
sys.argv = ["tally", "--db", {url!r}, "chronicle", "--out", {out!r}, "--force"]
app()
"""


@pytest.mark.parametrize("step", list(KILLS))
def test_a_build_killed_at_any_step_leaves_the_old_site_or_the_new(sites, step):
    tally, out, old, new = sites
    killed = subprocess.run([sys.executable, "-c", KILLED.format(patch=KILLS[step], url=tally.url, out=str(out))],
                            cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert killed.returncode == 9, killed.stderr
    left = list(out.parent.glob(".chronicle-*"))
    assert left, "the kill left nothing beside the site for the next build to clean up"
    if step == "between the two renames (no exchange)":  # where renameat2 cannot swap (documented)
        kept = {frozenset(manifest(folder).items()) for folder in left}
        assert not out.exists() and kept == {frozenset(old.items()), frozenset(new.items())}
    else:
        assert manifest(out) in (old, new), "a mixture of the old site and the new"
        assert manifest(out) == (new if step.startswith(("swapped", "the old site")) else old)
    tally.ok("chronicle", "--out", str(out), "--force")  # the next build
    assert manifest(out) == new
    assert not list(out.parent.glob(".chronicle-*")), "the next build left a killed build's staging folder"


def test_a_build_killed_by_a_signal_leaves_the_old_site_or_the_new(sites, tmp_path):
    """`tally chronicle --force` killed with SIGKILL at nine moments spread over its run,
    wherever in the build they fall, each time over the old site."""
    tally, out, old, new = sites
    command = [str(Path(sys.executable).with_name("tally")), "--db", tally.url, "chronicle", "--force", "--out"]
    started = time.monotonic()
    subprocess.run(command + [str(tmp_path / "timed")], check=True, capture_output=True, timeout=120)
    whole = time.monotonic() - started
    for tenth in range(1, 10):
        put_back(out, old)
        process = subprocess.Popen(command + [str(out)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            process.wait(whole * tenth / 10)
        except subprocess.TimeoutExpired:
            process.send_signal(signal.SIGKILL)
            process.wait()
        assert manifest(out) in (old, new), f"killed at {tenth}/10 of a run: a mixture of the two sites"
    tally.ok("chronicle", "--out", str(out), "--force")
    assert manifest(out) == new and not list(out.parent.glob(".chronicle-*"))


def put_back(out: Path, files: dict[str, bytes]) -> None:
    """The old site at ``out`` again, file for file."""
    import shutil

    if out.exists():
        shutil.rmtree(out)
    for name, data in files.items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_bytes(data)


def test_a_running_builds_staging_folder_is_left_alone(sites):
    """Only a killed build's staging folder goes: one named for a running process stays."""
    tally, out, _, new = sites
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        running = out.parent / f".chronicle-{sleeper.pid}-abcdefgh"
        running.mkdir()
        (running / MARKER).write_text("{}")
        dead = out.parent / ".chronicle-999999999-abcdefgh"
        dead.mkdir()
        (dead / MARKER).write_text("{}")
        (dead / "index.html").write_text("half a site")
        unmarked = out.parent / ".chronicle-notes"
        unmarked.mkdir()
        (unmarked / "mine.txt").write_text("not tally's")
        tally.ok("chronicle", "--out", str(out), "--force")
        assert running.exists() and not dead.exists() and (unmarked / "mine.txt").exists()
        assert manifest(out) == new
    finally:
        sleeper.kill()
        sleeper.wait()


def test_the_chronicle_is_never_written_over_the_ledgers_own_files(tally_sqlite, tmp_path, monkeypatch):
    """The ledger's file, its journals, its secrets and its key live in tmp_path: neither it nor a
    chronicle folder holding one of them is replaced, even with --force."""
    build_campaign(tally_sqlite)
    tally_sqlite.ok("keys", "new")
    before = manifest(tmp_path)
    assert {"tally.db", "tally.db.secrets", "tally.db.key"} <= before.keys()
    for out in (tmp_path, tmp_path / "tally.db", tmp_path / "tally.db.key"):
        refused = tally_sqlite.refused("chronicle", "--out", str(out), "--force")
        assert "holds the ledger's own file" in refused.stderr or "is a file, not a folder" in refused.stderr
    # a chronicle folder someone moved the referee's key into
    site = tmp_path / "site"
    tally_sqlite.ok("chronicle", "--out", str(site))
    key = site / "referee.key"
    key.write_bytes((tmp_path / "tally.db.key").read_bytes())
    key.chmod(0o600)
    monkeypatch.setenv("TALLY_KEY_FILE", str(key))
    refused = tally_sqlite.refused("chronicle", "--out", str(site), "--force")
    assert "holds the ledger's own file referee.key" in refused.stderr
    assert key.exists()
    link = tmp_path / "link"
    link.symlink_to(site)
    assert "is a symbolic link" in tally_sqlite.refused("chronicle", "--out", str(link), "--force").stderr
    assert manifest(tmp_path).keys() >= before.keys() and not list(tmp_path.glob(".chronicle-*"))


# -- one campaign's site carries only its own events ---------------------------

SECRETS = ("Vexmoor", "Zelda Hidden", "the buried crown of Ylm", "Other Table")


def two_campaigns(tally, monkeypatch, tmp_path) -> None:
    """Greyhawk, and between its events those of another campaign whose names must not leak."""
    monkeypatch.setenv("TALLY_KEY_FILE", str(tmp_path / "referee.key"))  # PostgreSQL keeps no key beside it
    build_campaign(tally)
    tally.ok("campaign", "new", "Other Table", "--rules", "coeac", "--start", "0800-01-01")
    other = ("--campaign", "Other Table")
    tally.ok(*other, "player", "add", "Zelda Hidden")
    tally.ok(*other, "char", "new", "Vexmoor", "--player", "Zelda Hidden", "--max-hp", "5", "--cash", "7")
    tally.ok(*other, "cash", "Vexmoor", "+3", "--why", "the buried crown of Ylm")
    greyhawk = ("--campaign", "Greyhawk")
    tally.ok(*greyhawk, "cash", "Nureddine", "+2", "--why", "after the other table's evening")
    tally.ok(*greyhawk, "keys", "new")
    tally.ok(*greyhawk, "checkpoint")
    tally.ok(*other, "cash", "Vexmoor", "+1", "--why", "after the checkpoint")


def leaf(event_hash: str) -> bytes:
    return hashlib.sha256(b"\x00" + bytes.fromhex(event_hash)).digest()


def merkle_root(leaves: list[bytes]) -> bytes:
    """RFC 9162 2.1.1, recursively, written apart from ledger/merkle.py."""
    if len(leaves) == 1:
        return leaves[0]
    split = 1 << ((len(leaves) - 1).bit_length() - 1)
    return hashlib.sha256(b"\x01" + merkle_root(leaves[:split]) + merkle_root(leaves[split:])).digest()


def test_one_campaigns_site_carries_only_its_events_and_the_root_recomputes(tally, monkeypatch, tmp_path):
    two_campaigns(tally, monkeypatch, tmp_path)
    out = tmp_path / "site"
    done = tally.ok("--campaign", "Greyhawk", "chronicle", "--out", str(out), "--json").json
    tally.ok("export", str(tmp_path / "all.jsonl"))
    full = (tmp_path / "all.jsonl").read_text(encoding="utf-8").splitlines()
    everything = [json.loads(line) for line in full]
    lines = (out / "export.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == len(everything) == done["events"]
    assert done["withheld"] == sum(e["campaign"] != "Greyhawk" for e in everything) >= 4
    previous = "0" * 64
    for line, whole, event in zip(lines, full, everything):
        shown = json.loads(line)
        if event["campaign"] == "Greyhawk":
            assert line == whole  # the campaign's own events, byte for byte as `tally export` writes them
            body = line.replace(f'"hash":"{shown["hash"]}",', "", 1)
            assert hashlib.sha256(body.encode("utf-8")).hexdigest() == shown["hash"]
        else:
            assert shown == {"hash": event["hash"], "position": event["position"],
                             "prev_hash": event["prev_hash"], "withheld": True}
            assert line == json.dumps(shown, separators=(",", ":"))
        assert shown["prev_hash"] == previous
        previous = shown["hash"]
    # nothing of the other campaign anywhere in the folder, in any file
    for path in out.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            for secret in SECRETS:
                assert secret.encode() not in data, f"{secret!r} leaked into {path.name}"
    # the checkpoint's root, from the site's export alone
    origin, size, root = (out / "checkpoint.txt").read_text().splitlines()[:3]
    assert "greyhawk" in origin and int(size) < len(lines)  # the other campaign wrote after it was signed
    leaves = [leaf(json.loads(line)["hash"]) for line in lines[:int(size)]]
    assert base64.b64encode(merkle_root(leaves)).decode() == root
    # and the browser's check agrees, from the static dice page (below)
    assert (out / "static" / "export.js").exists()


def test_the_browser_recomputes_the_root_from_a_campaigns_export(tally_sqlite, monkeypatch, tmp_path):
    """From file://, the dice pages check the site's export against its checkpoint: PASS as written; FAIL
    with one of its own events altered, or with a withheld hash replaced (the chain mended around it,
    so only the root can tell)."""
    from tests.chronicle_support import browser

    two_campaigns(tally_sqlite, monkeypatch, tmp_path)
    out = tmp_path / "site"
    tally_sqlite.ok("--campaign", "Greyhawk", "chronicle", "--out", str(out))
    lines = (out / "export.jsonl").read_text(encoding="utf-8").splitlines()
    size = int((out / "checkpoint.txt").read_text().splitlines()[1])
    own = next(i for i, line in enumerate(lines) if "after the other table" in line)
    altered = list(lines)
    altered[own] = altered[own].replace("after the other table", "after the other tables")
    hidden = next(i for i in range(size - 1) if '"withheld":true' in lines[i] and '"withheld":true' in lines[i + 1])
    replaced, forged = list(lines), hashlib.sha256(b"a forged event").hexdigest()
    genuine = json.loads(lines[hidden])["hash"]
    replaced[hidden] = lines[hidden].replace(genuine, forged)
    replaced[hidden + 1] = lines[hidden + 1].replace(f'"prev_hash":"{genuine}"', f'"prev_hash":"{forged}"')
    forgeries = {"altered.jsonl": (altered, f"event {own + 1}: its hash does not match its fields"),
                 "replaced.jsonl": (replaced, f"the first {size} events do not hash to the checkpoint's root")}
    with browser() as launched:
        page = launched.new_page()

        def check(site_page: str, export: Path) -> str:
            page.goto((out / site_page).as_uri())
            page.set_input_files("#check-file", str(export))
            page.locator('#check-result:not([data-ok=""])').wait_for(timeout=20000)
            return page.inner_text("#check-result")

        for site_page in ("dice.html", "dice-1.html"):
            result = check(site_page, out / "export.jsonl")
            assert result.startswith("PASS (export.jsonl)"), result
            assert f"the first {size} of its {len(lines)} event(s) hash to the checkpoint's root" in result
            assert "of other campaigns by their hashes only" in result
        for name, (changed, problem) in forgeries.items():
            (tmp_path / name).write_text("\n".join(changed) + "\n", encoding="utf-8")
            result = check("dice.html", tmp_path / name)
            assert result.startswith(f"FAIL ({name})") and problem in result, result
