import Foundation
import Testing

/// `statemachine store …` on a SQLite file and on PostgreSQL: each subcommand, its exit statuses
/// and its `--json` shape (Persistence §11), run as the built executable; the same output on
/// both databases.
@Suite("statemachine store: the subcommands", .timeLimit(.minutes(3)))
struct StoreCommandTests {
  @Test(
    "init creates the tables and stores the chart; again with the same chart changes nothing; sqlite:PATH and postgresql:// work",
    arguments: StoreDatabaseKind.enabled)
  func initStoresTheChart(kind: StoreDatabaseKind) async throws {
    let store = try await StoreFixture(kind)
    defer { store.remove() }
    let chart = try store.file("device.json", StoreCharts.device)
    let first = try await store.run("init", chart)
    #expect(first.status == 0, "\(first.stderr)")
    let stored = try await store.rows("SELECT format, document FROM sm_machines WHERE machine = 'm'")
    #expect(stored.first?["format"] as? String == "json")
    #expect(stored.first?["document"] as? String == StoreCharts.device)
    // updated_at: milliseconds since the epoch on SQLite, a timestamptz on PostgreSQL.
    let recent =
      kind == .sqlite ? "updated_at > 0" : "updated_at > now() - interval '1 hour' AND updated_at <= now()"
    #expect(try await store.int("SELECT COUNT(*) FROM sm_machines WHERE \(recent)") == 1)
    let before = try await store.contents()
    let again = try await store.run("init", chart, db: store.otherSpelling)
    #expect(again.status == 0, "\(again.stderr)")
    #expect(try await store.contents() == before)
  }

  @Test(
    "insert puts new instances in the initial configuration at version 0, deadlines armed (P8)",
    arguments: StoreDatabaseKind.enabled)
  func insertArmsDeadlines(kind: StoreDatabaseKind) async throws {
    let store = try await StoreFixture(kind)
    defer { store.remove() }
    try await store.setUp(StoreCharts.device)
    let inserted = try await store.run("insert", "a", "b")
    #expect(inserted.status == 0, "\(inserted.stderr)")
    #expect(inserted.lines == ["a: off", "b: off"])
    let rows = try await store.rows(
      "SELECT entity_id, state, sm_version FROM sm_instances WHERE machine = 'm' ORDER BY entity_id")
    #expect(rows.map { $0["entity_id"] as? String } == ["a", "b"])
    #expect(rows.allSatisfy { $0["state"] as? String == "off" && $0["sm_version"] as? Int == 0 })

    // A chart whose initial state has a timeout: insert arms it.
    let timer = try await StoreFixture(kind, machine: "timer")
    defer { timer.remove() }
    try await timer.setUp(StoreCharts.timer, ids: ["t"])
    let shown = try await timer.run("show", "t", "--json").object()
    let deadlines = try #require(shown["deadlines"] as? [[String: Any]])
    #expect(deadlines.count == 1)
    #expect(deadlines.first?["state"] as? String == "waiting")
  }

  @Test(
    "fire: exit 0 with --json {outcome, reason, state, version}; the row, history and deadlines follow (P1, P8)",
    arguments: StoreDatabaseKind.enabled)
  func fireTransition(kind: StoreDatabaseKind) async throws {
    let store = try await StoreFixture(kind)
    defer { store.remove() }
    try await store.setUp(StoreCharts.device, ids: ["a"])
    let text = try await store.run("fire", "a", "power")
    #expect(text.status == 0, "\(text.stderr)")
    #expect(text.lines == ["a: off -> on/idle (version 1)"])
    let fired = try await store.run("fire", "a", "work", "--json")
    #expect(fired.status == 0, "\(fired.stderr)")
    let object = try fired.object()
    #expect(Set(object.keys) == ["outcome", "reason", "state", "version"])
    #expect(object["outcome"] as? String == "transition")
    #expect(object["reason"] is NSNull)
    #expect(object["state"] as? String == "on/busy")
    #expect(object["version"] as? Int == 2)
    let deadlines = try await store.strings("SELECT state FROM sm_deadlines WHERE machine = 'm' AND entity_id = 'a'")
    #expect(deadlines == ["on/busy"])
    // Leaving on/busy deletes its deadline in the same step (P8).
    #expect(try await store.run("fire", "a", "rest").status == 0)
    #expect(try await store.int("SELECT COUNT(*) FROM sm_deadlines") == 0)
  }

