import Foundation
import GRDB
import Testing

/// Runs the built `statemachine store …` on a fresh database — a SQLite file in a temporary
/// directory, or a new schema of the PostgreSQL test server — and reads it back with SQL
/// (Persistence §11).
struct StoreFixture {
  /// What one run of the tool did.
  struct Output {
    let status: Int32
    let stdout: String
    let stderr: String

    var lines: [String] { stdout.split(separator: "\n").map(String.init) }
    var errorLines: [String] { stderr.split(separator: "\n").map(String.init) }

    /// The one JSON object of the output's single line.
    func object() throws -> [String: Any] {
      try #require(lines.count == 1, "expected one line, got \(stdout)")
      return try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
    }

    /// One JSON object per line.
    func objects() throws -> [[String: Any]] {
      try lines.map { line in try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]) }
    }
  }

  let kind: StoreDatabaseKind
  /// The directory of the charts, the outputs and the SQLite file.
  let directory: URL
  /// `--db`: the file's path, or the URL of the PostgreSQL schema.
  let db: String
  let machine: String
  /// The PostgreSQL schema, or `nil` on SQLite.
  let schema: PostgresTestSchema?

  /// A fresh directory and database: the SQLite file does not exist yet, the PostgreSQL schema is
  /// empty.
  init(_ kind: StoreDatabaseKind = .sqlite, machine: String = "m") async throws {
    self.kind = kind
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    if kind == .postgres {
      let schema = try await PostgresTestSchema.create()
      self.schema = schema
      db = schema.url
    } else {
      schema = nil
      db = directory.appendingPathComponent("store.sqlite").path
    }
    self.machine = machine
  }

  /// A fresh directory, on the PostgreSQL database of `schema` (its `url` is `--db`).
  init(schema: PostgresTestSchema, machine: String = "m") throws {
    kind = .postgres
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    self.schema = schema
    db = schema.url
    self.machine = machine
  }

  /// Another machine in `other`'s database.
  init(sharing other: StoreFixture, machine: String) {
    kind = other.kind
    directory = other.directory
    db = other.db
    schema = other.schema
    self.machine = machine
  }

  func remove() {
    try? FileManager.default.removeItem(at: directory)
  }

  /// Writes `text` to a file of the directory; its path.
  func file(_ name: String, _ text: String) throws -> String {
    let path = directory.appendingPathComponent(name).path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  /// The built `statemachine` executable.
  static func tool() throws -> URL {
    try #require(ValidateLocationTests.tool, "the statemachine executable is not next to the test bundle; build the package")
  }

  /// Starts `statemachine store SUBCOMMAND --db DB --machine M ARGUMENTS…`; `wait()` the result.
  func start(_ subcommand: String, _ arguments: [String], db: String? = nil, environment: [String: String] = [:]) throws
    -> Running
  {
    let process = Process()
    process.executableURL = try Self.tool()
    process.arguments = ["store", subcommand, "--db", db ?? self.db, "--machine", machine] + arguments
    if !environment.isEmpty {
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    }
    let stdout = directory.appendingPathComponent("out-\(UUID().uuidString)")
    let stderr = directory.appendingPathComponent("err-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: stdout.path, contents: nil)
    _ = FileManager.default.createFile(atPath: stderr.path, contents: nil)
    process.standardOutput = try FileHandle(forWritingTo: stdout)
    process.standardError = try FileHandle(forWritingTo: stderr)
    try process.run()
    return Running(process: process, stdout: stdout, stderr: stderr)
  }

  /// A started run of the tool.
  struct Running {
    let process: Process
    let stdout: URL
    let stderr: URL

    /// Waits for the process without holding a thread of the test's cooperative pool (a blocked
    /// pool would starve the other tests running at once): it polls.
    func wait() async throws -> Output {
      while process.isRunning { try await Task.sleep(for: .milliseconds(10)) }
      return try waitBlocking()
    }

    /// Waits for the process, blocking the thread (for synchronous callers).
    func waitBlocking() throws -> Output {
      process.waitUntilExit()
      defer {
        try? FileManager.default.removeItem(at: stdout)
        try? FileManager.default.removeItem(at: stderr)
      }
      return Output(
        status: process.terminationStatus, stdout: String(decoding: try Data(contentsOf: stdout), as: UTF8.self),
        stderr: String(decoding: try Data(contentsOf: stderr), as: UTF8.self))
    }
  }

  /// Runs `statemachine store SUBCOMMAND --db DB --machine M ARGUMENTS…` to its end.
  @discardableResult
  func run(_ subcommand: String, _ arguments: String..., db: String? = nil, environment: [String: String] = [:])
    async throws -> Output
  {
    try await start(subcommand, arguments, db: db, environment: environment).wait()
  }

  /// `init` with `chart`, then `insert` of `ids`; both must succeed.
  func setUp(_ chart: String, ids: [String] = []) async throws {
    let path = try file("chart.json", chart)
    let initialised = try await run("init", path)
    try #require(initialised.status == 0, "init failed: \(initialised.stderr)")
    guard !ids.isEmpty else { return }
    let inserted = try await start("insert", ids).wait()
    try #require(inserted.status == 0, "insert failed: \(inserted.stderr)")
  }

  /// The file's bytes.
  func bytes(_ path: String? = nil) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: path ?? db))
  }
}

/// Charts the `store` tests use.
enum StoreCharts {
  /// Four states in a ring: `next` always moves on, so every fire is a transition.
  static let ring = """
    { "initial": "s0", "states": {
        "s0": { "on": { "next": "s1" } }, "s1": { "on": { "next": "s2" } },
        "s2": { "on": { "next": "s3" } }, "s3": { "on": { "next": "s0" } } } }
    """

  /// A compound state with a timeout, and a final state.
  static let device = """
    { "initial": "off", "states": {
        "off": { "on": { "power": "on", "retire": "retired" } },
        "on": { "initial": "idle", "on": { "power": "off" }, "states": {
          "idle": { "on": { "work": "busy" } },
          "busy": { "on": { "rest": "idle" }, "after": [ { "seconds": 1.5, "target": "idle" } ] } } },
        "retired": { "type": "final" } } }
    """

  /// `device` without `retired`.
  static let deviceWithoutRetired = """
    { "initial": "off", "states": {
        "off": { "on": { "power": "on" } },
        "on": { "initial": "idle", "on": { "power": "off" }, "states": {
          "idle": { "on": { "work": "busy" } },
          "busy": { "on": { "rest": "idle" }, "after": [ { "seconds": 1.5, "target": "idle" } ] } } } } }
    """
}
