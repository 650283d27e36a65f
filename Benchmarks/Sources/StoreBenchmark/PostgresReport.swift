// The tables of the PostgreSQL store benchmark, in Markdown for the README, and its goals
// (Benchmarks/README.md): the fast path against the same work by hand through the same client
// (B0p, B4p), the server's CPU per fire against pgbench's minimal statement, and the locked step
// S2 ≥ 0.8 × the hand-written locked transaction B1.

import Foundation

/// pgbench's figures at one level: transactions per second, p50 and p99 latency in milliseconds,
/// and the server's CPU microseconds per transaction.
struct PgbenchFigures {
  let tps: Double
  let p50: Double
  let p99: Double
  let serverMicroseconds: Double?
}

/// Reads the script's TSV, one line per run: `name <TAB> clients <TAB> tps <TAB> p50 <TAB> p99
/// [<TAB> server µs per transaction]`.
func readPgbenchFigures(_ path: String) throws -> [String: [Int: PgbenchFigures]] {
  var figures: [String: [Int: PgbenchFigures]] = [:]
  for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
    let fields = line.split(separator: "\t").map(String.init)
    guard [5, 6].contains(fields.count), let clients = Int(fields[1]), let tps = Double(fields[2]),
      let p50 = Double(fields[3]), let p99 = Double(fields[4])
    else { throw PostgresBenchmarkFailure("\(path): not a pgbench line: \(line)") }
    figures[fields[0], default: [:]][clients] = PgbenchFigures(
      tps: tps, p50: p50, p99: p99, serverMicroseconds: fields.count == 6 ? Double(fields[5]) : nil)
  }
  return figures
}

