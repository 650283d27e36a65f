#!/usr/bin/env python3
"""The inspector's page in a real headless Chromium (Inspecting B.7 item 4).

Usage: inspector-browser-test.py STATEMACHINE_TOOL CHART SCREENSHOT
       inspector-browser-test.py STATEMACHINE_TOOL --db DB --machine NAME SCREENSHOT
       inspector-browser-test.py --app EXECUTABLE SCREENSHOT

The first form starts `statemachine inspect CHART --port 0`, opens the URL it prints on a line of
its own, and checks, through Selenium and Debian's chromedriver (SE_OFFLINE=true: nothing is
downloaded): the highlighted initial configuration; a click on an event button that adds a log row
and moves the highlight (and flashes the edge taken); a typed event with a JSON payload; an unknown
event's rejected row; every loaded resource same-origin and no Content-Security-Policy violation;
the 401 banner without the token.

The second form opens the page of a store's rows (`statemachine inspect --db DB --machine NAME`;
the store holds media-player.json's chart with rows a, b, c, and `a` took `power`): the number of
rows in each state drawn on the diagram, a row's highlighted configuration and history, an event
fired on a row through the store (the counts and the history follow), an unknown event's rejected
row, same-origin resources.

The third form runs an app of its own that starts an inspector and prints its URL
(Examples/InspectorDemo: a package that depends on this one with the trait Inspector) and checks
its page as the first form's: the app's player has media-player.json's `off`, `power` and
`on/stopped`.

Each saves a screenshot for people to look at. Exits non-zero on any failure, printing what was
expected.
"""

import json
import os
import re
import subprocess
import sys
import threading
import time

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

URL_LINE = re.compile(r"^(http://127\.0\.0\.1:\d+/)#token=[0-9a-fA-F]{32,}$")


def fail(message):
    print(f"error: inspector browser test: {message}", file=sys.stderr)
    sys.exit(1)


def start_inspector(command):
    """Starts COMMAND (`statemachine inspect … --port 0`, or an app); returns (process, url) once it printed the URL line."""
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
    found = {}

    def read():
        for line in process.stdout:
            line = line.rstrip("\n")
            print(f"[{os.path.basename(command[0])}] {line}")
            if "url" not in found and URL_LINE.match(line):
                found["url"] = line
    threading.Thread(target=read, daemon=True).start()
    deadline = time.time() + 60
    while "url" not in found:
        if process.poll() is not None:
            fail(f"{command[0]} exited with status {process.returncode} before printing its URL")
        if time.time() > deadline:
            process.kill()
            fail(f"{command[0]} printed no URL line within 60 s")
        time.sleep(0.05)
    return process, found["url"]


def make_driver():
    options = Options()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1400,1000"):
        options.add_argument(argument)
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(executable_path=os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    return webdriver.Chrome(service=service, options=options)


def wait(driver, what, condition, seconds=15):
    try:
        return WebDriverWait(driver, seconds, poll_frequency=0.05).until(lambda d: condition(d))
    except TimeoutException:
        fail(f"timed out after {seconds} s waiting for {what}")


def fetch_json(driver, path):
    """GETs an API path from inside the page (with the page's cookie)."""
    result = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch(arguments[0], {credentials: 'same-origin'})"
        ".then(r => r.ok ? r.json() : {httpStatus: r.status}).then(done, e => done({error: String(e)}));",
        path)
    if not isinstance(result, (dict, list)) or (isinstance(result, dict) and ("error" in result or "httpStatus" in result)):
        fail(f"GET {path} from the page failed: {result}")
    return result


def active_paths(driver, paths_by_id):
    ids = driver.execute_script(
        "return Array.from(document.querySelectorAll('#diagram .active')).map(e => e.id);")
    return {paths_by_id.get(i, i) for i in ids}


def log_rows(driver):
    return driver.find_elements(By.CSS_SELECTOR, "#log tbody tr")


def rows_after(driver, count):
    rows = log_rows(driver)
    return rows[count:] if len(rows) > count else None


def open_page(driver, url):
    """Opens the printed URL; returns (object id, paths by element id, transitions by element id)."""
    driver.set_script_timeout(15)
    driver.get(url)
    wait(driver, "#connection to say connected",
         lambda d: "connected" in d.find_element(By.ID, "connection").text.lower()
         and "dis" not in d.find_element(By.ID, "connection").text.lower())
    if driver.execute_script("return location.hash") != "":
        fail("the token stayed in the address bar (the page must remove the #token fragment)")
    objects = fetch_json(driver, "/api/objects")
    objects = objects.get("objects", objects) if isinstance(objects, dict) else objects
    if not objects:
        fail(f"/api/objects lists no object: {objects}")
    object_id = objects[0]["id"]
    document = fetch_json(driver, f"/api/objects/{object_id}/definition")
    paths_by_id = {f"s{s['index']}": s["path"] for s in document["states"]}
    transitions = {f"t{t['index']}": t for t in document["transitions"]}
    return object_id, paths_by_id, transitions


