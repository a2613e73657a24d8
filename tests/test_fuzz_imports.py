"""Every import format, fuzzed (hypothesis): random JSON of any shape, and the
sample files of fixtures/imports/ and fixtures/calendars/ with a part
changed — a value replaced by another of any kind or by a number no JSON
library writes (1e400, 1e999999999, NaN, forty digits), a key or an entry
taken away or repeated, a line doubled or cut. Whatever comes in, a reader
gives back what it read or refuses on one line (a TallyError), never
another exception and never a hang (the files are small and its bounds are
fixed); what it gives back is what the ledger can record. Through the
command line on both backends: exit 0 or 1, one line on refusal, and a
refused import records nothing.
"""

from __future__ import annotations

import base64
import contextlib
import json
import re
import shutil
import signal
import tomllib
from pathlib import Path

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy.pool import NullPool
from typer.testing import CliRunner

from ledger.chain import canonical_json
from ledger.errors import TallyError
from tests.conftest import Tally

FIXTURES = Path(__file__).parent.parent / "fixtures"
IMPORTS = FIXTURES / "imports"
HANG = 60  # seconds: far beyond any of these small files; only a hang comes near it

# Numbers Python's json never writes, put in as raw text.
RAW_NUMBERS = ["1e400", "-1e400", "1e999999999", "1e-999999999", "NaN", "Infinity", "-0", "0.5",
               "1" + "0" * 40, "9" * 25, "100000000000000000000", "253402300800000", "-1", "1E+30"]


class Raw:
    """A number to be written as ``text`` in place."""

    def __init__(self, text: str) -> None:
        self.text = text


def dumps(value) -> str:
    """JSON text of ``value``, each Raw written as its text."""
    raws: list[str] = []

    def encode(item):
        if isinstance(item, Raw):
            raws.append(item.text)
            return f"\x00raw{len(raws) - 1}\x00"
        raise TypeError(type(item).__name__)

    text = json.dumps(value, default=encode)
    return re.sub(r'"\\u0000raw(\d+)\\u0000"', lambda m: raws[int(m.group(1))], text)


scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.integers(-10, 10), st.text(max_size=12),
                    st.sampled_from(["", "1d6", "rollresult", "dice/roll/fulfilled", "Die", "intercalary",
                                     "<b>x</b>", "\u202e", "\ud800x", "CALENDARIA.Season.Spring"]),
                    st.sampled_from(RAW_NUMBERS).map(Raw))
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(st.text(max_size=8), inner, max_size=4)),
                      max_leaves=20)


@st.composite
def mutated(draw, data):
    """``data`` with a few of its parts changed (a JSON text inside a string counts as a part too)."""
    for _ in range(draw(st.integers(1, 3))):
        data = _mutate_once(draw, data)
    return data


def _mutate_once(draw, node):
    if isinstance(node, str) and node[:1] in "[{":
        try:
            inner = json.loads(node)
        except ValueError:
            inner = None
        if inner is not None and draw(st.booleans()):
            return dumps(_mutate_once(draw, inner))
    children = list(node.items()) if isinstance(node, dict) else list(enumerate(node)) \
        if isinstance(node, list) else []
    if not children or draw(st.integers(0, 4)) == 0:  # change this node itself
        return draw(st.one_of(values, st.sampled_from(RAW_NUMBERS).map(Raw),
                              st.just([]), st.just({}), st.just(0)))
    key, child = children[draw(st.integers(0, len(children) - 1))]
    action = draw(st.integers(0, 5))
    node = dict(node) if isinstance(node, dict) else list(node)
    if action == 0:
        del node[key]
    elif action == 1 and isinstance(node, list):
        node.insert(key, child)  # the entry twice
    else:
        node[key] = _mutate_once(draw, child)
    return node


def roll20_page(messages) -> str:
    return f'<html><body><script>var msgdata = "{base64.b64encode(dumps(messages).encode()).decode()}";</script>'


def _roll20_messages():
    page = (IMPORTS / "roll20-chat-archive.html").read_text()
    return json.loads(base64.b64decode(re.search(r'msgdata = "([^"]+)"', page).group(1)))


def _lines(name: str) -> list:
    return [json.loads(line) for line in (IMPORTS / name).read_text().splitlines() if line.strip()]


@st.composite
def line_log(draw, name: str) -> str:
    """A log of one JSON value a line, a few lines changed, doubled or cut."""
    lines = _lines(name)
    lines = lines[: draw(st.integers(1, min(len(lines), 12)))] if draw(st.booleans()) else lines
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(lines) - 1))
        action = draw(st.integers(0, 4))
        if action == 0:
            lines.insert(i, lines[i])
        elif action == 1 and len(lines) > 1:
            del lines[i]
        else:
            lines[i] = _mutate_once(draw, lines[i])
    text = "\n".join(dumps(line) for line in lines) + "\n"
    return text[: draw(st.integers(0, len(text)))] if draw(st.integers(0, 9)) == 0 else text


