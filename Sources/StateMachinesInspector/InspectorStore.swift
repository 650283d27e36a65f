#if Inspector
import Foundation
import StateMachines

/// Persisted instances of one machine (a store's rows), as the page shows them: how many rows
/// are in each state, drawn on the diagram; any instance's history and deadlines; events fired
/// through the store. The app (or `statemachine inspect --db`) supplies the closures.
public struct InspectorStore: Sendable {
  /// One row: its id, its stored state and the active state paths that state stands for.
  public struct Row: Sendable {
    public let id: String
    public let state: String
    public let configuration: [String]

    public init(id: String, state: String, configuration: [String]) {
      self.id = id
      self.state = state
      self.configuration = configuration
    }
  }

  /// How firing an event on a row ended.
  public struct Outcome: Sendable {
    /// `transition` or `rejected`.
    public let outcome: String
    public let reason: String?
    /// The row's state afterwards.
    public let state: String

    public init(outcome: String, reason: String?, state: String) {
      self.outcome = outcome
      self.reason = reason
      self.state = state
    }
  }

  /// Every row (the page shows the first 500 and counts them all).
  public var rows: @Sendable () async throws -> [Row]
  /// One row as JSON (state, version, deadlines, history), `nil` when there is none.
  public var instance: @Sendable (_ id: String) async throws -> InspectorJSON?
  /// Fires `event` on row `id` through the store.
  public var fire: @Sendable (_ id: String, _ event: String, _ payload: InspectorJSON?) async throws -> Outcome

  public init(
    rows: @escaping @Sendable () async throws -> [Row],
    instance: @escaping @Sendable (_ id: String) async throws -> InspectorJSON?,
    fire: @escaping @Sendable (_ id: String, _ event: String, _ payload: InspectorJSON?) async throws -> Outcome
  ) {
    self.rows = rows
    self.instance = instance
    self.fire = fire
  }
}

extension Inspector {
  /// Shows a store's rows of a machine driven by `definition` as `name`: the page draws the
  /// definition with the number of rows in each state, shows any row's history and deadlines,
  /// and fires events on a row through `store`.
  @discardableResult
  public func attach<Model>(store: InspectorStore, definition: StateMachineDefinition<Model>, name: String) -> String {
    let document = (try? JSONEncoder().encode(definition.inspectionDocument)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    let inspected = InspectedObject(
      definitionJSON: document, dot: definition.dotDiagram(identifiers: true),
      send: { _, _ in .init(outcome: "rejected", reason: "a store: fire on one of its instances", state: "") },
      isAlive: { true }, store: store)
    return hub.register(name: name, inspected: inspected)
  }
}
#endif
