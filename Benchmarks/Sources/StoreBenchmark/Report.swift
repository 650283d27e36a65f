// The store benchmark's checks and table.

import Foundation
import GRDB
import StateMachinesSQLite

/// The median of some values.
func median(_ values: [Double]) -> Double {
  values.sorted()[values.count / 2]
}

/// One row's speed in one round, in events per second.
struct Speed {
  /// Per second of the process's CPU time.
  let cpu: Double
  /// Per second on the wall clock.
  let wall: Double
}

/// The median over the rounds of `row`'s speed divided by `baseline`'s in the same round.
func ratio(_ row: String, _ baseline: String, _ speeds: [String: [Speed]], _ measure: KeyPath<Speed, Double>) -> Double {
  median(zip(speeds[row]!, speeds[baseline]!).map { $0[keyPath: measure] / $1[keyPath: measure] })
}

/// Stops the process unless every event of every row took its transition and wrote what it
/// should: versions, history rows, no deadline left behind.
func check(_ stores: Stores, _ cases: [StoreCase], fired: Int) async throws {
  try await stores.pool.read { db in
    for c in cases {
      let rows = c.rows.map(String.init)
      let table = c.id == "S3" ? "countdowns" : "toggles"
      let list = rows.joined(separator: ", ")
      let versions = try Int.fetchOne(db, sql: "SELECT SUM(sm_version) FROM \(table) WHERE id IN (\(list))")!
      let history = try Int.fetchOne(
        db, sql: "SELECT COUNT(*) FROM \(c.history) WHERE machine = ? AND entity_id IN (\(list))", arguments: [table])!
      let deadlines = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sm_deadlines WHERE entity_id IN (\(list))")!
      let expectedHistory = ["B0", "S1"].contains(c.id) ? 0 : 2 * fired
      guard versions == 2 * fired, history == expectedHistory, deadlines == 0 else {
        fatalError("\(c.id): versions \(versions), history rows \(history), deadlines \(deadlines); fired \(2 * fired)")
      }
    }
  }
  print("checks: every row's version counts its events, history rows as configured, no deadline left")
}

/// Prints the table in Markdown, for the README: speeds and ratios to B0 and B1 of the same mode.
func printTable(_ cases: [StoreCase], _ speeds: [String: [Speed]], _ measure: KeyPath<Speed, Double>) {
  print("| Row | What | sync events/s | ÷ B0 | ÷ B1 | async events/s | ÷ B0 | ÷ B1 |")
  print("|---|---|--:|--:|--:|--:|--:|--:|")
  for c in cases {
    var line = "| \(c.id) | \(c.name) |"
    for mode in ["sync", "async"] {
      let key = "\(c.id) \(mode)"
      let values = speeds[key]!.map { $0[keyPath: measure] }
      line += " \(thousands(median(values))) (\(thousands(values.min()!))–\(thousands(values.max()!))) |"
      for baseline in ["B0", "B1"] {
        line += String(format: " %.2f |", ratio(key, "\(baseline) \(mode)", speeds, measure))
      }
    }
    print(line)
  }
}

/// Prints whether a goal on a ratio is met, and by how much it is missed.
func goal(_ description: String, _ value: Double, _ limit: Double) {
  let verdict = value >= limit ? "met" : String(format: "MISSED by %.0f%%", (1 - value / limit) * 100)
  print(String(format: "goal %@: %.2f, %@", description, value, verdict))
}

/// A number of events per second with thousands separators.
func thousands(_ value: Double) -> String {
  let digits = String(Int(value.rounded()))
  var out = ""
  for (i, ch) in digits.enumerated() {
    if i > 0 && (digits.count - i) % 3 == 0 { out += "," }
    out.append(ch)
  }
  return out
}