ROLL_LOGS = {
    "foundry messages.db": ("foundry", lambda: line_log("foundry-hyrule-messages.db")),
    "foundry JSON list": ("foundry", lambda: mutated(_lines("foundry-hyrule-messages.db")[:10]).map(dumps)),
    "roll20 archive page": ("roll20", lambda: mutated(_roll20_messages()).map(roll20_page)),
    "roll20 messages as JSON": ("roll20", lambda: mutated(_roll20_messages()).map(dumps)),
    "ddb lines": ("ddb", lambda: line_log("ddb-roll-events.jsonl")),
    "ddb JSON list": ("ddb", lambda: mutated(_lines("ddb-roll-events.jsonl")).map(dumps)),
}
CALENDARS = ["fantasy-calendar-gregorian-export.json", "fantasy-calendar-harptos-custom-export.json",
             "fantasy-calendar-imperial-export.json", "simple-calendar-gregorian.json",
             "simple-calendar-harptos.json", "calendaria-gregorian.json", "calendaria-harptos.json"]


def any_json(source: str):
    return values.map(dumps) if source != "roll20 archive page" else values.map(roll20_page)


@contextlib.contextmanager
def hang_guard():
    """Fail an example that runs into a hang instead of hanging the suite."""
    def stop(*_):
        raise AssertionError(f"still reading after {HANG} s: a hang")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(HANG)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


# -- the readers ---------------------------------------------------------------------------------

def read_roll_log(source: str, path: Path) -> None:
    from commands.import_rolls import _event, parse

    with hang_guard():
        try:
            parsed = parse(source, str(path))
        except TallyError as exc:
            assert "\n" not in str(exc)
            return
        for roll in parsed.rolls:  # what is read, the ledger can record
            canonical_json(_event(roll, source, 1, None).model_dump(mode="json"))


def read_calendar(path: Path) -> None:
    from ledger.calendar import calendar_from_spec, months_spec
    from commands.imports import calendar_file

    with hang_guard():
        try:
            converted = calendar_file.read(str(path))
        except TallyError as exc:
            assert "\n" not in str(exc)
            return
        calendar = calendar_from_spec(converted.spec)
        text = calendar_file.to_toml(converted.data)  # what `calendar import --out` writes ...
        assert months_spec(tomllib.loads(text), "out.toml") == converted.spec  # ... reads back the same
        for note in converted.notes[:5]:
            with contextlib.suppress(TallyError):
                calendar.format(converted.day_of(note.when))