  @Test(
    "fire: exit 3 when the machine rejects the event, the reason on stderr, nothing written (P3)",
    arguments: StoreDatabaseKind.enabled)
  func fireRejected(kind: StoreDatabaseKind) async throws {
    let store = try await StoreFixture(kind)
    defer { store.remove() }
    try await store.setUp(StoreCharts.device, ids: ["a"])
    let before = try await store.contents()
    let rejected = try await store.run("fire", "a", "work", "--json")
    #expect(rejected.status == 3)
    #expect(rejected.errorLines.count == 1)
    #expect(rejected.stderr.hasPrefix("rejected: "))
    #expect(rejected.stderr.contains("work"))
    let object = try rejected.object()
    #expect(Set(object.keys) == ["outcome", "reason", "state", "version"])
    #expect(object["outcome"] as? String == "rejected")
    #expect((object["reason"] as? String)?.isEmpty == false)
    #expect(object["state"] as? String == "off")
    #expect(object["version"] as? Int == 0)
    #expect(try await store.contents() == before)

    // A terminated row rejects every event.
    #expect(try await store.run("fire", "a", "retire").status == 0)
    let terminated = try await store.run("fire", "a", "power")
    #expect(terminated.status == 3)
    #expect(terminated.stderr.hasPrefix("rejected: "))
    #expect(try await store.run("show", "a", "--json").object()["terminated"] as? Bool == true)
  }

  @Test(
    "show: state, configuration, version, terminated, deadlines with dueAt; --json has exactly Persistence §11's keys",
    arguments: StoreDatabaseKind.enabled)
  func show(kind: StoreDatabaseKind) async throws {
    let store = try await StoreFixture(kind)
    defer { store.remove() }
    try await store.setUp(StoreCharts.device, ids: ["a"])
    #expect(try await store.run("fire", "a", "power").status == 0)
    let start = Date()
    #expect(try await store.run("fire", "a", "work").status == 0)
    let object = try await store.run("show", "a", "--json").object()
    #expect(Set(object.keys) == ["id", "state", "configuration", "version", "terminated", "deadlines"])
    #expect(object["id"] as? String == "a")
    #expect(object["state"] as? String == "on/busy")
    #expect(object["configuration"] as? [String] == ["on", "on/busy"])
    #expect(object["version"] as? Int == 2)
    #expect(object["terminated"] as? Bool == false)
    let deadlines = try #require(object["deadlines"] as? [[String: Any]])
    try #require(deadlines.count == 1)
    #expect(Set(deadlines[0].keys) == ["state", "event", "dueAt"])
    #expect(deadlines[0]["state"] as? String == "on/busy")
    #expect((deadlines[0]["event"] as? String)?.isEmpty == false)
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    let due = try #require((deadlines[0]["dueAt"] as? String).flatMap(formatter.date(from:)))
    #expect(due > start.addingTimeInterval(1.4) && due < Date().addingTimeInterval(1.6))

    let text = try await store.run("show", "a")
    #expect(text.status == 0)
    #expect(text.lines.contains("state: on/busy"))
    #expect(text.lines.contains("version: 2"))
  }

  @Test(
    "history: the transitions oldest first, payload and request id kept (P2, P6)",
    arguments: StoreDatabaseKind.enabled)
  func history(kind: StoreDatabaseKind) async throws {
    let store = try await StoreFixture(kind)
    defer { store.remove() }
    try await store.setUp(StoreCharts.device, ids: ["a"])
    let request = UUID().uuidString
    #expect(try await store.run("fire", "a", "power", "--payload", #"{"by": "operator", "n": 2}"#).status == 0)
    #expect(try await store.run("fire", "a", "work", "--request-id", request).status == 0)
    let lines = try await store.run("history", "a", "--json").objects()
    try #require(lines.count == 2)
    #expect(lines.map { $0["version"] as? Int } == [1, 2])
    #expect(lines.map { $0["event"] as? String } == ["power", "work"])
    #expect(lines.map { $0["from"] as? String } == ["off", "on/idle"])
    #expect(lines.map { $0["to"] as? String } == ["on/idle", "on/busy"])
    #expect(lines.allSatisfy { $0["cause"] as? String == "event" })
    #expect(Set(lines[0].keys) == ["version", "event", "from", "to", "cause", "payload", "requestId", "dueAt", "at"])
    let payload = try #require(lines[0]["payload"] as? [String: Any])
    #expect(payload["by"] as? String == "operator")
    #expect(payload["n"] as? Int == 2)
    #expect(lines[1]["requestId"] as? String == request)
    let text = try await store.run("history", "a")
    #expect(text.lines.count == 2)
    #expect(text.lines.first?.hasPrefix("1 ") == true)
    #expect(text.lines.first?.contains("power: off -> on/idle") == true)
  }

