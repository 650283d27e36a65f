// Spawning `sm-store-worker` (Tests/StoreWorker) for the multi-process tests of the SQLite and
// PostgreSQL stores (Persistence §9): real processes on one database, each printing one JSON
// summary line.

#if SQLite || PostgreSQL
import Foundation
import Testing

/// A finished worker: how it ended, and what it printed.
struct WorkerRun: Sendable {
  let arguments: [String]
  let status: Int32
  /// Whether a signal ended it (`status` is then the signal's number).
  let signaled: Bool
  let stdout: String
  let stderr: String

  /// Whether SIGKILL ended it (a crash point, or `book --kill`).
  var wasKilled: Bool { signaled && status == SIGKILL }

  /// The summary: the last line of stdout, parsed.
  func summary() throws -> WorkerSummary {
    guard let line = stdout.split(separator: "\n").last,
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    else { throw StoreWorkerFailure("no JSON summary from \(self)") }
    return WorkerSummary(values: object)
  }

  /// The summary of a worker that must have exited with status 0.
  func succeeded() throws -> WorkerSummary {
    guard !signaled, status == 0 else { throw StoreWorkerFailure("worker failed: \(self)") }
    return try summary()
  }
}

extension WorkerRun: CustomStringConvertible {
  var description: String {
    "sm-store-worker \(arguments.joined(separator: " ")): \(signaled ? "signal" : "status") \(status), "
      + "stdout: \(stdout), stderr: \(stderr.suffix(2000))"
  }
}

/// A worker's JSON summary.
struct WorkerSummary: @unchecked Sendable {
  let values: [String: Any]

  func int(_ key: String) -> Int? { (values[key] as? NSNumber)?.intValue }
  func string(_ key: String) -> String? { values[key] as? String }
  func ints(_ key: String) -> [Int] { (values[key] as? [NSNumber])?.map(\.intValue) ?? [] }
  func strings(_ key: String) -> [String] { values[key] as? [String] ?? [] }
}

/// Runs workers: one, or several started at once.
enum StoreWorker {
  /// How long a worker may run before the test kills it, so that a hung worker fails the test
  /// instead of outliving it.
  static let patience: DispatchTimeInterval = .seconds(90)

  /// The worker executable, built by `swift build --traits …` into the same directory as
  /// the test bundle (`.ci/run` builds before it tests). `STATEMACHINES_STORE_WORKER` overrides it.
  static func executable() throws -> URL {
    let fileManager = FileManager.default
    if let path = ProcessInfo.processInfo.environment["STATEMACHINES_STORE_WORKER"] {
      guard fileManager.isExecutableFile(atPath: path) else {
        throw StoreWorkerFailure("STATEMACHINES_STORE_WORKER names no executable: \(path)")
      }
      return URL(fileURLWithPath: path)
    }
    // The test executable (Linux) or the .xctest bundle (macOS) sits in the build products
    // directory, a few levels below it on macOS.
    var starts = [Bundle.main.bundleURL, URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
    starts += Bundle.allBundles.map(\.bundleURL)
    var looked: [String] = []
    for start in starts {
      var directory = start.resolvingSymlinksInPath()
      for _ in 0..<4 {
        let candidate = directory.appendingPathComponent("sm-store-worker")
        looked.append(candidate.path)
        if fileManager.isExecutableFile(atPath: candidate.path) { return candidate }
        directory = directory.deletingLastPathComponent()
      }
    }
    throw StoreWorkerFailure(
      "sm-store-worker is missing (looked at \(Set(looked).sorted().joined(separator: ", "))): build it with "
        + "`swift build --disable-experimental-prebuilts --traits SQLite,PostgreSQL` before `swift test` with the same traits")
  }

  /// Runs one worker to its end.
  static func run(_ arguments: [String]) async throws -> WorkerRun {
    try await runAll([arguments])[0]
  }

  /// Starts every worker before waiting for any, then waits for all.
  static func runAll(_ argumentLists: [[String]]) async throws -> [WorkerRun] {
    let url = try executable()
    let started = try argumentLists.map { try StartedWorker(url, $0) }
    var runs: [WorkerRun] = []
    for worker in started { runs.append(await worker.finish()) }
    return runs
  }

  /// Starts one worker; the caller waits for it, or kills it, later.
  static func start(_ arguments: [String]) throws -> StartedWorker {
    try StartedWorker(try executable(), arguments)
  }

  /// Milliseconds since 1970, for `--start-at`.
  static func wallClock(after milliseconds: Int) -> String {
    String(Int(Date().timeIntervalSince1970 * 1000) + milliseconds)
  }
}

/// A running worker: its stdout in a pipe, its stderr in a file (so neither can fill up and
/// block it while the test waits for the other).
final class StartedWorker: @unchecked Sendable {
  let arguments: [String]
  let process = Process()
  let stdout = Pipe()
  let stderrURL: URL
  let exited = DispatchSemaphore(value: 0)

