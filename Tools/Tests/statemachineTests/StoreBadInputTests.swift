import Foundation
import GRDB
import Testing

/// `statemachine store …` given bad input: one line on stderr, exit 1 (3 for a rejection), and
/// nothing written (Persistence §11), on SQLite and on PostgreSQL.
@Suite("statemachine store: bad input writes nothing", .timeLimit(.minutes(3)))
struct StoreBadInputTests {
  /// Expects exit 1 with one `error: …` line on stderr containing `words`.
  func expectError(_ output: StoreFixture.Output, _ words: String..., sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(output.status == 1, "status \(output.status): \(output.stderr)", sourceLocation: sourceLocation)
    #expect(output.errorLines.count == 1, "expected one line: \(output.stderr)", sourceLocation: sourceLocation)
    #expect(output.stderr.hasPrefix("error: "), "\(output.stderr)", sourceLocation: sourceLocation)
    for word in words {
      #expect(output.stderr.contains(word), "expected '\(word)' in \(output.stderr)", sourceLocation: sourceLocation)
    }
    #expect(output.stdout.isEmpty, "\(output.stdout)", sourceLocation: sourceLocation)
  }

  @Test(
    "a chart that does not load: reported at its place, exit 1, no database created or changed",
    arguments: StoreDatabaseKind.enabled)
  func badChart(kind: StoreDatabaseKind) async throws {
    let store = try await StoreFixture(kind)
    defer { store.remove() }
    let bad = try store.file("bad.json", #"{"states": {"a": {"on": {"go": "nowhere"}}}}"#)
    let refused = try await store.run("init", bad)
    #expect(refused.status == 1)
    #expect(refused.stderr.hasPrefix("\(bad):1:"), "\(refused.stderr)")
    #expect(refused.stderr.contains("nowhere"))
    #expect(try await store.isEmpty())

    try await store.setUp(StoreCharts.device, ids: ["a"])
    let before = try await store.contents()
    #expect(try await store.run("init", bad).status == 1)
    #expect(try await store.run("migrate", bad).status == 1)
    expectError(try await store.run("init", try store.file("other.json", StoreCharts.ring)), "migrate")
    let absent = try await store.run("migrate", store.directory.appendingPathComponent("absent.json").path)
    #expect(absent.status == 1)
    #expect(absent.errorLines.count == 1 && absent.stderr.contains("absent.json: error: cannot read"))
    #expect(try await store.contents() == before)
  }

  @Test(
    "an unknown id, an unknown event, a bad payload or request id: exit 1, nothing written",
    arguments: StoreDatabaseKind.enabled)
  func unknownIDAndEvent(kind: StoreDatabaseKind) async throws {
    let store = try await StoreFixture(kind)
    defer { store.remove() }
    try await store.setUp(StoreCharts.device, ids: ["a"])
    let before = try await store.contents()
    expectError(try await store.run("fire", "zz", "power"), "zz")
    expectError(try await store.run("fire", "a", "explode"), "explode")
    expectError(try await store.run("fire", "a", "power", "--payload", "{not json"), "--payload")
    expectError(try await store.run("fire", "a", "power", "--request-id", "not-a-uuid"), "--request-id")
    expectError(try await store.run("show", "zz"), "zz")
    expectError(try await store.run("history", "zz"), "zz")
    expectError(try await store.run("insert", "b", "a"), "'a'")
    expectError(try await store.run("insert", "b", "b"), "twice")
    let otherMachine = StoreFixture(sharing: store, machine: "nope")
    expectError(try await otherMachine.run("show", "a"), "nope")
    #expect(try await store.contents() == before)
  }

  @Test(
    "a row set by SQL to a state the chart lacks: fire exits 1, show and verify name it (P12)",
    arguments: StoreDatabaseKind.enabled)
  func unknownStoredState(kind: StoreDatabaseKind) async throws {
    let store = try await StoreFixture(kind)
    defer { store.remove() }
    try await store.setUp(StoreCharts.device, ids: ["a", "b"])
    try await store.sql("UPDATE sm_instances SET state = 'limbo' WHERE entity_id = 'a'")
    let before = try await store.contents()
    expectError(try await store.run("fire", "a", "power"), "'a'", "limbo")
    #expect(try await store.contents() == before)
    let shown = try await store.run("show", "a", "--json").object()
    #expect(shown["state"] as? String == "limbo")
    #expect(shown["configuration"] is NSNull)
    let verified = try await store.run("verify")
    #expect(verified.status == 1)
    #expect(verified.lines == ["unknown state: row 'a' is in 'limbo', which is not a state of the chart"])
    // The other rows still work.
    #expect(try await store.run("fire", "b", "power").status == 0)
  }

  @Test(
    "migrate is refused while a row's state is not in the new chart, the rows named (P12)",
    arguments: StoreDatabaseKind.enabled)
  func migrateRefused(kind: StoreDatabaseKind) async throws {
    let store = try await StoreFixture(kind)
    defer { store.remove() }
    try await store.setUp(StoreCharts.device, ids: ["a", "b", "c"])
    #expect(try await store.run("fire", "a", "retire").status == 0)
    #expect(try await store.run("fire", "c", "retire").status == 0)
    let before = try await store.contents()
    let refused = try await store.run("migrate", try store.file("smaller.json", StoreCharts.deviceWithoutRetired))
    #expect(refused.status == 1)
    #expect(
      refused.errorLines == [
        "error: row 'a' is in 'retired', which is not a state of the new chart",
        "error: row 'c' is in 'retired', which is not a state of the new chart",
      ])
    #expect(try await store.contents() == before)
  }

