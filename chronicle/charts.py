"""Server-side SVG charts of a figure over game time: a step line (a figure
holds its value until the next change), each change a dot linking to its
`why`. No JavaScript is needed to see them."""

from __future__ import annotations

from html import escape
from typing import Callable, Sequence

from markupsafe import Markup

WIDTH, HEIGHT, PAD = 560, 140, 34


def step_chart(title: str, points: Sequence[tuple[int, int]], first_day: int, last_day: int,
               date: Callable[[int], str], href: str, chart_id: str) -> Markup:
    """``points``: (day, value) where the figure changed, oldest first."""
    if not points:
        return Markup(f'<p class="nochart">{escape(title)}: no change recorded</p>')
    last_day = max(last_day, points[-1][0], first_day + 1)
    first_day = min(first_day, points[0][0])
    values = [v for _, v in points]
    low, high = min(0, *values), max(0, *values)
    if high == low:
        high = low + 1

    def x(day: int) -> float:
        return PAD + (WIDTH - 2 * PAD) * (day - first_day) / (last_day - first_day)

    def y(value: int) -> float:
        return HEIGHT - PAD + (2 * PAD - HEIGHT) * (value - low) / (high - low)

    path, previous = [], None
    for day, value in points:
        if previous is None:
            path.append(f"M{x(day):.1f},{y(value):.1f}")
        else:
            path.append(f"H{x(day):.1f}V{y(value):.1f}")
        previous = value
    path.append(f"H{x(last_day):.1f}")
    dots = "".join(
        f'<a href="{escape(href)}"><circle cx="{x(d):.1f}" cy="{y(v):.1f}" r="3.5">'
        f'<title>{escape(date(d))}: {v}</title></circle></a>' for d, v in points)
    return Markup(
        f'<figure class="chart" id="{escape(chart_id)}"><figcaption><a href="{escape(href)}">{escape(title)}</a>'
        f' now <span class="value">{values[-1]}</span></figcaption>'
        f'<svg viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" role="img" '
        f'aria-label="{escape(title)} over game time">'
        f'<line class="axis" x1="{PAD}" y1="{y(low):.1f}" x2="{WIDTH - PAD}" y2="{y(low):.1f}"/>'
        f'<text x="2" y="{y(high) + 4:.1f}">{high}</text><text x="2" y="{y(low) + 4:.1f}">{low}</text>'
        f'<text x="{PAD}" y="{HEIGHT - 6}">{escape(date(first_day))}</text>'
        f'<text x="{WIDTH - PAD}" y="{HEIGHT - 6}" text-anchor="end">{escape(date(last_day))}</text>'
        f'<path d="{"".join(path)}"/>{dots}</svg></figure>')


def timeline_band(rows: Sequence[dict], first_day: int, last_day: int, date: Callable[[int], str],
                  href: Callable[[int], str]) -> Markup:
    """Sessions (dark, linking to their pages) and downtime (light) along the campaign's calendar."""
    if not rows:
        return Markup("")
    last_day = max(last_day, first_day + 1)

    def x(day: int) -> float:
        return 10 + (WIDTH * 1.5 - 20) * (day - first_day) / (last_day - first_day)

    bars = []
    for r in rows:
        left, right = x(r["from_day"]), max(x(r["to_day"]), x(r["from_day"]) + 2)
        label = (f"Session {r['number']}: {r['start']} to {r['end'] or '…'}" if r["kind"] == "session"
                 else f"downtime: {r['from']} to {r['to']}")
        rect = (f'<rect class="{escape(r["kind"])}" x="{left:.1f}" y="20" width="{right - left:.1f}" height="24">'
                f'<title>{escape(label)}</title></rect>')
        bars.append(f'<a href="{escape(href(r["number"]))}">{rect}</a>' if r["kind"] == "session" else rect)
    return Markup(
        f'<svg class="band" viewBox="0 0 {WIDTH * 1.5:.0f} 64" width="{WIDTH * 1.5:.0f}" height="64" role="img" '
        f'aria-label="sessions and downtime on the calendar">{"".join(bars)}'
        f'<text x="10" y="60">{escape(date(first_day))}</text>'
        f'<text x="{WIDTH * 1.5 - 10:.0f}" y="60" text-anchor="end">{escape(date(last_day))}</text></svg>')


def percentile_chart(rolls: Sequence[dict], href: Callable[[int], str], chart_id: str = "chart-luck") -> Markup:
    """Each roll's percentile in its own distribution (0: the worst it could roll, 100: the best), in
    the order rolled, about the even line at 50; each dot links to its roll."""
    shown = [r for r in rolls if r.get("percentile") is not None]
    if not shown:
        return Markup('<p class="nochart">No roll with odds to chart</p>')
    step = (WIDTH - 2 * PAD) / max(len(shown) - 1, 1)

    def x(i: int) -> float:
        return PAD + step * i if len(shown) > 1 else WIDTH / 2

    def y(value: float) -> float:
        return HEIGHT - PAD + (2 * PAD - HEIGHT) * value

    dots = "".join(
        f'<a href="{escape(href(r["position"]))}"><circle class="{"hand" if r["hand"] else "derived"}" '
        f'cx="{x(i):.1f}" cy="{y(r["percentile"]):.1f}" r="4"><title>#{r["position"]} '
        f'{escape(r["character"] or "")} {escape(r["expression"])} = {r["total"]}: percentile '
        f'{r["percentile"] * 100:.0f}, P(as good or better) {escape(r["p_at_least"])}</title></circle></a>'
        for i, r in enumerate(shown))
    return Markup(
        f'<figure class="chart luck" id="{escape(chart_id)}"><figcaption>Each roll\'s percentile, in the order '
        f'rolled (hollow: by hand)</figcaption>'
        f'<svg viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" role="img" '
        f'aria-label="each roll\'s percentile in the order rolled">'
        f'<line class="axis" x1="{PAD}" y1="{y(0.5):.1f}" x2="{WIDTH - PAD}" y2="{y(0.5):.1f}"/>'
        f'<text x="2" y="{y(1) + 4:.1f}">100</text><text x="2" y="{y(0.5) + 4:.1f}">50</text>'
        f'<text x="2" y="{y(0) + 4:.1f}">0</text>{dots}</svg></figure>')
