"""Files the command line writes (export, bench generate): all or nothing, an
existing file only with --force, and never through a link or onto a device,
a pipe or a folder (issue 13, finding 3)."""

import json
import os
import stat

import pytest

from ledger.chain import GENESIS
from ledger.errors import BadInput
from ledger.files import writing
from tests.conftest import Tally


def leftovers(folder) -> list[str]:
    """Temporary files a write left behind."""
    return [p.name for p in folder.iterdir() if p.name.endswith(".partial")]


def chained(path) -> list[dict]:
    """The file's lines, checked to be one whole chain from the genesis."""
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    assert [r["prev_hash"] for r in rows] == [GENESIS] + [r["hash"] for r in rows[:-1]]
    return rows


@pytest.fixture
def logged(campaign) -> Tally:
    for n in range(4):
        campaign.ok("roll", "2d6", "--why", f"roll {n}")
    return campaign


def test_export_writes_the_whole_log_to_a_new_file_with_the_umask_mode(logged, tmp_path):
    path = tmp_path / "log.jsonl"
    logged.ok("export", str(path))
    rows = chained(path)
    assert [r["position"] for r in rows] == [e["position"] for e in logged.ok("log", "--json").json]
    umask = os.umask(0o022)
    os.umask(umask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask
    assert leftovers(tmp_path) == []


def test_an_existing_file_is_untouched_without_force_and_replaced_with_it(logged, tmp_path):
    path = tmp_path / "log.jsonl"
    path.write_text("the referee's notes\n")
    path.chmod(0o640)
    outcome = logged.refused("export", str(path))
    assert "exists" in outcome.stderr and "--force" in outcome.stderr
    assert path.read_text() == "the referee's notes\n"
    logged.ok("export", str(path), "--force")
    assert len(chained(path)) == logged.event_count()
    assert stat.S_IMODE(path.stat().st_mode) == 0o640  # the replaced file's mode is kept
    assert leftovers(tmp_path) == []


def test_a_symbolic_link_is_refused_even_with_force_and_its_target_is_untouched(logged, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    target = elsewhere / "precious.txt"
    target.write_text("do not overwrite\n")
    link = tmp_path / "log.jsonl"
    link.symlink_to(target)
    for force in ([], ["--force"]):
        assert "symbolic link" in logged.refused("export", str(link), *force).stderr
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text() == "do not overwrite\n"
    dangling = tmp_path / "dangling.jsonl"
    dangling.symlink_to(elsewhere / "not-yet.txt")
    assert "symbolic link" in logged.refused("export", str(dangling), "--force").stderr
    assert not (elsewhere / "not-yet.txt").exists()  # a link to nothing is not followed either
    assert leftovers(tmp_path) == [] and leftovers(elsewhere) == []


def test_a_pipe_or_a_device_is_refused_even_with_force(logged, tmp_path):
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    for force in ([], ["--force"]):
        assert "not a regular file" in logged.refused("export", str(fifo), *force).stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    before = os.lstat(os.devnull)
    assert "not a regular file" in logged.refused("export", os.devnull, "--force").stderr
    after = os.lstat(os.devnull)
    assert stat.S_ISCHR(after.st_mode) and (after.st_ino, after.st_rdev) == (before.st_ino, before.st_rdev)
    assert leftovers(tmp_path) == []


def test_a_folder_or_a_missing_folder_is_refused(logged, tmp_path):
    folder = tmp_path / "out"
    folder.mkdir()
    assert "is a folder" in logged.refused("export", str(folder), "--force").stderr
    assert "give a file name" in logged.refused("export", str(folder) + os.sep).stderr
    assert list(folder.iterdir()) == []
    missing = tmp_path / "no-such-folder" / "log.jsonl"
    assert "does not exist" in logged.refused("export", str(missing)).stderr
    assert not missing.parent.exists()


def test_a_link_to_a_folder_then_dotdot_is_walked_as_the_system_walks_it(logged, tmp_path):
    # link -> f/g, so link/../h is f/h; read letter by letter, it was tmp_path/h, refused as missing.
    (tmp_path / "f" / "g").mkdir(parents=True)
    (tmp_path / "f" / "h").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "f" / "g")
    logged.ok("export", f"{tmp_path}/link/../h/log.jsonl")
    assert len(chained(tmp_path / "f" / "h" / "log.jsonl")) == len(logged.ok("log", "--json").json)
    assert not (tmp_path / "h").exists() and leftovers(tmp_path / "f" / "h") == []


def test_a_path_with_a_nul_is_refused_on_one_line(logged):
    # Found by the CLI fuzz: os.lstat raises ValueError, not OSError, on "\x00".
    refusal = logged.refused("export", "log\x00.jsonl").stderr
    assert "not a file name" in refusal and "internal error" not in refusal


def test_bench_generate_writes_a_complete_campaign_and_overwrites_only_with_force(tmp_path):
    t = Tally(f"sqlite:///{tmp_path / 'unused.db'}")
    out = tmp_path / "gen.jsonl"
    written = t.ok("bench", "generate", "--events", "300", "--players", "4", "--out", str(out))
    assert f"wrote {len(chained(out))} events" in written.stdout
    first = out.read_text()
    assert "exists" in t.refused("bench", "generate", "--events", "300", "--seed", "2", "--out", str(out)).stderr
    assert out.read_text() == first  # the finding: it used to be overwritten
    t.ok("bench", "generate", "--events", "300", "--seed", "2", "--out", str(out), "--force")
    assert out.read_text() != first and len(chained(out)) >= 300
    link = tmp_path / "link.jsonl"
    link.symlink_to(out)
    assert "symbolic link" in t.refused("bench", "generate", "--events", "300", "--out", str(link),
                                        "--force").stderr
    assert "not a regular file" in t.refused("bench", "generate", "--events", "300", "--out", os.devnull,
                                             "--force").stderr
    imported = Tally(f"sqlite:///{tmp_path / 'g.db'}")
    imported.ok("import", str(out))  # the whole file: every line checked and chained
    assert imported.event_count() == len(chained(out))
    assert leftovers(tmp_path) == []


def test_an_error_while_writing_leaves_the_target_as_it_was_and_no_temporary_file(tmp_path):
    path = tmp_path / "out.jsonl"
    path.write_text("before\n")
    with pytest.raises(RuntimeError):
        with writing(str(path), force=True) as out:
            out.write("half of it\n")
            raise RuntimeError("the database went away")
    assert path.read_text() == "before\n" and leftovers(tmp_path) == []
    new = tmp_path / "new.jsonl"
    with pytest.raises(KeyboardInterrupt):
        with writing(str(new)) as out:
            out.write("half of it\n")
            raise KeyboardInterrupt
    assert not new.exists() and leftovers(tmp_path) == []


def test_a_file_that_appears_while_writing_is_not_overwritten_without_force(tmp_path):
    path = tmp_path / "out.jsonl"
    with pytest.raises(BadInput, match="exists"):
        with writing(str(path)) as out:
            out.write("ours\n")
            path.write_text("someone else's\n")  # created while ours was being written
    assert path.read_text() == "someone else's\n" and leftovers(tmp_path) == []
    link = tmp_path / "late-link.jsonl"
    victim = tmp_path / "victim.txt"
    victim.write_text("keep\n")
    with pytest.raises(BadInput, match="symbolic link"):
        with writing(str(link), force=True) as out:
            out.write("ours\n")
            link.symlink_to(victim)
    assert link.is_symlink() and victim.read_text() == "keep\n" and leftovers(tmp_path) == []


def test_the_temporary_file_is_private_while_it_is_written(tmp_path):
    path = tmp_path / "out.jsonl"
    with writing(str(path), mode=0o644) as out:
        (partial,) = leftovers(tmp_path)
        assert stat.S_IMODE((tmp_path / partial).stat().st_mode) == 0o600
        out.write("done\n")
    assert stat.S_IMODE(path.stat().st_mode) == 0o644 and path.read_text() == "done\n"


def test_a_path_with_a_lone_surrogate_is_refused_on_one_line(logged, tmp_path, monkeypatch):
    # Found by the CLI fuzz (`keys witness --out '\ud800'`): a lone surrogate
    # cannot be encoded to name a file, and os.lstat raised UnicodeEncodeError.
    monkeypatch.chdir(tmp_path)
    refusal = logged.refused("export", "log\ud800.jsonl").stderr
    assert "not a file name" in refusal and "internal error" not in refusal
    assert list(tmp_path.iterdir()) == [] or all(p.suffix != ".jsonl" for p in tmp_path.iterdir())