  @Test("a file that is not a database, or is corrupt: exit 1, one line, the file unchanged")
  func notADatabase() async throws {
    let store = try await StoreFixture()
    defer { store.remove() }
    let text = try store.file("notes.txt", String(repeating: "not a database at all\n", count: 100))
    let textBytes = try store.bytes(text)
    for arguments in [["fire", "a", "power"], ["show", "a"], ["insert", "a"], ["run-due", "--once"], ["verify"]] {
      expectError(try await store.start(arguments[0], Array(arguments.dropFirst()), db: text).wait(), "not a database")
    }
    expectError(try await store.run("init", try store.file("c.json", StoreCharts.device), db: text), "not a database")
    #expect(try store.bytes(text) == textBytes)

    // A store whose pages after the first are overwritten.
    try await store.setUp(StoreCharts.device, ids: ["a", "b"])
    let handle = try FileHandle(forUpdating: URL(fileURLWithPath: store.db))
    let size = try handle.seekToEnd()
    try #require(size > 4096)
    try handle.seek(toOffset: 4096)
    try handle.write(contentsOf: Data(repeating: 0xFF, count: Int(size) - 4096))
    try handle.close()
    let corrupt = try store.bytes()
    for arguments in [["fire", "a", "power"], ["show", "a"], ["list"], ["insert", "c"], ["run-due", "--once"], ["verify"]] {
      expectError(try await store.start(arguments[0], Array(arguments.dropFirst())).wait(), "malformed")
    }
    #expect(try store.bytes() == corrupt)
  }

