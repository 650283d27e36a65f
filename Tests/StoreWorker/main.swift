// sm-store-worker: one process of the multi-process store tests (Persistence §9). The tests
// spawn it with a mode and options; it works on a shared SQLite file or PostgreSQL server (`--db`)
// and prints one JSON summary line on stdout. A failure prints `{"error": …}` and exits with status 1.

#if SQLite || PostgreSQL
import Foundation

let arguments = CommandLine.arguments.dropFirst()
do {
  let parsed = try WorkerArguments(Array(arguments))
  let summary: [String: Any]
  switch parsed.mode {
  case "setup": summary = try await setupRings(parsed)
  case "race": summary = try await race(parsed)
  case "spin": summary = try await spin(parsed)
  case "crash": summary = try await crash(parsed)
  case "hold": summary = try await hold(parsed)
  case "fire": summary = try await fireOnce(parsed)
  case "advance": summary = try await advanceOnce(parsed)
  case "deliver": summary = try await deliver(parsed)
  case "book": summary = try await book(parsed)
  case "schedule": summary = try await schedule(parsed)
  default: throw WorkerFailure("unknown mode '\(parsed.mode)'")
  }
  emit(summary)
} catch {
  emit(["error": "\(error)"])
  exit(1)
}
#else
print("sm-store-worker needs the SQLite or the PostgreSQL trait")
#endif
