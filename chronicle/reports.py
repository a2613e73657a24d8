"""The chronicle's report pages of a session: its recap (the same recap
`tally recap` prints, as HTML, with its Markdown to copy) and its luck
report (`tally dice report --session N`, with a chart). Linked from the
session page; rendered like every other page (chronicle/pages.py)."""

from __future__ import annotations

from chronicle.charts import percentile_chart
from projections import luck, recap
from projections.recap_text import markdown
from projections.span import span_of
from projections.timeline import Pin


def recap_page(chronicle, pin: Pin, links, number: int) -> str:
    found, point = chronicle.read(pin, lambda c: recap.recap(c, span_of(c, number)))
    return chronicle.render("recap.html", links, point, recap=found, number=number, markdown=markdown(found),
                            title=f"Session {number}: recap")


def luck_page(chronicle, pin: Pin, links, number: int) -> str:
    found, point = chronicle.read(pin, lambda c: luck.report(c, span_of(c, number)))
    return chronicle.render("luck.html", links, point, report=found, number=number,
                            chart=percentile_chart(found["rolls"], links.event),
                            summaries=[(s, "character") for s in found["characters"]]
                            + [(s, "player") for s in found["players"]] + [(found["table"], "table")],
                            title=f"Session {number}: luck")
