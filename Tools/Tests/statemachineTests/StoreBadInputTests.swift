import Foundation
import GRDB
import Testing

/// `statemachine store …` given bad input: one line on stderr, exit 1 (3 for a rejection), and
/// nothing written (PERSISTENCE.md §11, issue 19 §3).
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

  @Test("a chart that does not load: reported at its place, exit 1, no database created or changed")
  func badChart() throws {
    let store = try StoreFixture()
    defer { store.remove() }
    let bad = try store.file("bad.json", #"{"states": {"a": {"on": {"go": "nowhere"}}}}"#)
    let refused = try store.run("init", bad)
    #expect(refused.status == 1)
    #expect(refused.stderr.hasPrefix("\(bad):1:"), "\(refused.stderr)")
    #expect(refused.stderr.contains("nowhere"))
    #expect(!FileManager.default.fileExists(atPath: store.db))

    try store.setUp(StoreCharts.device, ids: ["a"])
    let before = try store.contents()
    #expect(try store.run("init", bad).status == 1)
    #expect(try store.run("migrate", bad).status == 1)
    expectError(try store.run("init", try store.file("other.json", StoreCharts.ring)), "migrate")
    let absent = try store.run("migrate", store.directory.appendingPathComponent("absent.json").path)
    #expect(absent.status == 1)
    #expect(absent.errorLines.count == 1 && absent.stderr.contains("absent.json: error: cannot read"))
    #expect(try store.contents() == before)
  }

  @Test("an unknown id, an unknown event, a bad payload or request id: exit 1, nothing written")
  func unknownIDAndEvent() throws {
    let store = try StoreFixture()
    defer { store.remove() }
    try store.setUp(StoreCharts.device, ids: ["a"])
    let before = try store.contents()
    expectError(try store.run("fire", "zz", "power"), "zz")
    expectError(try store.run("fire", "a", "explode"), "explode")
    expectError(try store.run("fire", "a", "power", "--payload", "{not json"), "--payload")
    expectError(try store.run("fire", "a", "power", "--request-id", "not-a-uuid"), "--request-id")
    expectError(try store.run("show", "zz"), "zz")
    expectError(try store.run("history", "zz"), "zz")
    expectError(try store.run("insert", "b", "a"), "'a'")
    expectError(try store.run("insert", "b", "b"), "twice")
    let otherMachine = try StoreFixture(machine: "nope")
    expectError(try otherMachine.run("show", "a", db: store.db), "nope")
    #expect(try store.contents() == before)
  }

  @Test("a row set by SQL to a state the chart lacks: fire exits 1, show and verify name it (P12)")
  func unknownStoredState() throws {
    let store = try StoreFixture()
    defer { store.remove() }
    try store.setUp(StoreCharts.device, ids: ["a", "b"])
    try store.sql("UPDATE sm_instances SET state = 'limbo' WHERE entity_id = 'a'")
    let before = try store.contents()
    expectError(try store.run("fire", "a", "power"), "'a'", "limbo")
    #expect(try store.contents() == before)
    let shown = try store.run("show", "a", "--json").object()
    #expect(shown["state"] as? String == "limbo")
    #expect(shown["configuration"] is NSNull)
    let verified = try store.run("verify")
    #expect(verified.status == 1)
    #expect(verified.lines == ["unknown state: row 'a' is in 'limbo', which is not a state of the chart"])
    // The other rows still work.
    #expect(try store.run("fire", "b", "power").status == 0)
  }

  @Test("migrate is refused while a row's state is not in the new chart, the rows named (P12)")
  func migrateRefused() throws {
    let store = try StoreFixture()
    defer { store.remove() }
    try store.setUp(StoreCharts.device, ids: ["a", "b", "c"])
    #expect(try store.run("fire", "a", "retire").status == 0)
    #expect(try store.run("fire", "c", "retire").status == 0)
    let before = try store.contents()
    let refused = try store.run("migrate", try store.file("smaller.json", StoreCharts.deviceWithoutRetired))
    #expect(refused.status == 1)
    #expect(
      refused.errorLines == [
        "error: row 'a' is in 'retired', which is not a state of the new chart",
        "error: row 'c' is in 'retired', which is not a state of the new chart",
      ])
    #expect(try store.contents() == before)
  }

  @Test("a file that is not a database, or is corrupt: exit 1, one line, the file unchanged")
  func notADatabase() throws {
    let store = try StoreFixture()
    defer { store.remove() }
    let text = try store.file("notes.txt", String(repeating: "not a database at all\n", count: 100))
    let textBytes = try store.bytes(text)
    for arguments in [["fire", "a", "power"], ["show", "a"], ["insert", "a"], ["run-due", "--once"], ["verify"]] {
      expectError(try store.start(arguments[0], Array(arguments.dropFirst()), db: text).wait(), "not a database")
    }
    expectError(try store.run("init", try store.file("c.json", StoreCharts.device), db: text), "not a database")
    #expect(try store.bytes(text) == textBytes)

    // A store whose pages after the first are overwritten.
    try store.setUp(StoreCharts.device, ids: ["a", "b"])
    let handle = try FileHandle(forUpdating: URL(fileURLWithPath: store.db))
    let size = try handle.seekToEnd()
    try #require(size > 4096)
    try handle.seek(toOffset: 4096)
    try handle.write(contentsOf: Data(repeating: 0xFF, count: Int(size) - 4096))
    try handle.close()
    let corrupt = try store.bytes()
    for arguments in [["fire", "a", "power"], ["show", "a"], ["list"], ["insert", "c"], ["run-due", "--once"], ["verify"]] {
      expectError(try store.start(arguments[0], Array(arguments.dropFirst())).wait(), "malformed")
    }
    #expect(try store.bytes() == corrupt)
  }

  @Test("a database without the library's tables, a missing file, a PostgreSQL URL: exit 1, nothing created")
  func notOurs() throws {
    let store = try StoreFixture()
    defer { store.remove() }
    let queue = try DatabaseQueue(path: store.db)
    try queue.write { db in try db.execute(sql: "CREATE TABLE orders (id INTEGER PRIMARY KEY)") }
    try queue.close()
    let before = try store.bytes()
    expectError(try store.run("fire", "a", "power"), "not a statemachine store")
    expectError(try store.run("list"), "sm_machines")
    #expect(try store.bytes() == before)

    let missing = store.directory.appendingPathComponent("missing.sqlite").path
    expectError(try store.run("show", "a", db: missing), "no such database")
    #expect(!FileManager.default.fileExists(atPath: missing))

    let postgres = try store.run("fire", "a", "power", db: "postgres://localhost/orders")
    #expect(postgres.status == 1)
    #expect(postgres.stderr == "error: PostgreSQL is not supported yet\n")
  }

  @Test("a read-only file: exit 1, one line, the file unchanged", .enabled(if: ReadOnlyFile.isSupported))
  func readOnly() throws {
    let store = try StoreFixture()
    defer { store.remove() }
    try store.setUp(StoreCharts.device, ids: ["a"])
    let before = try store.bytes()
    try ReadOnlyFile.set(store.db, readOnly: true)
    defer { try? ReadOnlyFile.set(store.db, readOnly: false) }
    expectError(try store.run("fire", "a", "power"), "readonly")
    expectError(try store.run("insert", "b"), "readonly")
    #expect(try store.bytes() == before)
  }

  @Test("a database another process holds locked: fire waits, then exit 1, nothing written")
  func locked() throws {
    let store = try StoreFixture()
    defer { store.remove() }
    try store.setUp(StoreCharts.device, ids: ["a"])
    let before = try store.contents()
    let pool = try DatabasePool(path: store.db)
    try pool.writeWithoutTransaction { db in
      try db.execute(sql: "BEGIN IMMEDIATE")
      let blocked = try store.run("fire", "a", "power", environment: ["STATEMACHINE_BUSY_TIMEOUT": "0.3"])
      try db.execute(sql: "ROLLBACK")
      expectError(blocked, "locked")
    }
    try pool.close()
    #expect(try store.contents() == before)
  }

  @Test("a request id recorded for another row or event: exit 1, nothing written (P6)")
  func requestIDReused() throws {
    let store = try StoreFixture()
    defer { store.remove() }
    try store.setUp(StoreCharts.device, ids: ["a", "b"])
    let request = UUID().uuidString
    #expect(try store.run("fire", "a", "power", "--request-id", request).status == 0)
    let before = try store.contents()
    expectError(try store.run("fire", "b", "power", "--request-id", request), request)
    expectError(try store.run("fire", "a", "retire", "--request-id", request), request)
    #expect(try store.contents() == before)
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
