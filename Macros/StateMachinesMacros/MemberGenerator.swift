import SwiftSyntax
import SwiftSyntaxBuilder

/// Writes the members `@StateMachine` adds to a class.
///
/// Generated code names everything fully (`StateMachines.…`) and reaches the definition through
/// the class's own name, so it works in nested, non-final and actor-isolated classes alike.
struct MemberGenerator {
  let machineClass: MachineClass
  let definitionProperty: String

  /// `Subscription.stateMachine`
  private var definition: String { "\(machineClass.name).\(definitionProperty)" }

  /// Access level, plus `final` in a non-final class so that subclasses cannot override members
  /// the runtime relies on.
  private var modifiers: String { machineClass.accessModifier + (machineClass.isFinal ? "" : "final ") }

  /// In an `@Observable` class, reading a query registers an access to `state`, so that views
  /// re-render when a transition changes it.
  private var observationAccess: String {
    machineClass.isObservable ? "_$observationRegistrar.access(self, keyPath: \\.state)\n  return " : ""
  }

  func members(states: [GeneratedName], events: [GeneratedName]) -> [DeclSyntax] {
    var members = storageMembers()
    if !events.isEmpty || !states.isEmpty { members += idMembers(states: states, events: events) }
    for event in events { members += eventMembers(event) }
    for state in states { members += stateMembers(state) }
    return members
  }

  /// The resolved IDs of the events and states, in one struct stored in one static property: the
  /// first access resolves them all, and a loop that fires several events checks one
  /// initialisation token, which the optimiser hoists out of the loop (one static per event would
  /// leave all but the first check in the loop). The initializer is generic so that it needs no
  /// conformance of the class, which may be isolated to a global actor.
  private func idMembers(states: [GeneratedName], events: [GeneratedName]) -> [DeclSyntax] {
    let fields =
      events.map { "  let event_\($0.identifier): StateMachines.StateMachineEventID\n" }
      + states.map { "  let state_\($0.identifier): StateMachines.StateMachineStateID\n" }
    let assignments =
      events.map { "    event_\($0.identifier) = definition.eventID(\(StringLiteralExprSyntax(content: $0.name)))\n" }
      + states.map { "    state_\($0.identifier) = definition.stateID(\(StringLiteralExprSyntax(content: $0.name)))\n" }
    return [
      """
      private struct _$StateMachineIDs {
      \(raw: fields.joined())
        init<Model>(_ definition: StateMachines.StateMachineDefinition<Model>) {
      \(raw: assignments.joined())  }
      }
      """,
      "private static let _$stateMachineIDs = _$StateMachineIDs(\(raw: definition))",
    ]
  }

  private func storageMembers() -> [DeclSyntax] {
    let name = machineClass.name
    var members: [DeclSyntax] = [
      """
      /// The current state of the state machine.
      \(raw: modifiers)var state: String {
        \(raw: observationAccess)\(raw: definition).currentState(of: self)
      }
      """,
      """
      \(raw: modifiers)var stateMachineDefinition: StateMachines.StateMachineDefinition<\(raw: name)> {
        \(raw: definition)
      }
      """,
      "\(raw: modifiers)var _$stateMachineModel: \(raw: name) { self }",
    ]
    // A lock for a Sendable class; `nonisolated(unsafe)` because every access happens under it.
    let unsafe = machineClass.needsLock ? "nonisolated(unsafe) " : ""
    // The stored storage skips the dynamic exclusivity check (`swift_beginAccess`) that every
    // class property access otherwise pays. Safe because the runtime only makes instantaneous
    // accesses to it (read or write one field, append to or remove from its queue), never one
    // that spans user code, and those accesses are serialised by the object's lock or actor.
    let unchecked = "@exclusivity(unchecked) "
    if machineClass.isCodable {
      members += [
        """
        \(raw: machineClass.accessModifier)enum _$StateMachineDefinitionProvider: StateMachines.StateMachineDefinitionProvider {
          \(raw: machineClass.accessModifier)static var definition: StateMachines.StateMachineDefinition<\(raw: name)> { \(raw: definition) }
        }
        """,
        "\(raw: unchecked)\(raw: modifiers)\(raw: unsafe)var _$stateMachineCodableStorage = StateMachines.CodableStateMachineStorage<_$StateMachineDefinitionProvider>()",
        """
        \(raw: modifiers)var _$stateMachineStorage: StateMachines.StateMachineStorage {
          _read { yield _$stateMachineCodableStorage.storage }
          _modify { yield &_$stateMachineCodableStorage.storage }
        }
        """,
      ]
      if !machineClass.declaresCodingKeys {
        // The state is encoded under the key "state", next to the class's own properties.
        let cases = machineClass.codingKeyCases.map { "  case \($0)\n" }.joined()
        members.append(
          """
          enum CodingKeys: String, CodingKey {
          \(raw: cases)  case _$stateMachineCodableStorage = "state"
          }
          """)
      }
    } else {
      members.append("\(raw: unchecked)\(raw: modifiers)\(raw: unsafe)var _$stateMachineStorage = StateMachines.StateMachineStorage(\(raw: definition))")
    }
    // A Sendable class is serialised by the lock of the object that holds its storage: the
    // storage box of a Codable class (so that encoding can take it), else the object itself.
    if machineClass.needsLock {
      let guarded = machineClass.isCodable ? "_$stateMachineCodableStorage.lock" : "StateMachines.StateMachineLock(guarding: self)"
      members.append("\(raw: modifiers)var _$stateMachineLock: StateMachines.StateMachineLock? { \(raw: guarded) }")
    } else {
      members.append("\(raw: modifiers)var _$stateMachineLock: StateMachines.StateMachineLock? { nil }")
    }
    if let globalActor = machineClass.globalActor {
      members.append("\(raw: modifiers)var _$stateMachineActor: (any Actor)? { \(raw: globalActor).shared }")
      members += isolatedDynamicMembers()
    }
    if machineClass.isObservable {
      members += [
        "\(raw: modifiers)var _$stateMachineHasStateHooks: Bool { true }",
        """
        \(raw: modifiers)func _$stateMachineWillChangeState() {
          _$observationRegistrar.willSet(self, keyPath: \\.state)
        }
        """,
        """
        \(raw: modifiers)func _$stateMachineDidChangeState() {
          _$observationRegistrar.didSet(self, keyPath: \\.state)
        }
        """,
      ]
    }
    return members
  }

