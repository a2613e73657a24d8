"""Every command of `tally` explains itself: the whole command tree walked,
each group and command with help text, each option and argument with its
help, each named in the README, and each line of `tally --help` the command's
own. The checker is shown to catch what it is for (a help string deleted)."""

from __future__ import annotations

import copy
import re
from pathlib import Path

import typer
import typer.main

from cli.main import COMMANDS, GROUPS, app

README = Path(__file__).resolve().parent.parent / "README.md"
SUB_COMMAND = re.compile(r"[a-z][a-z0-9-]*")


def walk(command, path=()):
    """Every command and group below ``command``, loaded for real, with its path."""
    ctx = typer.Context(command, info_name=" ".join(path) or "tally")
    yield path, command
    if isinstance(command, typer.core.TyperGroup) or hasattr(command, "list_commands"):
        for name in command.list_commands(ctx):
            yield from walk(command.get_command(ctx, name), path + (name,))


def readme_paths(text: str) -> set[tuple[str, ...]]:
    """The commands the README names in `code`: a first word, and a second one
    where it looks like a sub-command (`char new NAME`, `wages show\\|pay C`),
    not an argument (`roll 1d6`, `why C FIELD`)."""
    paths = set()
    for span in re.findall(r"`([^`\n]+)`", text):
        words = span.replace("\\|", "|").split()
        if words[:1] == ["tally"]:
            words = words[1:]
        if not words:
            continue
        paths.add((words[0],))
        for alternative in (words[1].split("|") if len(words) > 1 else []):
            if SUB_COMMAND.fullmatch(alternative):
                paths.add((words[0], alternative))
    return paths


def first_paragraph(text: str | None) -> str:
    return " ".join((text or "").strip().split("\n\n")[0].split())


def problems(root, readme: str) -> list[str]:
    """What a newcomer would miss: a command without help, an option without
    help, a command the README never names."""
    named = readme_paths(readme)
    found = []
    for path, command in walk(root):
        if not path:
            continue
        where = " ".join(path)
        if not first_paragraph(command.help):
            found.append(f"`tally {where}` has no help text")
        for param in command.params:
            if param.name == "ctx" or getattr(param, "hidden", False):
                continue
            if not (getattr(param, "help", None) or "").strip():
                found.append(f"`tally {where}`: {param.opts[0]} has no help")
        if path not in named:
            found.append(f"the README does not name `{where}`")
    return found


def test_every_command_option_and_argument_has_help_and_the_readme_names_it():
    root = typer.main.get_command(app)
    commands = [path for path, _ in walk(root) if path]
    assert len(commands) >= 80 and len({p[0] for p in commands}) == len(GROUPS) + len(COMMANDS)
    assert problems(root, README.read_text(encoding="utf-8")) == []


def test_each_line_of_tally_help_is_the_commands_own():
    root = typer.main.get_command(app)
    ctx = typer.Context(root, info_name="tally")
    for name, (_, _, line) in {**GROUPS, **COMMANDS}.items():
        assert first_paragraph(root.get_command(ctx, name).help) == line, name


def test_the_checker_sees_a_deleted_help_string_an_option_without_help_and_a_command_the_readme_lacks():
    root = typer.main.get_command(app)
    ctx = typer.Context(root, info_name="tally")
    readme = README.read_text(encoding="utf-8")

    # A copy of `calendar` whose `show` lost its help text, and whose `advance` lost --why's.
    calendar = copy.deepcopy(root.get_command(ctx, "calendar"))
    calendar.commands["show"].help = None
    why = next(p for p in calendar.commands["advance"].params if p.name == "why")
    why.help = None
    tree = typer.core.TyperGroup(name="tally", commands={"calendar": calendar})
    assert problems(tree, readme) == ["`tally calendar show` has no help text",
                                      "`tally calendar advance`: --why has no help"]

    # The README without `calendar who`.
    without = readme.replace("`calendar who`", "calendar-who")
    assert set(problems(tree, without)) - set(problems(tree, readme)) == {"the README does not name `calendar who`"}


def test_readme_second_words_count_only_when_they_look_like_sub_commands():
    assert readme_paths("`roll 1d6 --dice 4`, `why C FIELD`, `wages show\\|pay C [N]`, `tally char new X`") == {
        ("roll",), ("why",), ("wages",), ("wages", "show"), ("wages", "pay"), ("char",), ("char", "new")}


def test_every_query_pinned_in_time_can_be_pinned_to_a_session():
    root = typer.main.get_command(app)
    pinned = {" ".join(path): {p.name for p in command.params} for path, command in walk(root)
              if any(p.name == "at_event" for p in command.params)}
    assert len(pinned) >= 15
    assert [where for where, names in pinned.items() if not {"as_of", "as_recorded", "at_session"} <= names] == []
