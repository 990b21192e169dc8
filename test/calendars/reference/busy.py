"""Reference busy time for the differential test (test/calendars/differential.test.ts) and the bench.

Runs Python's recurring-ical-events with icalendar (pip-installed, pinned, by scripts/bootstrap.js into
the tools cache; test/helpers/ical-reference.ts puts that folder on PYTHONPATH). Reads a JSON job on
stdin: {"hostZone": "Europe/Berlin", "files": [{"path": "...", "windows": [[fromMs, toMs], ...]}]}.
Prints one JSON object: {path: {"windows": [[[startMs, endMs], ...] per window]} or {"error": "..."}}
and, under "_seconds", the time spent parsing and expanding (for the bench).

Busy time follows docs/calendars.md: VEVENTs only; STATUS:CANCELLED and TRANSP:TRANSPARENT block
nothing; an all-day date is the host's local midnight; a floating time is the host's wall clock;
zero-length occurrences block nothing; only intervals overlapping the window are kept.
"""
import datetime as dt
import json
import sys
import time
from zoneinfo import ZoneInfo

import icalendar
import recurring_ical_events

DAY = dt.timedelta(days=2)


def to_ms(value, zone):
    if isinstance(value, dt.datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=zone)
        return round(value.timestamp() * 1000)
    # a date: the host's local midnight
    return round(dt.datetime(value.year, value.month, value.day, tzinfo=zone).timestamp() * 1000)


def blocks(event):
    status = str(event.get("STATUS", "")).strip().lower()
    transp = str(event.get("TRANSP", "")).strip().lower()
    return status != "cancelled" and transp != "transparent"


def busy(calendars, window, zone):
    start = dt.datetime.fromtimestamp(window[0] / 1000, tz=dt.timezone.utc) - DAY
    stop = dt.datetime.fromtimestamp(window[1] / 1000, tz=dt.timezone.utc) + DAY
    out = []
    for cal in calendars:
        for event in recurring_ical_events.of(cal).between(start, stop):
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
            with open(f["path"], "rb") as fh:
                calendars = icalendar.Calendar.from_ical(fh.read(), multiple=True)
            result[f["path"]] = {"windows": [busy(calendars, w, zone) for w in f["windows"]]}
        except Exception as error:  # noqa: BLE001 - any failure is "the reference rejects the file"
            result[f["path"]] = {"error": f"{type(error).__name__}: {error}"}
        spent += time.perf_counter() - t0
    result["_seconds"] = spent
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()