  @Test(
    "list: every id, or those in a state; a compound state matches its descendants (P14)",
    arguments: StoreDatabaseKind.enabled)
  func list(kind: StoreDatabaseKind) async throws {
    let store = try await StoreFixture(kind)
    defer { store.remove() }
    try await store.setUp(StoreCharts.device, ids: ["a", "b", "c", "d"])
    for (id, events) in [("a", ["power"]), ("b", ["power", "work"]), ("d", ["retire"])] {
      for event in events { #expect(try await store.run("fire", id, event).status == 0) }
    }
    #expect(try await store.run("list").lines == ["a", "b", "c", "d"])
    #expect(try await store.run("list", "--state", "on").lines == ["a", "b"])
    #expect(try await store.run("list", "--state", "on/busy").lines == ["b"])
    #expect(try await store.run("list", "--state", "busy").lines == ["b"])
    #expect(try await store.run("list", "--state", "off").lines == ["c"])
    let objects = try await store.run("list", "--state", "on", "--json").objects()
    #expect(objects.map { Set($0.keys) } == [["id", "state"], ["id", "state"]])
    #expect(objects.map { $0["id"] as? String } == ["a", "b"])
    #expect(objects.map { $0["state"] as? String } == ["on/idle", "on/busy"])
    let unknown = try await store.run("list", "--state", "nowhere")
    #expect(unknown.status == 1)
    #expect(unknown.errorLines.count == 1)
  }

  @Test(
    "run-due --once fires the due timeouts and prints the number; history says timeout and due_at (P9)",
    arguments: StoreDatabaseKind.enabled)
  func runDueOnce(kind: StoreDatabaseKind) async throws {
    let store = try await StoreFixture(kind)
    defer { store.remove() }
    try await store.setUp(StoreCharts.device, ids: ["a", "b"])
    for id in ["a", "b"] { #expect(try await store.run("fire", id, "power").status == 0) }
    let working = Date()
    for id in ["a", "b"] { #expect(try await store.run("fire", id, "work").status == 0) }
    // Due 1.5 s after each `work`: nothing yet (unless this machine was too slow to tell).
    let early = try await store.run("run-due", "--once")
    #expect(early.status == 0)
    if Date().timeIntervalSince(working) < 1.4 { #expect(early.lines == ["0"]) }
    try await Task.sleep(for: .milliseconds(1600))
    let ran = try await store.run("run-due", "--once")
    #expect(ran.status == 0, "\(ran.stderr)")
    // Each timeout fired once, by one pass or the other.
    #expect(ran.lines.count == 1 && early.lines.count == 1)
    #expect((Int(ran.lines.first ?? "") ?? -1) + (Int(early.lines.first ?? "") ?? -1) == 2)
    for id in ["a", "b"] {
      let history = try await store.run("history", id, "--json").objects()
      #expect(history.count == 3)
      let last = try #require(history.last)
      #expect(last["cause"] as? String == "timeout")
      #expect(last["to"] as? String == "on/idle")
      #expect(last["dueAt"] is String)
    }
    #expect(try await store.run("run-due", "--once").lines == ["0"])
  }

  @Test(
    "run-due without --once polls until interrupted",
    .timeLimit(.minutes(1)), arguments: StoreDatabaseKind.enabled)
  func runDueLoops(kind: StoreDatabaseKind) async throws {
    let store = try await StoreFixture(kind)
    defer { store.remove() }
    try await store.setUp(StoreCharts.device, ids: ["a"])
    #expect(try await store.run("fire", "a", "power").status == 0)
    let running = try store.start("run-due", [])
    #expect(try await store.run("fire", "a", "work").status == 0)
    var state = ""
    for _ in 0..<100 where state != "on/idle" {
      try await Task.sleep(for: .milliseconds(100))
      state = try await store.run("show", "a", "--json").object()["state"] as? String ?? ""
    }
    #expect(state == "on/idle", "the polling run-due did not fire the timeout")
    #expect(running.process.isRunning)
    running.process.interrupt()
    let output = try await running.wait()
    #expect(output.lines == ["1"])
  }

  @Test(
    "verify: exit 0 and clean; exit 1 naming a missing deadline (P12)",
    arguments: StoreDatabaseKind.enabled)
  func verify(kind: StoreDatabaseKind) async throws {
    let store = try await StoreFixture(kind)
    defer { store.remove() }
    try await store.setUp(StoreCharts.device, ids: ["a"])
    #expect(try await store.run("fire", "a", "power").status == 0)
    #expect(try await store.run("fire", "a", "work").status == 0)
    let clean = try await store.run("verify")
    #expect(clean.status == 0)
    #expect(clean.lines == ["clean"])
    try await store.sql("DELETE FROM sm_deadlines")
    let broken = try await store.run("verify")
    #expect(broken.status == 1)
    #expect(broken.lines.count == 1)
    #expect(broken.lines.first?.hasPrefix("missing deadline: row 'a'") == true)
  }

  @Test(
    "migrate replaces the chart; later commands read the new one",
    arguments: StoreDatabaseKind.enabled)
  func migrate(kind: StoreDatabaseKind) async throws {
    let store = try await StoreFixture(kind)
    defer { store.remove() }
    try await store.setUp(StoreCharts.device, ids: ["a"])
    let extended = StoreCharts.device.replacingOccurrences(
      of: #""retire": "retired" }"#, with: #""retire": "retired", "repair": "workshop" }"#
    ).replacingOccurrences(of: #""retired": { "type": "final" }"#, with: #""retired": { "type": "final" }, "workshop": {}"#)
    #expect(try await store.run("fire", "a", "repair").status == 1)
    let migrated = try await store.run("migrate", try store.file("extended.json", extended))
    #expect(migrated.status == 0, "\(migrated.stderr)")
    #expect(try await store.strings("SELECT document FROM sm_machines") == [extended])
    let fired = try await store.run("fire", "a", "repair", "--json")
    #expect(fired.status == 0, "\(fired.stderr)")
    #expect(try fired.object()["state"] as? String == "workshop")
  }
}

extension StoreCommandTests {
  @Test(
    "SCXML and TBStateMachine charts are stored with their format and load back; machines share a file",
    arguments: StoreDatabaseKind.enabled)
  func formats(kind: StoreDatabaseKind) async throws {
    let definitions = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../../Examples/Definitions").standardized
    let oven = try await StoreFixture(kind, machine: "oven")
    defer { oven.remove() }
    #expect(try await oven.run("init", definitions.appendingPathComponent("microwave.scxml").path).status == 0)
    #expect(try await oven.run("insert", "k").status == 0)
    let fired = try await oven.run("fire", "k", "turn.on", "--json")
    #expect(fired.status == 0, "\(fired.stderr)")
    #expect(try fired.object()["state"] as? String == "oven/engine/on/cooking,oven/door/closed")

    let door = StoreFixture(sharing: oven, machine: "door")
    #expect(try await door.run("init", definitions.appendingPathComponent("door.tb.json").path).status == 0)
    #expect(try await door.run("insert", "d").status == 0)
    #expect(try await door.run("show", "d", "--json").object()["configuration"] as? [String] == ["closed", "closed/unlocked"])
    let formats = try await oven.strings("SELECT machine || ':' || format FROM sm_machines ORDER BY machine")
    #expect(formats == ["door:json", "oven:scxml"])
    #expect(try await door.run("list").lines == ["d"])
    #expect(try await oven.run("list").lines == ["k"])
  }
}

extension StoreCharts {
  /// An initial state with a timeout.
  static let timer = """
    { "initial": "waiting", "states": {
        "waiting": { "after": [ { "seconds": 0.2, "target": "done" } ] }, "done": {} } }
    """
}