  @Test(
    "a database without the library's tables: exit 1, one line, nothing created",
    arguments: StoreDatabaseKind.enabled)
  func notOurs(kind: StoreDatabaseKind) async throws {
    let store = try await StoreFixture(kind)
    defer { store.remove() }
    try await store.sql("CREATE TABLE orders (id INTEGER PRIMARY KEY)")
    let before = try await store.strings(
      kind == .sqlite
        ? "SELECT name FROM sqlite_master ORDER BY name"
        : "SELECT tablename FROM pg_tables WHERE schemaname = '\(store.schema?.name ?? "")' ORDER BY tablename")
    #expect(before == ["orders"])
    let bytes = kind == .sqlite ? try store.bytes() : Data()
    expectError(try await store.run("fire", "a", "power"), "not a statemachine store")
    expectError(try await store.run("list"), "sm_machines")
    expectError(try await store.run("run-due", "--once"), "not a statemachine store")
    expectError(try await store.run("migrate", try store.file("c.json", StoreCharts.device)), "not a statemachine store")
    #expect(try await store.strings(
      kind == .sqlite
        ? "SELECT name FROM sqlite_master ORDER BY name"
        : "SELECT tablename FROM pg_tables WHERE schemaname = '\(store.schema?.name ?? "")' ORDER BY tablename")
      == before)
    if kind == .sqlite { #expect(try store.bytes() == bytes) }
  }

  @Test("a missing file: exit 1, one line, no file created")
  func missingFile() async throws {
    let store = try await StoreFixture()
    defer { store.remove() }
    let missing = store.directory.appendingPathComponent("missing.sqlite").path
    expectError(try await store.run("show", "a", db: missing), "no such database")
    #expect(!FileManager.default.fileExists(atPath: missing))
  }

  @Test(
    "a read-only database (a file, or PostgreSQL's default_transaction_read_only): exit 1, one line, nothing written",
    arguments: StoreDatabaseKind.enabled)
  func readOnly(kind: StoreDatabaseKind) async throws {
    let store = try await StoreFixture(kind)
    defer { store.remove() }
    try await store.setUp(StoreCharts.device, ids: ["a"])
    if kind == .postgres {
      let before = try await store.contents()
      let readOnly = store.db + "%20-cdefault_transaction_read_only%3Don"
      expectError(try await store.run("fire", "a", "power", db: readOnly), "read-only transaction")
      expectError(try await store.run("insert", "b", db: readOnly), "read-only transaction")
      #expect(try await store.run("show", "a", db: readOnly).status == 0)
      #expect(try await store.contents() == before)
      return
    }
    // Where a file cannot be made read-only (root without chattr), only PostgreSQL's case runs.
    guard ReadOnlyFile.isSupported else { return }
    let before = try store.bytes()
    try ReadOnlyFile.set(store.db, readOnly: true)
    defer { try? ReadOnlyFile.set(store.db, readOnly: false) }
    expectError(try await store.run("fire", "a", "power"), "readonly")
    expectError(try await store.run("insert", "b"), "readonly")
    #expect(try store.bytes() == before)
  }

  @Test(
    "a database (SQLite) or row (PostgreSQL) another process holds locked: fire waits, then exit 1, nothing written",
    arguments: StoreDatabaseKind.enabled)
  func locked(kind: StoreDatabaseKind) async throws {
    let store = try await StoreFixture(kind)
    defer { store.remove() }
    try await store.setUp(StoreCharts.device, ids: ["a"])
    let before = try await store.contents()
    if let schema = store.schema {
      try await schema.withConnection { connection in
        try await connection.query("BEGIN", logger: connection.logger)
        try await connection.query(
          "SELECT state FROM sm_instances WHERE entity_id = 'a' FOR UPDATE", logger: connection.logger)
        let blocked = try await store.run("fire", "a", "power", environment: ["STATEMACHINE_BUSY_TIMEOUT": "0.3"])
        try await connection.query("ROLLBACK", logger: connection.logger)
        expectError(blocked, "locked")
      }
      #expect(try await store.contents() == before)
      return
    }
    expectError(try Self.fireWhileLocked(store), "locked")
    #expect(try await store.contents() == before)
  }

  /// `fire` on `store`'s SQLite file while another connection holds its write lock.
  static func fireWhileLocked(_ store: StoreFixture) throws -> StoreFixture.Output {
    let pool = try DatabasePool(path: store.db)
    let blocked = try pool.writeWithoutTransaction { db in
      try db.execute(sql: "BEGIN IMMEDIATE")
      let blocked = try store.start("fire", ["a", "power"], environment: ["STATEMACHINE_BUSY_TIMEOUT": "0.3"])
        .waitBlocking()
      try db.execute(sql: "ROLLBACK")
      return blocked
    }
    try pool.close()
    return blocked
  }

  @Test(
    "a request id recorded for another row or event: exit 1, nothing written (P6)",
    arguments: StoreDatabaseKind.enabled)
  func requestIDReused(kind: StoreDatabaseKind) async throws {
    let store = try await StoreFixture(kind)
    defer { store.remove() }
    try await store.setUp(StoreCharts.device, ids: ["a", "b"])
    let request = UUID().uuidString
    #expect(try await store.run("fire", "a", "power", "--request-id", request).status == 0)
    let before = try await store.contents()
    expectError(try await store.run("fire", "b", "power", "--request-id", request), request)
    expectError(try await store.run("fire", "a", "retire", "--request-id", request), request)
    #expect(try await store.contents() == before)
  }
}

/// Making a file read-only for the tool: `chmod` for a user, `chattr +i` for root (who ignores
/// permissions). Where neither works the test is disabled.
enum ReadOnlyFile {
  static let isRoot = getuid() == 0

  static func set(_ path: String, readOnly: Bool) throws {
    if isRoot {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
      process.arguments = [readOnly ? "+i" : "-i", path]
      process.standardError = FileHandle.nullDevice
      try process.run()
      process.waitUntilExit()
      guard process.terminationStatus == 0 else { throw CocoaError(.fileWriteNoPermission) }
    } else {
      try FileManager.default.setAttributes([.posixPermissions: readOnly ? 0o444 : 0o644], ofItemAtPath: path)
    }
  }

  /// Whether a file can be made read-only here.
  static let isSupported: Bool = {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("readonly-\(UUID().uuidString)").path
    _ = FileManager.default.createFile(atPath: path, contents: Data("x".utf8))
    defer {
      try? set(path, readOnly: false)
      try? FileManager.default.removeItem(atPath: path)
    }
    guard (try? set(path, readOnly: true)) != nil else { return false }
    return FileManager.default.isWritableFile(atPath: path) == false || isRoot
  }()
}