def check_same_origin(driver, origin, checks):
    """Every resource the page loaded came from its own origin, and the browser reported no
    Content-Security-Policy violation (an external reference would show as one)."""
    resources = driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name);")
    foreign = [r for r in resources if not r.startswith(origin + "/")]
    if foreign:
        fail(f"resources from other origins: {foreign}")
    violations = [e["message"] for e in driver.get_log("browser") if "Content Security Policy" in e["message"]]
    if violations:
        fail(f"Content-Security-Policy violations: {violations}")
    checks.append(f"{len(resources)} resources, all from {origin}; no CSP violation")


def send_typed(driver, name, payload=""):
    """Types an event name and a JSON payload into the free field and sends it."""
    name_field = driver.find_element(By.ID, "event-name")
    name_field.clear()
    name_field.send_keys(name)
    payload_field = driver.find_element(By.ID, "event-payload")
    payload_field.clear()
    if payload:
        payload_field.send_keys(payload)
    driver.find_element(By.ID, "send-event").click()


def save_screenshot(driver, screenshot, checks):
    os.makedirs(os.path.dirname(screenshot) or ".", exist_ok=True)
    driver.save_screenshot(screenshot)
    checks.append(f"screenshot saved to {screenshot}")


def counts(driver, paths_by_id):
    pairs = driver.execute_script(
        "return Array.from(document.querySelectorAll('#diagram [data-count]'))"
        ".map(e => [e.id, e.getAttribute('data-count')]);")
    return {paths_by_id.get(i, i): int(n) for i, n in pairs}


def check_chart_page(driver, url, origin, screenshot, checks):
    object_id, paths_by_id, transitions = open_page(driver, url)
    # 1. The initial configuration is highlighted: the chart starts in `off`.
    wait(driver, "the initial configuration {'off'} highlighted",
         lambda d: active_paths(d, paths_by_id) == {"off"})
    checks.append("initial configuration highlighted: off")

    # 2. A click on `power` adds a row, moves the highlight to `on`, flashes the edge taken.
    before = len(log_rows(driver))
    button = wait(driver, "an event button for power",
                  lambda d: d.find_element(By.CSS_SELECTOR, '#event-buttons button[data-event="power"]'))
    button.click()
    flashed = wait(driver, "a flashed transition (class flash on #t<i>) after power",
                   lambda d: d.execute_script(
                       "return Array.from(document.querySelectorAll('#diagram .flash')).map(e => e.id);"),
                   seconds=5)
    if not any(transitions.get(i, {}).get("event") == "power" for i in flashed):
        fail(f"the flashed edges {flashed} are not transitions on power")
    wait(driver, "a log row with outcome transition for power",
         lambda d: any(r.get_attribute("data-outcome") == "transition"
                       and "power" in r.find_element(By.CSS_SELECTOR, ".event").text
                       for r in (rows_after(d, before) or [])))
    wait(driver, "the highlight to move to on/stopped",
         lambda d: {"on", "on/stopped"} <= active_paths(d, paths_by_id) and "off" not in active_paths(d, paths_by_id))
    wait(driver, "#state to show on/stopped", lambda d: "stopped" in d.find_element(By.ID, "state").text)
    checks.append(f"click on power: row added, highlight moved to on/stopped, edge {flashed} flashed")

    # 3. A typed event with a JSON payload shows the payload in its row.
    before = len(log_rows(driver))
    send_typed(driver, "play", '{"track": 7, "title": "Blue"}')
    row = wait(driver, "a row for the typed event play with its payload",
               lambda d: next((r for r in (rows_after(d, before) or [])
                               if "play" in r.find_element(By.CSS_SELECTOR, ".event").text
                               and "Blue" in r.find_element(By.CSS_SELECTOR, ".payload").text), None))
    checks.append(f"typed play with a JSON payload: outcome {row.get_attribute('data-outcome')}, "
                  f"payload {row.find_element(By.CSS_SELECTOR, '.payload').text!r}")

    # 4. An unknown event gives a rejected row with its reason.
    before = len(log_rows(driver))
    send_typed(driver, "noSuchEvent")
    row = wait(driver, "a rejected row for noSuchEvent",
               lambda d: next((r for r in (rows_after(d, before) or [])
                               if r.get_attribute("data-outcome") == "rejected"
                               and "noSuchEvent" in r.text), None))
    checks.append(f"unknown event rejected: {row.text!r}")

    # 5. Same-origin resources only; the screenshot.
    check_same_origin(driver, origin, checks)
    save_screenshot(driver, screenshot, checks)

    # 6. Without the token (and without the cookie), the page shows the 401 banner.
    driver.delete_all_cookies()
    driver.get(origin + "/")
    wait(driver, "the 401 banner without the token",
         lambda d: "401" in d.find_element(By.ID, "banner").text)
    checks.append("no token: 401 banner")


