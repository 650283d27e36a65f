// The tables of the PostgreSQL store benchmark, in Markdown for the README, and its goals
// (Benchmarks/README.md): the fast path ≥ 0.8 × pgbench's compare-and-set and the locked
// step S2 ≥ 0.8 × the hand-written locked transaction B1.

import Foundation

/// pgbench's figures at one level: transactions per second, p50 and p99 latency in milliseconds.
struct PgbenchFigures {
  let tps: Double
  let p50: Double
  let p99: Double
}

/// Reads the script's TSV, one line per run: `cas|locked <TAB> clients <TAB> tps <TAB> p50 <TAB> p99`.
func readPgbenchFigures(_ path: String) throws -> [String: [Int: PgbenchFigures]] {
  var figures: [String: [Int: PgbenchFigures]] = [:]
  for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
    let fields = line.split(separator: "\t").map(String.init)
    guard fields.count == 5, let clients = Int(fields[1]), let tps = Double(fields[2]), let p50 = Double(fields[3]),
      let p99 = Double(fields[4])
    else { throw PostgresBenchmarkFailure("\(path): not a pgbench line: \(line)") }
    figures[fields[0], default: [:]][clients] = PgbenchFigures(tps: tps, p50: p50, p99: p99)
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
  // The minimal goal holds where the server has more than one client to plan for (8 and 32).
  let ratios: [(name: String, goal: Double?, value: (Int) -> Double?)] = [
    ("fast path ÷ pgbench minimal, prepared (at 8 and 32)", 0.8, { $0 >= 8 ? ratio(.fast, pgbench: "minimal", $0) : nil }),
    ("fast path ÷ pgbench minimal, prepared", nil, { ratio(.fast, pgbench: "minimal", $0) }),
    ("pgbench minimal: 8 ÷ 1 clients", nil, { $0 == 8 ? ratio(pgbench: "minimal", 1, 8) : nil }),
    ("fast path: 8 ÷ 1 tasks", nil, { $0 == 8 ? ratio(.fast, tasks: 8, over: 1) : nil }),
    ("fast path ÷ B0p (the same work by hand, prepared, through postgres-nio)", nil, { ratio(.fast, .b0p, $0) }),
    ("fast path ÷ fast1 (what sharing statements gives)", nil, { ratio(.fast, .fastAlone, $0) }),
    ("B0p ÷ pgbench minimal (the client library)", nil, { ratio(.b0p, pgbench: "minimal", $0) }),
    ("fast path ÷ pgbench cas", nil, { ratio(.fast, pgbench: "cas", $0) }),
    ("S2 ÷ B1", 0.8, { ratio(.s2, .b1, $0) }),
    ("fast path ÷ B0", 0.8, { ratio(.fast, .b0, $0) }),
    ("pgbench fast ÷ pgbench cas (the statement)", nil, { ratio(pgbench: "fast", "cas", $0) }),
    ("fast path ÷ pgbench fast (the client)", nil, { ratio(.fast, pgbench: "fast", $0) }),
    ("B0 ÷ pgbench cas", nil, { ratio(.b0, pgbench: "cas", $0) }),
    ("B1 ÷ pgbench locked", nil, { ratio(.b1, pgbench: "locked", $0) }),
    ("S1 ÷ B1", nil, { ratio(.s1, .b1, $0) }),
    ("S3 ÷ B1", nil, { ratio(.s3, .b1, $0) }),
    ("fast path ÷ S2", nil, { ratio(.fast, .s2, $0) }),
    ("G2 (generated API) ÷ fast path", 0.97, { ratio(.generated, .fast, $0) }),
  ]
  print()
  print("| Ratio of events per second | goal |" + levels.map { " \($0) |" }.joined())
  print("|---|--:|" + String(repeating: "--:|", count: levels.count))
  for line in ratios where levels.contains(where: { line.value($0) != nil }) {
    print("| \(line.name) | \(line.goal.map { "≥ \($0)" } ?? "") |" + levels.map { level in
      guard let value = line.value(level) else { return " – |" }
      let verdict = line.goal.map { value >= $0 ? " met" : " **missed**" } ?? ""
      return String(format: " %.2f%@ |", value, verdict)
    }.joined())
  }
  print()
  for line in ratios {
    guard let limit = line.goal else { continue }
    for level in levels {
      if let value = line.value(level) { goal("\(line.name) >= \(limit) at \(level) tasks", value, limit) }
    }
  }
}

/// A latency in milliseconds.
private func formatMilliseconds(_ milliseconds: Double) -> String {
  String(format: milliseconds < 10 ? "%.2f" : "%.1f", milliseconds)
}
