"""Second reference busy time for the differential test (test/calendars/differential.test.ts).

Runs Python's `ical` package (the one Home Assistant uses; its own RFC 5545 parser and recurrence code,
independent of icalendar and recurring-ical-events), pip-installed and pinned by scripts/bootstrap.js
into the tools cache beside the first reference (test/helpers/ical-reference.ts puts that folder on
PYTHONPATH). Same job on stdin and the same answer on stdout as busy.py:
{path: {"windows": [[[startMs, endMs], ...] per window]} or {"error": "..."}}, plus "_seconds".

Busy time follows docs/calendars.md, as busy.py reads it: VEVENTs only; STATUS:CANCELLED and
TRANSP:TRANSPARENT block nothing; an all-day date is the host's local midnight; a floating time is the
host's wall clock; zero-length occurrences block nothing; only intervals overlapping the window are kept.
"""
import datetime as dt
import json
import logging
import sys
import time
from zoneinfo import ZoneInfo

from ical.calendar_stream import CalendarStream

logging.disable(logging.CRITICAL)
SLACK = dt.timedelta(days=2)


def to_ms(value, zone):
    if isinstance(value, dt.datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=zone)
        return round(value.timestamp() * 1000)
    # a date: the host's local midnight
    return round(dt.datetime(value.year, value.month, value.day, tzinfo=zone).timestamp() * 1000)


def blocks(event):
    status = str(event.status.value if event.status is not None else "").strip().lower()
    transp = str(event.transparency or "").strip().lower()
    return status != "cancelled" and transp != "transparent"


def busy(calendars, window, zone):
    start = dt.datetime.fromtimestamp(window[0] / 1000, tz=zone) - SLACK
    stop = dt.datetime.fromtimestamp(window[1] / 1000, tz=zone) + SLACK
    out = []
    for cal in calendars:
        for event in cal.timeline_tz(zone).overlapping(start, stop):
            if not blocks(event):
                continue
            s = to_ms(event.start, zone)
            e = to_ms(event.end, zone)
            if e > s and s < window[1] and e > window[0]:
                out.append([s, e])
    out.sort()
    return out


def main():
    job = json.load(sys.stdin)
    zone = ZoneInfo(job["hostZone"])
    result = {}
    spent = 0.0
    for f in job["files"]:
        t0 = time.perf_counter()
        try:
            with open(f["path"], "r", encoding="utf-8", errors="replace") as fh:
                calendars = CalendarStream.from_ics(fh.read()).calendars
            result[f["path"]] = {"windows": [busy(calendars, w, zone) for w in f["windows"]]}
        except Exception as error:  # noqa: BLE001 - any failure is "the reference rejects the file"
            result[f["path"]] = {"error": f"{type(error).__name__}: {str(error)[:300]}"}
        spent += time.perf_counter() - t0
    result["_seconds"] = spent
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()