def check_store_page(driver, url, origin, screenshot, checks):
    _, paths_by_id, _ = open_page(driver, url)
    # 1. The rows per state, on the diagram: b and c in off, a in on/stopped (and so in on).
    wait(driver, "the counts per state drawn on the diagram (off 2, on 1, on/stopped 1)",
         lambda d: counts(d, paths_by_id) == {"off": 2, "on": 1, "on/stopped": 1})
    checks.append("store rows counted per state on the diagram: off 2, on 1, on/stopped 1")
    # 2. Picking row b highlights its configuration.
    wait(driver, "the row b in #instances", lambda d: d.find_element(By.CSS_SELECTOR, '#instances tr[data-instance="b"]')).click()
    wait(driver, "#instance-id to show b", lambda d: d.find_element(By.ID, "instance-id").text == "b")
    wait(driver, "row b's configuration {'off'} highlighted", lambda d: active_paths(d, paths_by_id) == {"off"})
    checks.append("row b picked: its configuration off highlighted")
    # 3. power on row b goes through the store: a row in the log, the counts and b's history follow.
    before = len(log_rows(driver))
    wait(driver, "an event button for power",
         lambda d: d.find_element(By.CSS_SELECTOR, '#event-buttons button[data-event="power"]')).click()
    wait(driver, "a log row with outcome transition for power on row b",
         lambda d: any(r.get_attribute("data-outcome") == "transition" and "power" in r.text
                       for r in (rows_after(d, before) or [])))
    wait(driver, "the counts to follow (off 1, on 2, on/stopped 2)",
         lambda d: counts(d, paths_by_id) == {"off": 1, "on": 2, "on/stopped": 2})
    wait(driver, "row b's history to show power", lambda d: "power" in d.find_element(By.ID, "instance").text)
    wait(driver, "row b's configuration on/stopped highlighted",
         lambda d: active_paths(d, paths_by_id) == {"on", "on/stopped"})
    checks.append("power fired on row b through the store: counts off 1, on 2; history shows it")
    # 4. An unknown event on a row is rejected, and nothing is counted differently.
    before = len(log_rows(driver))
    send_typed(driver, "noSuchEvent")
    row = wait(driver, "a rejected row for noSuchEvent on the store page",
               lambda d: next((r for r in (rows_after(d, before) or [])
                               if r.get_attribute("data-outcome") == "rejected" and "noSuchEvent" in r.text), None))
    if counts(driver, paths_by_id) != {"off": 1, "on": 2, "on/stopped": 2}:
        fail(f"a rejected event changed the counts: {counts(driver, paths_by_id)}")
    checks.append(f"unknown event on a row rejected: {row.text!r}")
    check_same_origin(driver, origin, checks)
    save_screenshot(driver, screenshot, checks)


def main():
    arguments = sys.argv[1:]
    if len(arguments) == 3 and arguments[0] == "--app":
        _, app, screenshot = arguments
        command, check = [app], check_chart_page
    elif len(arguments) == 3:
        tool, chart, screenshot = arguments
        command, check = [tool, "inspect", chart, "--port", "0"], check_chart_page
    elif len(arguments) == 6 and arguments[1] == "--db" and arguments[3] == "--machine":
        tool, _, db, _, machine, screenshot = arguments
        command, check = [tool, "inspect", "--db", db, "--machine", machine, "--port", "0"], check_store_page
    else:
        fail("usage: inspector-browser-test.py TOOL CHART SCREENSHOT | TOOL --db DB --machine NAME SCREENSHOT"
             " | --app EXECUTABLE SCREENSHOT")
    process, url = start_inspector(command)
    origin = URL_LINE.match(url).group(1).rstrip("/")
    driver = make_driver()
    checks = []
    try:
        check(driver, url, origin, screenshot, checks)
    finally:
        driver.quit()
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
    for check in checks:
        print(f"ok: {check}")
    print(f"inspector browser test passed ({len(checks)} checks)")


if __name__ == "__main__":
    main()
