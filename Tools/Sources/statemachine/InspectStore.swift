import Foundation
import StateMachines
import StateMachinesInspector

/// `statemachine inspect --db DB [--machine NAME]`: the inspector page for a store's rows of one
/// machine (the Inspecting article): how many rows are in each state, any row's history and
/// deadlines, and events fired through the store (not on an application's own table).
struct InspectStore {
  let machine: StoreMachine

  /// The machines to show: `name` alone (a chart of `sm_machines`, else a recorded table), or
  /// every chart and every recorded application table of the database.
  static func machines(of database: any StoreBackend, named name: String?) async throws -> [StoreMachine] {
    let tables = try await database.machineTables()
    if let name {
      if let table = tables.first(where: { $0.machine == name }) { return [try StoreMachine(database, table: table)] }
      return [try await StoreMachine(database, name: name)]
    }
    var machines: [StoreMachine] = []
    for chart in try await database.chartNames() { machines.append(try await StoreMachine(database, name: chart)) }
    for table in tables where !machines.contains(where: { $0.name == table.machine }) {
      machines.append(try StoreMachine(database, table: table))
    }
    guard !machines.isEmpty else {
      throw ToolError("error: \(database.label): no machine (no chart in sm_machines, no table in sm_machine_tables)")
    }
    return machines
  }

  /// The store as the inspector reads it.
  var view: InspectorStore {
    let access = StoreAccess(machine)
    return InspectorStore(
      rows: { try await access.rows() }, instance: { try await access.instance($0) },
      fire: { try await access.fire($0, $1, $2) })
  }
}

/// The store machine, shared with the server's tasks.
///
/// `@unchecked Sendable`: the backends are safe to use from several tasks at once (a GRDB
/// database pool or queue; a PostgreSQL client), as several `store` processes use one database.
private final class StoreAccess: @unchecked Sendable {
  let machine: StoreMachine
  init(_ machine: StoreMachine) { self.machine = machine }

  func rows() async throws -> [InspectorStore.Row] {
    let states = try await machine.database.states(machine.rows)
    // A row whose state the chart lacks has no configuration to draw (its count shows nowhere).
    return states.sorted { $0.key < $1.key }.map { id, state in
      InspectorStore.Row(id: id, state: state, configuration: machine.definition.activeStates(inStored: state))
    }
  }

  func instance(_ id: String) async throws -> InspectorJSON? {
    guard let snapshot = try await machine.database.snapshot(machine.rows, id: id) else { return nil }
    let history = try await machine.call { () async throws(StateMachineStoreError) in
      try await machine.store.history(of: id)
    }
    let text = { (date: Date) in InspectorJSON.string(timestamp(date)) }
    return .object([
      "id": .string(id), "state": .string(snapshot.state), "version": .number(Double(snapshot.version)),
      "terminated": .bool(snapshot.terminated),
      "configuration": .array(machine.definition.activeStates(inStored: snapshot.state).map { .string($0) }),
      "deadlines": .array(
        snapshot.deadlines.map { deadline in
          .object(["event": .string(deadline.event), "state": deadline.state.map { .string($0) } ?? .null, "dueAt": text(deadline.dueAt)])
        }),
      "history": .array(
        history.map { transition in
          .object([
            "version": .number(Double(transition.version)), "event": .string(transition.event),
            "from": .string(transition.from), "to": .string(transition.to), "cause": .string(transition.cause.rawValue),
            "payload": transition.payload.map { .string(String(decoding: $0, as: UTF8.self)) } ?? .null,
            "at": text(transition.at),
          ])
        }),
    ])
  }

  func fire(_ id: String, _ event: String, _ payload: InspectorJSON?) async throws -> InspectorStore.Outcome {
    if case .table(let table) = machine.rows {
      let state = try await machine.database.snapshot(machine.rows, id: id)?.state ?? ""
      return .init(
        outcome: "rejected",
        reason: "'\(table.table)' is an application's table: its events are fired by the application, whose callbacks are not here",
        state: state)
    }
    guard machine.definition.hasEvent(event) else {
      return .init(outcome: "rejected", reason: "'\(event)' is not an event of machine '\(machine.name)'", state: "")
    }
    let parsed = try payload.map { try JSONPayload.parse($0.description) }
    do throws(StateMachineStoreError) {
      let fired = try await machine.store.fire(event, on: id, payload: parsed, options: FireOptions())
      return .init(outcome: "transition", reason: nil, state: fired.to)
    } catch .rejected(let error) {
      let stored = try await machine.existing(id)
      return .init(outcome: "rejected", reason: oneLine("\(error)"), state: stored.state)
    } catch .notFound {
      throw ToolError("machine '\(machine.name)' has no row with id '\(id)'")
    } catch {
      throw ToolError(machine.database.describe(error))
    }
  }
}