  init(_ url: URL, _ arguments: [String]) throws {
    self.arguments = arguments
    stderrURL = FileManager.default.temporaryDirectory.appendingPathComponent("sm-worker-\(UUID().uuidString).err")
    _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
    process.executableURL = url
    process.arguments = arguments
    process.standardOutput = stdout
    let errors = try FileHandle(forWritingTo: stderrURL)
    defer { try? errors.close() }
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    let exited = exited
    process.terminationHandler = { _ in exited.signal() }
    try process.run()
  }

  /// Sends SIGKILL, as a crash would (the test still calls ``finish()`` to collect it).
  func killProcess() {
    if process.isRunning { _ = kill(process.processIdentifier, SIGKILL) }
  }

  /// Waits off the test's threads for the worker to end (killing it past ``StoreWorker/patience``).
  func finish() async -> WorkerRun {
    await withCheckedContinuation { continuation in
      DispatchQueue.global().async {
        if self.exited.wait(timeout: .now() + StoreWorker.patience) == .timedOut {
          kill(self.process.processIdentifier, SIGKILL)
          self.exited.wait()
        }
        let output = self.stdout.fileHandleForReading.readDataToEndOfFile()
        let errors = (try? Data(contentsOf: self.stderrURL)) ?? Data()
        try? FileManager.default.removeItem(at: self.stderrURL)
        continuation.resume(
          returning: WorkerRun(
            arguments: self.arguments, status: self.process.terminationStatus,
            signaled: self.process.terminationReason == .uncaughtSignal,
            stdout: String(decoding: output, as: UTF8.self), stderr: String(decoding: errors, as: UTF8.self)))
      }
    }
  }
}

struct StoreWorkerFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// A new path for a database file (or a ledger, a marker directory) in the temporary directory.
func temporaryPath(_ name: String) -> String {
  FileManager.default.temporaryDirectory.appendingPathComponent("sm-\(name)-\(UUID().uuidString)").path
}

/// Kills a random one of `workers` with SIGKILL every `period` until shortly before the wall-clock
/// time `end` (milliseconds since 1970), starting its slot again with `restart(slot)`, then waits
/// for all of them. Returns the runs that ended on their own (the last ones, and any that ended
/// before their kill) and the slot of each kill.
func killRandomWorkers(
  _ workers: [StartedWorker], every period: Duration, until end: String, restart: (Int) throws -> StartedWorker
) async throws -> (finished: [WorkerRun], killedSlots: [Int]) {
  var workers = workers
  var random = SystemRandomNumberGenerator()
  var finished: [WorkerRun] = []
  var killedSlots: [Int] = []
  let deadline = (Double(end) ?? 0) / 1000
  while Date().timeIntervalSince1970 < deadline - 0.3 {
    try await Task.sleep(for: period)
    let slot = Int.random(in: 0..<workers.count, using: &random)
    workers[slot].killProcess()
    let run = await workers[slot].finish()
    if run.wasKilled { killedSlots.append(slot) } else { finished.append(run) }
    workers[slot] = try restart(slot)
  }
  for worker in workers { finished.append(await worker.finish()) }
  return (finished, killedSlots)
}

/// Persistence P4 across processes, for either database: two worker processes load ring 1 at the
/// same version, then each calls the generated store method `ring.advance()` at the same instant,
/// three times over. Each time exactly one commits; the other throws `.conflict`, writes nothing,
/// and then holds the winner's state and version. `arguments` makes a worker's command line for
/// the database (`mode`, then the options).
func expectOneOfTwoProcessesCommits(_ arguments: (_ mode: String, _ options: [String]) -> [String]) async throws {
  _ = try await StoreWorker.run(arguments("setup", ["--rows", "1"])).succeeded()
  for round in 1...3 {
    let start = StoreWorker.wallClock(after: 1500)
    let runs = try await StoreWorker.runAll(
      (1...2).map { _ in arguments("advance", ["--ring", "1", "--start-at", start]) })
    let summaries = try runs.map { try $0.succeeded() }
    #expect(summaries.compactMap { $0.string("outcome") }.sorted() == ["committed", "conflict"], "\(runs)")
    #expect(Set(summaries.compactMap { $0.string("state") }) == [["s1", "s2", "s0"][round - 1]], "\(runs)")
    #expect(summaries.map { $0.int("version") } == [round, round], "\(runs)")
  }
}
#endif
