"""The weeks between sessions (004 l.634-648): downtime actions and project clocks."""

from typing import Literal, Optional

from ledger.events.registry import EventModel, register


@register
class DowntimeActed(EventModel):
    type: Literal["downtime.acted"] = "downtime.acted"
    character: str
    action: str
    project: Optional[str] = None
    available_before: int


@register
class ProjectStarted(EventModel):
    type: Literal["project.started"] = "project.started"
    name: str
    owner: str
    ticks: int  # l.648: 2-4 modest, 4-8 serious


@register
class ProjectTicked(EventModel):
    """One tick on a project's clock of ``ticks``; the fold counts them."""

    type: Literal["project.ticked"] = "project.ticked"
    schema_version = 3
    name: str
    by: str
    ticks: int
    period: str  # the session it counts in (from its opening to the next's), "" before schema 3
    rule: str  # project_ticks in force: session (one tick a session, l.648) | action
