// What every mode of the worker shares: its arguments, the start barrier and the one JSON line
// it prints.

#if SQLite || PostgreSQL
import Foundation

/// The worker's command line: a mode, then `--name value` options.
struct WorkerArguments {
  let mode: String
  private let options: [String: String]

  init(_ arguments: [String]) throws {
    guard let mode = arguments.first else { throw WorkerFailure("usage: sm-store-worker MODE [--name value]…") }
    self.mode = mode
    var options: [String: String] = [:]
    var rest = arguments.dropFirst()[...]
    while let name = rest.popFirst() {
      guard name.hasPrefix("--") else { throw WorkerFailure("unexpected argument '\(name)'") }
      // A flag without a value (`--kill`) is "true".
      if let value = rest.first, !value.hasPrefix("--") {
        options[String(name.dropFirst(2))] = value
        rest = rest.dropFirst()
      } else {
        options[String(name.dropFirst(2))] = "true"
      }
    }
    self.options = options
  }

  func string(_ name: String) throws -> String {
    guard let value = options[name] else { throw WorkerFailure("missing --\(name)") }
    return value
  }

  func optional(_ name: String) -> String? { options[name] }

  func int(_ name: String, default fallback: Int? = nil) throws -> Int {
    guard let text = options[name] else {
      if let fallback { return fallback }
      throw WorkerFailure("missing --\(name)")
    }
    guard let value = Int(text) else { throw WorkerFailure("--\(name) is not an integer: '\(text)'") }
    return value
  }

  func flag(_ name: String) -> Bool { options[name] == "true" }
}

struct WorkerFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// Waits until the wall-clock time `--start-at` (milliseconds since 1970), so that workers the
/// test started one after the other begin at once.
func waitForStart(_ arguments: WorkerArguments) async throws {
  guard let text = arguments.optional("start-at"), let start = Double(text) else { return }
  let delay = start - Date().timeIntervalSince1970 * 1000
  if delay > 0 { try await Task.sleep(for: .milliseconds(Int(delay))) }
}

/// A date from `--name` milliseconds since 1970.
func date(_ arguments: WorkerArguments, _ name: String) throws -> Date {
  Date(timeIntervalSince1970: Double(try arguments.int(name)) / 1000)
}

/// Writes the summary as one JSON line (keys sorted), unbuffered, so that it is out even if the
/// process is killed next.
func emit(_ summary: [String: Any]) {
  let data = (try? JSONSerialization.data(withJSONObject: summary, options: [.sortedKeys])) ?? Data("{}".utf8)
  FileHandle.standardOutput.write(data + Data("\n".utf8))
}

/// A deterministic random generator (SplitMix64), so that a seed replays a worker's choices.
struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
#endif
