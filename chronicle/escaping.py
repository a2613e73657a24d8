"""Data a page carries for its scripts, inside <script type="application/json">.

The HTML tokenizer reads a script block's text before any JSON parser does:
``</script`` ends the block, and ``<!--`` followed by ``<script`` puts it in
the "script data double escaped" state, where the block's real end tag no
longer ends it and the rest of the page is swallowed. A player's client
seed, a --why or a calendar's month name can hold either. So, as the HTML
standard's advice on script content says, every ``<``, ``>`` and ``&`` is
written as a JSON escape (``\\u003c`` …), which JSON.parse reads back as the
same character; U+2028 and U+2029 too, for the scripts of engines that once
took them for line ends. What is left has no markup in it at all."""

from __future__ import annotations

import json
from typing import Any

from markupsafe import Markup

_ESCAPES = {ord("<"): "\\u003c", ord(">"): "\\u003e", ord("&"): "\\u0026",
            0x2028: "\\u2028", 0x2029: "\\u2029"}


def script_json(value: Any) -> Markup:
    """``value`` as JSON safe to put between <script type="application/json"> and </script>."""
    return Markup(json.dumps(value, ensure_ascii=True).translate(_ESCAPES))
