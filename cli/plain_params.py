"""Plain text and whole numbers on the command line, taken as they are.

Typer turns each parameter's value into its annotated type with a Pydantic
TypeAdapter, built the first time a command runs: importing Pydantic and
generating a schema for each of a command's dozen options costs a cold
`tally roll` about a fifth of its start. A parameter annotated ``str`` or
``int`` with no parser of its own needs none of that for the values a
referee types: text is kept as given, and digits with an optional sign are
the number they spell, exactly as the adapter would read them. Anything
else (``" 3"``, ``"3_000"``, a word where a number belongs) goes to Typer's
own adapter, built only then, so what is accepted and every message a
refusal prints stay Typer's.

Installed by cli/main.py; a Typer without this machinery (older ones
coerce through Click's types) is left as it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

_DIGITS = re.compile(r"[+-]?[0-9]{1,18}")  # ASCII only: Python's int() reads other digits, Pydantic refuses them


def install() -> None:
    try:
        from typer import core
        from typer._coercion import RuntimeParam, build_runtime_param
    except ImportError:
        return
    if getattr(core, "build_runtime_param", None) is not build_runtime_param:
        return  # already installed, or a Typer laid out otherwise

    @dataclass(frozen=True)
    class Plain(RuntimeParam):
        descriptor: Any = None
        plain: bool = False  # str or int with nothing of Typer's own to apply
        _full: list = field(default_factory=list)  # Typer's own coercion, built once a value needs it

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            kind = type(value)
            if self.plain:
                if self.annotation is str and kind is str:
                    return value
                if self.annotation is int and (kind is int or (kind is str and _DIGITS.fullmatch(value))):
                    return int(value)
            if self.annotation is bool and kind is bool:
                return value
            if not self._full:
                self._full.append(build_runtime_param(self.descriptor))
            return self._full[0]._coerce_value(value, param=param, ctx=ctx)

    def build(descriptor):
        # Typer builds a parameter's coercion before it looks at the value, None included: a
        # value that needs none (an option not given) never builds it here.
        info = descriptor.parameter_info
        plain = descriptor.annotation in (str, int) and descriptor.file_annotation is None \
            and getattr(info, "parser", None) is None and getattr(info, "click_type", None) is None \
            and not descriptor.is_ranged and not descriptor.is_choice and not descriptor.is_path
        return Plain(parameter_info=info, annotation=descriptor.annotation, descriptor=descriptor, plain=plain)

    core.build_runtime_param = build
