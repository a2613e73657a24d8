"""The one source of "now" (transaction time); freezegun drives it in tests."""

from datetime import datetime, timezone

ISO_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


def format_instant(moment: datetime) -> str:
    """Fixed width, so string order is time order: ISO_FORMAT's text
    (isoformat writes it, in C, a third of strftime's time: every append asks)."""
    return moment.astimezone(timezone.utc).replace(tzinfo=None).isoformat(timespec="microseconds") + "Z"


class InstantOutOfRange(ValueError):
    """A timestamp that reads but whose UTC instant falls outside the years 1-9999."""


def parse_instant(text: str) -> datetime:
    """An ISO 8601 timestamp; one without a zone is taken as UTC. ValueError if it
    does not read; InstantOutOfRange if it is 9999-12-31T23:00-05:00 or the like."""
    moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    try:
        return moment.astimezone(timezone.utc)
    except OverflowError:
        raise InstantOutOfRange(text) from None
