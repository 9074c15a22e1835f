#!/usr/bin/env python3
"""The regex peer of the MoBatch parse (bench/monitoring-parse.mjs, issue 48).

What an engineer would otherwise write: a plain Python script that opens the MoBatch zip, splits each
node log at its `<node>> <command>` prompts, and reads the alt, st, hget and get tables with regular
expressions into lists of tuples, one list per table, every row of every log held to the end (a script
then writes them out or hands them to pandas). It reads what the parse job stores: alarms (both alt
tables), MO states, hget rows by column, get attribute values, and mobatch_result.txt's unreachable nodes.

Usage: mobatch_regex.py <archive.zip>  — prints one JSON line of counts (and the seconds it took, wall
and CPU) so the bench can check both sides read the same rows.
"""

import json
import re
import sys
import time
import zipfile

# `BX00001> alt` (optionally behind an `<ip>: ` prefix, which every line of such a file carries).
PROMPT = re.compile(r"^(?P<node>[A-Za-z0-9_.\-]+)> ?(?P<command>.*?)\s*$", re.M)
IP_PREFIX = re.compile(r"^\d{1,3}(?:\.\d{1,3}){3}: ?", re.M)
RULE = re.compile(r"^={20,}\s*$", re.M)

# alt: `2025-03-03 21:12:05 w Enclosure Door Open   Equipment=1,Cabinet=1 (Door sensor) [operator]`
ALARM = re.compile(
    r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) ([CMmw*]) (.+?) +((?:[A-Za-z][\w-]*=[^,\s]+)(?:,[A-Za-z][\w-]*=[^,\s]+)*)"
    r"(?: \((.*)\))?(?: (\S+))?\s*$",
    re.M,
)
ALARM_TOTAL = re.compile(r"^>>> Total: (\d+) Alarms", re.M)
# st: `   577  1 (UNLOCKED)  1 (ENABLED)   ENodeBFunction=1,EUtranCellFDD=BX00001_L800_1`
STATE = re.compile(r"^\s*(\d+)\s+(?:(\d) \((\w+)\))?\s+(\d) \((\w+)\)\s+(\S+)\s*$", re.M)
# get: `ENodeBFunction=1,EUtranCellFDD=BX00001_L800_1   cellBarred   1 (NOT_BARRED)`
ATTRIBUTE = re.compile(r"^(\S+=\S+)\s+([A-Za-z]\w*)\s+(.*?)\s*$", re.M)
# mobatch_result.txt: `no contact  0m15s  BX00003`
RESULT = re.compile(r"^(OK|no contact|.+?)\s+(\d+m\d+s)\s+(\S+)\s*$", re.M)


def tables_of(body):
    """The text between a block's second rule and its closing rule (or its end)."""
    rules = [m.end() for m in RULE.finditer(body)]
    if len(rules) < 2:
        return None, None
    header_start = rules[0]
    header = body[header_start : body.rfind("\n", 0, rules[1] - 1)].strip("\n")
    end = rules[2] if len(rules) > 2 else len(body)
    return header, body[rules[1] : end]


def hget_rows(body, node, out):
    """hget prints one column per attribute: the header's words give each column's start."""
    header, rows = tables_of(body)
    if header is None:
        return
    starts = [m.start() for m in re.finditer(r"\S+", header)]
    names = header.split()
    for line in rows.splitlines():
        if not line or line.startswith("=") or line.startswith("Total:"):
            continue
        values = [line[a:b].strip() for a, b in zip(starts, starts[1:] + [len(line)])]
        out.append((node, values[0], dict(zip(names[1:], values[1:]))))


def parse_log(text, name, tables):
    if IP_PREFIX.match(text):
        text = IP_PREFIX.sub("", text)
    prompts = list(PROMPT.finditer(text))
    for i, prompt in enumerate(prompts):
        end = prompts[i + 1].start() if i + 1 < len(prompts) else len(text)
        body = text[prompt.end() : end]
        node = prompt.group("node")
        command = prompt.group("command")
        family = command.split(" ", 1)[0]
        if family == "alt":
            for m in ALARM.finditer(body):
                tables["alarms"].append((node, m.group(1), m.group(2), m.group(3), m.group(4), m.group(5), m.group(6), name))
        elif family == "st":
            for m in STATE.finditer(body):
                tables["states"].append((node, m.group(6), m.group(3), m.group(5), name))
        elif family == "hget":
            hget_rows(body, node, tables["hget"])
        elif family == "get":
            _, rows = tables_of(body)
            if rows is not None:
                for m in ATTRIBUTE.finditer(rows):
                    tables["attributes"].append((node, m.group(1), m.group(2), m.group(3), name))


def main(path):
    started = time.perf_counter()
    cpu_started = time.process_time()
    tables = {"alarms": [], "states": [], "hget": [], "attributes": [], "unreachable": []}
    logs = 0
    with zipfile.ZipFile(path) as archive:
        for info in archive.infolist():
            name = info.filename
            base = name.rsplit("/", 1)[-1].lower()
            if base == "mobatch_result.txt":
                text = archive.read(info).decode("utf-8", "replace")
                for m in RESULT.finditer(text):
                    if m.group(1) != "OK":
                        tables["unreachable"].append((m.group(3), m.group(1)))
                continue
            if not base.endswith(".log"):
                continue
            logs += 1
            parse_log(archive.read(info).decode("utf-8", "replace").replace("\r\n", "\n"), name, tables)
    seconds = time.perf_counter() - started
    cpu_seconds = time.process_time() - cpu_started
    print(json.dumps({"logs": logs, "seconds": seconds, "cpu_seconds": cpu_seconds, **{k: len(v) for k, v in tables.items()}}))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: mobatch_regex.py <archive.zip>")
    main(sys.argv[1])
