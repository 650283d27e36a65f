import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `statemachine inspect FILE` (Inspecting B.2): the URL on a line of its own, the page behind it,
/// and a clean exit on SIGTERM.
@Suite(.timeLimit(.minutes(1))) struct InspectCommandTests {
  static let mediaPlayer = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../../Examples/Definitions/media-player.json").standardizedFileURL

  /// Starts `statemachine inspect ARGUMENTS` and reads the URL it prints: the process, the
  /// port and the token.
  static func launch(_ arguments: [String], output: URL) async throws -> (Process, port: String, token: String) {
    _ = FileManager.default.createFile(atPath: output.path, contents: nil)
    let process = Process()
    process.executableURL = try StoreFixture.tool()
    process.arguments = ["inspect"] + arguments + ["--port", "0"]
    process.standardOutput = try FileHandle(forWritingTo: output)
    try process.run()
    var text = ""
    let deadline = ContinuousClock.now + .seconds(20)
    while !text.contains("\n"), ContinuousClock.now < deadline, process.isRunning {
      try await Task.sleep(for: .milliseconds(20))
      text = String(decoding: try Data(contentsOf: output), as: UTF8.self)
    }
    let line = try #require(text.split(separator: "\n").first.map(String.init))
    let pattern = /^http:\/\/127\.0\.0\.1:(\d+)\/#token=([0-9a-f]{32})$/
    let match = try #require(line.wholeMatch(of: pattern), "\(line)")
    return (process, String(match.1), String(match.2))
  }

  @Test func printsTheURLOnALineOfItsOwnAndServesUntilTerminated() async throws {
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("inspect-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: output) }
    let (process, port, token) = try await Self.launch([Self.mediaPlayer.path], output: output)
    defer { if process.isRunning { process.terminate() } }

    let (page, pageResponse) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/")!)
    #expect((pageResponse as? HTTPURLResponse)?.statusCode == 200)
    #expect(String(decoding: page, as: UTF8.self).contains("id=\"diagram\""))
    let (_, refused) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/api/objects")!)
    #expect((refused as? HTTPURLResponse)?.statusCode == 401)
    var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/api/objects")!)
    request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
    let (objects, _) = try await URLSession.shared.data(for: request)
    #expect(String(decoding: objects, as: UTF8.self).contains(#""name":"media-player""#))

    process.terminate()
    while process.isRunning { try await Task.sleep(for: .milliseconds(20)) }
    #expect(process.terminationStatus == 0)
  }

  /// `--db --machine`: the rows counted per state, one row's history, an event fired through
  /// the store.
  @Test(arguments: StoreDatabaseKind.enabled)
  func servesAStoresRows(kind: StoreDatabaseKind) async throws {
    let fixture = try await StoreFixture(kind, machine: "player")
    defer { fixture.remove() }
    try await fixture.setUp(String(decoding: try Data(contentsOf: Self.mediaPlayer), as: UTF8.self), ids: ["a", "b", "c"])
    let output = fixture.directory.appendingPathComponent("inspect-out")
    let (process, port, token) = try await Self.launch(["--db", fixture.db, "--machine", "player"], output: output)
    defer { if process.isRunning { process.terminate() } }
    func call(_ method: String, _ path: String, _ body: String? = nil) async throws -> [String: Any] {
      var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
      request.httpMethod = method
      request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
      request.httpBody = body.map { Data($0.utf8) }
      let (data, response) = try await URLSession.shared.data(for: request)
      #expect((response as? HTTPURLResponse)?.statusCode == 200, "\(method) \(path)")
      return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    let before = try await call("GET", "/api/objects/1/instances")
    #expect(before["total"] as? Int == 3)
    #expect(before["counts"] as? [String: Int] == ["off": 3])
    let fired = try await call("POST", "/api/objects/1/instances/b/events", #"{"event": "power", "payload": {"n": 1}}"#)
    #expect(fired["outcome"] as? String == "transition")
    #expect(fired["state"] as? String == "on/stopped")
    let rejected = try await call("POST", "/api/objects/1/instances/c/events", #"{"event": "play"}"#)
    #expect(rejected["outcome"] as? String == "rejected")
    #expect(rejected["state"] as? String == "off")
    let after = try await call("GET", "/api/objects/1/instances")
    #expect(after["counts"] as? [String: Int] == ["off": 2, "on": 1, "on/stopped": 1])
    let row = try await call("GET", "/api/objects/1/instances/b")
    #expect(row["state"] as? String == "on/stopped")
    let history = try #require(row["history"] as? [[String: Any]])
    #expect(history.map { $0["event"] as? String } == ["power"])
    #expect(history.first?["payload"] as? String == #"{"n":1}"#)

    let shown = try await fixture.run("show", "b")
    #expect(shown.stdout.contains("state: on/stopped"), "the event went through the store")
    process.terminate()
    while process.isRunning { try await Task.sleep(for: .milliseconds(20)) }
    #expect(process.terminationStatus == 0)
  }

  /// `--db` alone: every chart of `sm_machines` and every application table a store recorded in
  /// `sm_machine_tables` (the Inspecting article), the table's rows read, never fired.
  @Test(arguments: StoreDatabaseKind.enabled)
  func servesTheApplicationsOwnTable(kind: StoreDatabaseKind) async throws {
    let fixture = try await StoreFixture(kind, machine: "player")
    defer { fixture.remove() }
    try await fixture.setUp(String(decoding: try Data(contentsOf: Self.mediaPlayer), as: UTF8.self), ids: ["a"])
    let boolean = kind == .postgres ? "boolean NOT NULL DEFAULT false" : "INTEGER NOT NULL DEFAULT 0"
    try await fixture.sql(
      "CREATE TABLE orders (id bigint PRIMARY KEY, note text, state text NOT NULL, sm_version bigint NOT NULL DEFAULT 0, sm_terminated \(boolean), sm_history text)"
    )
    try await fixture.sql("INSERT INTO orders (id, note, state, sm_version) VALUES (1, 'x', 'active', 1), (2, 'y', 'active', 1), (3, 'z', 'pending', 0)")
    try await fixture.sql(
      "INSERT INTO sm_transitions (machine, entity_id, version, event, from_state, to_state, cause, at) VALUES ('orders', '1', 1, 'activate', 'pending', 'active', 'event', \(kind == .postgres ? "now()" : "0"))"
    )
    let document = try String(contentsOf: Self.subscription, encoding: .utf8).replacingOccurrences(of: "'", with: "''")
    try await fixture.sql(
      "INSERT INTO sm_machine_tables (machine, table_name, id_column, document, updated_at) VALUES ('orders', 'orders', 'id', '\(document)', \(kind == .postgres ? "now()" : "0"))"
    )
    let output = fixture.directory.appendingPathComponent("inspect-out")
    let (process, port, token) = try await Self.launch(["--db", fixture.db], output: output)
    defer { if process.isRunning { process.terminate() } }
    func call(_ method: String, _ path: String, _ body: String? = nil) async throws -> Any {
      var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
      request.httpMethod = method
      request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
      request.httpBody = body.map { Data($0.utf8) }
      let (data, response) = try await URLSession.shared.data(for: request)
      #expect((response as? HTTPURLResponse)?.statusCode == 200, "\(method) \(path)")
      return try JSONSerialization.jsonObject(with: data)
    }

    let listed = try #require(try await call("GET", "/api/objects") as? [String: Any])
    let objects = try #require(listed["objects"] as? [[String: Any]], "\(listed)")
    let names = objects.compactMap { $0["name"] as? String }
    #expect(names.sorted() == ["orders", "player"])
    let index = try #require(objects.first { $0["name"] as? String == "orders" }?["id"])
    let rows = try #require(try await call("GET", "/api/objects/\(index)/instances") as? [String: Any])
    #expect(rows["total"] as? Int == 3)
    #expect(rows["counts"] as? [String: Int] == ["active": 2, "pending": 1])
    let row = try #require(try await call("GET", "/api/objects/\(index)/instances/1") as? [String: Any])
    #expect(row["state"] as? String == "active")
    #expect(row["version"] as? Double == 1)
    #expect((row["history"] as? [[String: Any]])?.map { $0["event"] as? String } == ["activate"])
    // The application's callbacks are not here: its rows are not fired from the page.
    let fired = try #require(
      try await call("POST", "/api/objects/\(index)/instances/3/events", #"{"event": "activate"}"#) as? [String: Any])
    #expect(fired["outcome"] as? String == "rejected")
    #expect(fired["state"] as? String == "pending")
    #expect(try await fixture.strings("SELECT state FROM orders WHERE id = 3") == ["pending"])
    process.terminate()
    while process.isRunning { try await Task.sleep(for: .milliseconds(20)) }
    #expect(process.terminationStatus == 0)
  }

  static let subscription = mediaPlayer.deletingLastPathComponent().appendingPathComponent("subscription.json")
}
