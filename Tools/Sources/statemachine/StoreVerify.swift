import ArgumentParser
import Foundation
import StateMachines

/// `statemachine store verify --db DB --machine NAME`: checks the rows against the stored chart
/// (P12): states the chart lacks, deadlines no longer valid or missing, deadlines and outbox
/// messages parked after failures (P11, P16).
///
/// Exit status 0 and `clean` when nothing is wrong; else 1 and one line per problem.
struct StoreVerify: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "verify", abstract: "Check the instances against the chart: exit 0 when clean, else 1 and what is wrong.")

  @OptionGroup var options: StoreOptions

  func run() async throws {
    var problems: [String] = []
    try await runReporting {
      try await StoreMachine.with(options) { machine in
        let report = try await machine.call { () async throws(StateMachineStoreError) in try await machine.store.verify() }
        problems = Self.lines(report)
        if problems.isEmpty { print("clean") }
      }
    }
    guard problems.isEmpty else {
      for line in problems { print(line) }
      throw ExitCode.failure
    }
  }

  /// One line per problem of `report`.
  static func lines(_ report: StoreReport) -> [String] {
    var lines: [String] = []
    for (id, state) in report.unknownStates.sorted(by: { $0.key < $1.key }) {
      lines.append("unknown state: row '\(id)' is in '\(state)', which is not a state of the chart")
    }
    for deadline in report.staleDeadlines {
      lines.append("stale deadline: row '\(deadline.entityID)', \(describe(deadline)), which is not a timeout of an active state")
    }
    for (id, states) in report.missingDeadlines.sorted(by: { $0.key < $1.key }) {
      lines.append("missing deadline: row '\(id)' is in \(states.map { "'\($0)'" }.joined(separator: ", ")) without its deadline")
    }
    for deadline in report.parkedDeadlines {
      lines.append(
        "parked deadline: row '\(deadline.entityID)', \(describe(deadline)), after \(deadline.attempts) attempts: "
          + oneLine(deadline.lastError ?? "no error recorded"))
    }
    for message in report.parkedMessages {
      lines.append(
        "parked message: \(message.id) for row '\(message.entityID)' version \(message.version), topic '\(message.topic)', "
          + "after \(message.attempts) attempts")
    }
    return lines
  }

  private static func describe(_ deadline: StoredDeadline) -> String {
    "event '\(deadline.event)'\(deadline.state.map { " armed by '\($0)'" } ?? "") due \(timestamp(deadline.dueAt))"
  }
}
