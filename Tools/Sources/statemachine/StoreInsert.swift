import ArgumentParser
import StateMachines

/// `statemachine store insert --db DB --machine NAME ID…`: new instances in the chart's initial
/// configuration at version 0, with the deadlines of the states they enter armed (P8).
///
/// An id that is given twice or already has a row is refused before anything is inserted (exit 1).
/// Each instance is inserted in its own transaction: should another process insert one of the ids
/// between the check and the insert, the ids before it stay inserted and the command exits 1.
/// Prints each id with its initial state.
struct StoreInsert: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "insert", abstract: "Insert new instances in the initial configuration (their deadlines armed).")

  @OptionGroup var options: StoreOptions

  @Argument(help: "The new instances' ids.")
  var ids: [String]

  func run() async throws {
    try await runReporting {
      guard !ids.isEmpty else { throw ToolError("error: give the ids of the instances to insert") }
      if let empty = ids.firstIndex(of: "") { throw ToolError("error: id \(empty + 1) is empty") }
      if let twice = ids.first(where: { id in ids.filter { $0 == id }.count > 1 }) {
        throw ToolError("error: id '\(twice)' is given twice")
      }
      try await StoreMachine.with(options) { machine in
        for id in ids {
          let stored = try await machine.call { () async throws(StateMachineStoreError) in
            try await machine.store.storedState(of: id)
          }
          if stored != nil { throw ToolError("error: machine '\(machine.name)' already has a row with id '\(id)'") }
        }
        for id in ids {
          do {
            try await machine.call { () async throws(StateMachineStoreError) in try await machine.store.insert(id) }
          } catch let error as ToolError {
            // Another process inserted the id since the check above.
            guard (try? await machine.existing(id)) != nil else { throw error }
            throw ToolError("error: machine '\(machine.name)' already has a row with id '\(id)'")
          }
          print("\(id): \(try await machine.existing(id).state)")
        }
      }
    }
  }
}