@pytest.mark.parametrize("kind", ROLL_LOGS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_every_roll_log_reader_reads_or_refuses_on_one_line(tmp_path, kind, data):
    source, sample = ROLL_LOGS[kind]
    text = data.draw(st.one_of(sample(), any_json(kind)) if data.draw(st.integers(0, 3)) else any_json(kind))
    path = tmp_path / "log"
    path.write_text(text, errors="surrogatepass")
    read_roll_log(source, path)


@pytest.mark.parametrize("name", CALENDARS)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_every_calendar_reader_converts_or_refuses_on_one_line(tmp_path, name, data):
    sample = json.loads((IMPORTS / name).read_text())
    text = dumps(data.draw(mutated(sample))) if data.draw(st.integers(0, 4)) else data.draw(values.map(dumps))
    path = tmp_path / "calendar.json"
    path.write_text(text, errors="surrogatepass")
    read_calendar(path)


toml_values = st.recursive(st.one_of(st.booleans(), st.integers(), st.integers(-3, 100), st.text(max_size=10)),
                           lambda inner: st.lists(inner, max_size=4), max_leaves=10)


@st.composite
def toml_mutated(draw, node):
    """A TOML calendar's content with a part changed, taken away, or of another kind."""
    children = list(node.items()) if isinstance(node, dict) else list(enumerate(node)) \
        if isinstance(node, list) else []
    if not children or draw(st.integers(0, 4)) == 0:
        return draw(toml_values)
    key, child = children[draw(st.integers(0, len(children) - 1))]
    node = dict(node) if isinstance(node, dict) else list(node)
    if draw(st.integers(0, 4)) == 0:
        del node[key]
    else:
        node[key] = draw(toml_mutated(child))
    return node


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_tally_calendar_file_reads_or_refuses_on_one_line(tmp_path, data):
    # fixtures/calendars/: the TOML `campaign new --calendar` reads, as `calendar import --out` writes it.
    from ledger.calendar import MAX_DAY, calendar_from_spec, spec_for
    from commands.imports.calendar_file import to_toml

    sample = tomllib.loads((FIXTURES / "calendars" / "thaw.toml").read_text())
    changed = sample
    for _ in range(data.draw(st.integers(1, 3))):
        changed = data.draw(toml_mutated(changed))
    path = tmp_path / "calendar.toml"
    path.write_text(to_toml(changed) if isinstance(changed, dict) else str(changed), errors="surrogatepass")
    with hang_guard():
        try:
            calendar = calendar_from_spec(spec_for(str(path)))
        except TallyError as exc:
            assert "\n" not in str(exc)
            return
        for day in (1, 1000, MAX_DAY):
            assert calendar.parse(calendar.format(day)) == day
            calendar.weekday(day), calendar.season(day), calendar.moon_phases(day), calendar.era(day)


# -- through the command line, on both backends ----------------------------------------------------

class Ledger:
    """A campaign to import into; on SQLite put back from a copy before each example."""

    def __init__(self, url: str, folder: Path, template: Path | None = None) -> None:
        self.url, self.folder, self.template = url, folder, template
        self.engine = sa.create_engine(url, poolclass=NullPool)
        self.runner = CliRunner()

    def count(self) -> int:
        with self.engine.connect() as conn:
            return conn.execute(sa.text("SELECT count(*) FROM events")).scalar_one()

    def check(self, words: list[str]) -> None:
        if self.template is not None:
            live = Path(self.url[len("sqlite:///"):])
            for leftover in (live, live.with_name(live.name + "-wal"), live.with_name(live.name + "-shm")):
                leftover.unlink(missing_ok=True)
            shutil.copyfile(self.template, live)
        (self.folder / "out.toml").unlink(missing_ok=True)
        before = self.count()
        with hang_guard():
            result = self.runner.invoke(__import__("cli.main").main.app, ["--db", self.url, *words],
                                        catch_exceptions=False, env={"COLUMNS": "120", "TALLY_ACTOR": "referee"})
        said = result.stdout + result.stderr
        shown = f"{words}: exit {result.exit_code}: {said[-600:]!r}"
        assert result.exit_code in (0, 1), shown
        assert "Traceback" not in said and "internal error" not in said, shown
        if result.exit_code == 1:
            lines = result.stderr.strip().splitlines()
            assert len(lines) == 1 and lines[0].startswith("tally: "), shown
            assert self.count() == before, f"a refused import wrote events: {shown}"
            assert not (self.folder / "out.toml").exists(), f"a refused import wrote its --out: {shown}"


def prepare(t: Tally) -> None:
    t.ok("campaign", "new", "Realms", "--start", "1024-03-01")
    t.ok("player", "add", "Ann")
    t.ok("char", "new", "Bo", "--player", "Ann", "--max-hp", "4")


@pytest.fixture(scope="module")
def sqlite_ledger(tmp_path_factory) -> Ledger:
    folder = tmp_path_factory.mktemp("fuzz-imports")
    template = folder / "template.db"
    prepare(Tally(f"sqlite:///{template}"))
    engine = sa.create_engine(f"sqlite:///{template}", poolclass=NullPool)
    with engine.connect() as conn:  # everything into the main file, so a copy is the whole ledger
        conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    engine.dispose()
    ledger = Ledger(f"sqlite:///{folder / 'live.db'}", folder, template)
    yield ledger
    ledger.engine.dispose()


@pytest.fixture(scope="module")
def postgres_ledger(request, tmp_path_factory) -> Ledger:
    url = request.getfixturevalue("pg_server").new_database()
    prepare(Tally(url))
    ledger = Ledger(url, tmp_path_factory.mktemp("fuzz-imports-pg"))
    yield ledger
    ledger.engine.dispose()


def _command(data, folder: Path) -> list[str]:
    if data.draw(st.booleans()):
        kind = data.draw(st.sampled_from(sorted(ROLL_LOGS)))
        source, sample = ROLL_LOGS[kind]
        text = data.draw(sample())
        words = ["import-rolls", source, str(folder / "input")] + (["--skip-bad"] if data.draw(st.booleans()) else [])
    else:
        name = data.draw(st.sampled_from(CALENDARS))
        text = dumps(data.draw(mutated(json.loads((IMPORTS / name).read_text()))))
        words = ["calendar", "import", str(folder / "input"), "--out", str(folder / "out.toml")]
    (folder / "input").write_text(text, errors="surrogatepass")
    return words


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_imports_through_the_command_line_on_sqlite(sqlite_ledger, data):
    sqlite_ledger.check(_command(data, sqlite_ledger.folder))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_imports_through_the_command_line_on_postgresql(postgres_ledger, data):
    postgres_ledger.check(_command(data, postgres_ledger.folder))


def test_a_flavor_of_a_million_angle_brackets_is_read(campaign, tmp_path):
    # Found while fuzzing: stripping tags from "<<<<…" took time growing with the square of its length.
    message = {"_id": "m1", "speaker": {"alias": "Bo"}, "flavor": "<b>Saw</b> " + "<" * 1_000_000,
               "rolls": [json.dumps({"formula": "4", "total": 4, "dice": [], "terms": []})]}
    (tmp_path / "log.json").write_text(json.dumps([message]))
    with hang_guard():
        campaign.ok("import-rolls", "foundry", str(tmp_path / "log.json"))
    (why,) = [e["payload"]["why"] for e in campaign.ok("log", "--type", "dice.rolled", "--json").json]
    assert why.startswith("Saw <<<")  # the tag gone, the rest cut to the ledger's length for a reason


def test_the_fuzz_can_write_what_json_cannot():
    # The mutations reach the numbers that broke the readers: the fuzz is no weaker than the cases above.
    assert dumps([Raw("1e999999999"), {"a": Raw("NaN")}]) == '[1e999999999, {"a": NaN}]'