/// Prints the table of every row at every level, then the ratios and the goals.
func printPostgresReport(
  _ ids: [PostgresCaseID], _ levels: [Int], _ results: PostgresResults, _ pgbench: [String: [Int: PgbenchFigures]]
) {
  print()
  print("Events per second (median over the rounds), p50 and p99 latency in ms:")
  print()
  print("| Row | What |" + levels.map { " \($0) task\($0 == 1 ? "" : "s"): tps | p50 | p99 |" }.joined())
  print("|---|---|" + String(repeating: "--:|--:|--:|", count: levels.count))
  let pgbenchRows = [("cas", "pgbench: `cas.sql`, the single-statement compare-and-set"),
    ("locked", "pgbench: `locked.sql`, the locked transaction"),
    ("fast", "pgbench: `fast.sql`, the store's fast-path statement (its ceiling without client work)"),
    ("minimal", "pgbench -M prepared: `minimal.sql`, compare-and-set plus P2's history row")]
  for (key, name) in pgbenchRows {
    guard let figures = pgbench[key] else { continue }
    print("| pgbench \(key) | \(name) |" + levels.map { level in
      figures[level].map { " \(thousands($0.tps)) | \(formatMilliseconds($0.p50)) | \(formatMilliseconds($0.p99)) |" } ?? " – | – | – |"
    }.joined())
  }
  for id in ids {
    print("| \(id.rawValue) | \(id.name) |" + levels.map { level in
      let runs = results[id]?[level] ?? []
      let latencies = runs.flatMap(\.latencies).sorted()
      return " \(thousands(median(runs.map(\.tps)))) | \(formatMilliseconds(percentile(latencies, 0.5))) | \(formatMilliseconds(percentile(latencies, 0.99))) |"
    }.joined())
  }

  // Two rows of this process: the median over the rounds of their tps in the same round.
  func ratio(_ row: PostgresCaseID, _ baseline: PostgresCaseID, _ level: Int) -> Double? {
    guard let rows = results[row]?[level], let baselines = results[baseline]?[level] else { return nil }
    return median(zip(rows, baselines).map { $0.tps / $1.tps })
  }
  // A row of this process against pgbench's one run.
  func ratio(_ row: PostgresCaseID, pgbench key: String, _ level: Int) -> Double? {
    guard let rows = results[row]?[level], let figures = pgbench[key]?[level] else { return nil }
    return median(rows.map(\.tps)) / figures.tps
  }
  // One pgbench run at two client counts.
  func ratio(pgbench key: String, _ base: Int, _ level: Int) -> Double? {
    guard let row = pgbench[key]?[level], let baseline = pgbench[key]?[base] else { return nil }
    return row.tps / baseline.tps
  }
  // A row of this process at two task counts.
  func ratio(_ row: PostgresCaseID, tasks level: Int, over base: Int) -> Double? {
    guard let rows = results[row]?[level], let baselines = results[row]?[base] else { return nil }
    return median(rows.map(\.tps)) / median(baselines.map(\.tps))
  }
  // Two pgbench runs.
  func ratio(pgbench key: String, _ baseline: String, _ level: Int) -> Double? {
    guard let row = pgbench[key]?[level], let base = pgbench[baseline]?[level] else { return nil }
    return row.tps / base.tps
  }
  // The server's CPU per event: a row of this process (median over the rounds) against pgbench's.
  func serverMicroseconds(_ row: PostgresCaseID, _ level: Int) -> Double? {
    let values = (results[row]?[level] ?? []).compactMap(\.serverMicrosecondsPerEvent)
    return values.isEmpty ? nil : median(values)
  }
  func serverRatio(_ row: PostgresCaseID, pgbench key: String, _ level: Int) -> Double? {
    guard let mine = serverMicroseconds(row, level), let theirs = pgbench[key]?[level]?.serverMicroseconds else { return nil }
    return theirs / mine
  }
  let ratios: [(name: String, goal: (Int) -> Double?, value: (Int) -> Double?)] = [
    ("fast path ÷ B0p (the same work by hand, prepared, through postgres-nio)", { $0 == 1 ? 0.9 : 1.0 }, { ratio(.fast, .b0p, $0) }),
    ("fast path ÷ B4p (B0p batched by hand, at 8 and 32)", { _ in 0.9 }, { $0 >= 8 ? ratio(.fast, .b4p, $0) : nil }),
    ("pgbench minimal's server CPU per transaction ÷ the fast path's per fire", { $0 == 1 ? 1 / 1.2 : 1.0 },
      { serverRatio(.fast, pgbench: "minimal", $0) }),
    ("fast path ÷ pgbench minimal, prepared", { _ in nil }, { ratio(.fast, pgbench: "minimal", $0) }),
    ("pgbench minimal: 8 ÷ 1 clients", { _ in nil }, { $0 == 8 ? ratio(pgbench: "minimal", 1, 8) : nil }),
    ("fast path: 8 ÷ 1 tasks", { _ in nil }, { $0 == 8 ? ratio(.fast, tasks: 8, over: 1) : nil }),
    ("fast path ÷ fast1 (what sharing statements gives)", { _ in nil }, { ratio(.fast, .fastAlone, $0) }),
    ("B0p ÷ pgbench minimal (the client library)", { _ in nil }, { ratio(.b0p, pgbench: "minimal", $0) }),
    ("B4p ÷ B0p (what batching by hand gives)", { _ in nil }, { ratio(.b4p, .b0p, $0) }),
    ("fast path ÷ pgbench cas", { _ in nil }, { ratio(.fast, pgbench: "cas", $0) }),
    ("S2 ÷ B1", { _ in 0.8 }, { ratio(.s2, .b1, $0) }),
    ("fast path ÷ B0", { _ in 0.8 }, { ratio(.fast, .b0, $0) }),
    ("pgbench fast ÷ pgbench cas (the statement)", { _ in nil }, { ratio(pgbench: "fast", "cas", $0) }),
    ("fast path ÷ pgbench fast (the client)", { _ in nil }, { ratio(.fast, pgbench: "fast", $0) }),
    ("B0 ÷ pgbench cas", { _ in nil }, { ratio(.b0, pgbench: "cas", $0) }),
    ("B1 ÷ pgbench locked", { _ in nil }, { ratio(.b1, pgbench: "locked", $0) }),
    ("S1 ÷ B1", { _ in nil }, { ratio(.s1, .b1, $0) }),
    ("S3 ÷ B1", { _ in nil }, { ratio(.s3, .b1, $0) }),
    ("fast path ÷ S2", { _ in nil }, { ratio(.fast, .s2, $0) }),
    ("G2 (generated API) ÷ fast path", { _ in 0.97 }, { ratio(.generated, .fast, $0) }),
  ]

  print()
  print("The server's CPU per event (all `postgres` processes' user + system time in the measured time ÷ events), µs:")
  print()
  print("| Row |" + levels.map { " \($0) |" }.joined())
  print("|---|" + String(repeating: "--:|", count: levels.count))
  for (key, _) in pgbenchRows {
    guard let figures = pgbench[key], figures.values.contains(where: { $0.serverMicroseconds != nil }) else { continue }
    print("| pgbench \(key) |" + levels.map { level in
      figures[level]?.serverMicroseconds.map { String(format: " %.0f |", $0) } ?? " – |"
    }.joined())
  }
  for id in ids {
    print("| \(id.rawValue) |" + levels.map { level in serverMicroseconds(id, level).map { String(format: " %.0f |", $0) } ?? " – |" }.joined())
  }
  print()
  print("| Ratio of events per second | goal |" + levels.map { " \($0) |" }.joined())
  print("|---|--:|" + String(repeating: "--:|", count: levels.count))
  for line in ratios where levels.contains(where: { line.value($0) != nil }) {
    // The goal at each level, once when it is the same at all.
    let goals = levels.map { line.goal($0).map { String(format: "%.2f", $0) } ?? "–" }
    let goalColumn = goals.allSatisfy { $0 == "–" } ? "" : "≥ " + (Set(goals).count == 1 ? goals[0] : goals.joined(separator: " / "))
    print("| \(line.name) | \(goalColumn) |" + levels.map { level in
      guard let value = line.value(level) else { return " – |" }
      let verdict = line.goal(level).map { value >= $0 ? " met" : " **missed**" } ?? ""
      return String(format: " %.2f%@ |", value, verdict)
    }.joined())
  }
  print()
  for line in ratios {
    for level in levels {
      if let limit = line.goal(level), let value = line.value(level) {
        goal("\(line.name) >= \(String(format: "%.2f", limit)) at \(level) tasks", value, limit)
      }
    }
  }
}

/// A latency in milliseconds.
private func formatMilliseconds(_ milliseconds: Double) -> String {
  String(format: milliseconds < 10 ? "%.2f" : "%.1f", milliseconds)
}