  /// The string-keyed API as members of an actor-isolated class. The ``StateMachineObject``
  /// conformance of such a class is isolated too, so its extension methods cannot be called from
  /// outside the actor; these members can, with `await`, from any context.
  private func isolatedDynamicMembers() -> [DeclSyntax] {
    [
      """
      /// Fires an event by name; see `StateMachineObject.fire(_:payload:)`.
      @discardableResult
      \(raw: modifiers)func fire(_ event: String, payload: (any Sendable)? = nil) -> Bool {
        \(raw: definition).fire(event, payload: payload, on: self)
      }
      """,
      """
      /// Fires an event by name and says why it was rejected; see `StateMachineObject.fireOrThrow(_:payload:)`.
      \(raw: modifiers)func fireOrThrow(_ event: String, payload: (any Sendable)? = nil) throws(StateMachines.StateMachineError) {
        try \(raw: definition).fireOrThrow(event, payload: payload, on: self)
      }
      """,
      """
      /// Whether the event named `event` would take a transition now.
      \(raw: modifiers)func can(_ event: String) -> Bool {
        \(raw: definition).can(\(raw: definition).eventID(event), on: self)
      }
      """,
      """
      /// Whether the machine is in the state named `state`.
      \(raw: modifiers)func isInState(_ state: String) -> Bool {
        \(raw: definition).isInState(\(raw: definition).stateID(state), on: self)
      }
      """,
    ]
  }

  private func eventMembers(_ event: GeneratedName) -> [DeclSyntax] {
    let id = "\(machineClass.name)._$stateMachineIDs.event_\(event.identifier)"
    return [
      """
      /// Fires event \(literal: event.name). Returns whether a transition happened.
      @discardableResult
      \(raw: modifiers)func \(raw: event.identifier)() -> Bool {
        \(raw: definition).fire(\(raw: id), on: self)
      }
      """,
      """
      /// Fires event \(literal: event.name) with a payload that callbacks, guards and actions receive.
      @discardableResult
      \(raw: modifiers)func \(raw: event.identifier)(with payload: any Sendable) -> Bool {
        \(raw: definition).fire(\(raw: id), payload: payload, on: self)
      }
      """,
      """
      /// Whether event \(literal: event.name) would take a transition now.
      \(raw: modifiers)var can\(raw: NameRules.capitalized(event.identifier)): Bool {
        \(raw: observationAccess)\(raw: definition).can(\(raw: id), on: self)
      }
      """,
    ]
  }

  private func stateMembers(_ state: GeneratedName) -> [DeclSyntax] {
    [
      """
      /// Whether the machine is in state \(literal: state.name).
      \(raw: modifiers)var is\(raw: NameRules.capitalized(state.identifier)): Bool {
        \(raw: observationAccess)\(raw: definition).isInState(\(raw: machineClass.name)._$stateMachineIDs.state_\(raw: state.identifier), on: self)
      }
      """,
    ]
  }
}
