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
    machineClass.isObservable ? observationAccessStatement + "return " : ""
  }

  /// The same access as a statement of its own, for bodies that `return` anyway.
  private var observationAccessStatement: String {
    machineClass.isObservable ? "_$observationRegistrar.access(self, keyPath: \\.state)\n  " : ""
  }

  func members(states: [GeneratedName], events: [GeneratedName]) -> [DeclSyntax] {
    var members = storageMembers()
    if !events.isEmpty || !states.isEmpty { members += idMembers(states: states, events: events) }
    if machineClass.isStoreManaged {
      members += nameEnums(states: states, events: events)
      for event in events { members += storeEventMembers(event) }
    } else {
      for event in events { members += eventMembers(event) }
    }
    for state in states { members += stateMembers(state) }
    return Self.verbatim(members)
  }

  /// The members as syntax nodes that carry their source text unparsed.
  ///
  /// The compiler receives a macro's expansion as text and parses it itself; the plugin's syntax
  /// tree is only printed. Parsing the generated source in the plugin first (a `DeclSyntax`
  /// string literal per member) cost most of the expansion's time in a debug build, which is what
  /// a debug build of the user's code runs. So each member is one token whose text is the
  /// member's source, printed verbatim (formatting is off, see `StateMachineMacro.formatMode`).
  /// The text is well-formed Swift: the macro expansion tests compare it and compile it.
  private static func verbatim(_ members: [String]) -> [DeclSyntax] {
    members.map { DeclSyntax(MissingDeclSyntax(placeholder: .identifier($0))) }
  }

  /// `name` as a Swift string literal.
  private func literal(_ name: String) -> String {
    StringLiteralExprSyntax(content: name).description
  }

  /// The resolved IDs of the events and states and the definition itself, in one struct stored in
  /// one static property: the first access resolves them all, and every generated member checks
  /// one initialisation token (`swift_once`, a call on Linux), not one for the IDs and one for the
  /// definition; a loop that fires several events checks it once. The definition is kept as an
  /// opaque pointer (it is a `static let`, alive for the whole process), so that reading it costs
  /// no retain and release; the runtime's `_$fire`, `_$can` and `_$isInState` take it back. The
  /// initializer is generic so that the struct needs no conformance of the class, which may be
  /// isolated to a global actor.
  ///
  /// The struct is `@unchecked Sendable` only for that pointer (`UnsafeRawPointer` is not
  /// `Sendable`): every field is a `let` set once, by the `static let`'s initializer, and the
  /// pointer names a definition (itself `Sendable`, never changed) that the process keeps alive
  /// and no code writes through. The generated text carries no comment, so that expansions stay
  /// as the tests expect them.
  private func idMembers(states: [GeneratedName], events: [GeneratedName]) -> [String] {
    let fields =
      events.map { "  let event_\($0.identifier): StateMachines.StateMachineEventID\n" }
      + states.map { "  let state_\($0.identifier): StateMachines.StateMachineStateID\n" }
    let assignments =
      events.map { "    event_\($0.identifier) = definition.eventID(\(StringLiteralExprSyntax(content: $0.name)))\n" }
      + states.map { "    state_\($0.identifier) = definition.stateID(\(StringLiteralExprSyntax(content: $0.name)))\n" }
    return [
      """
      private struct _$StateMachineIDs: @unchecked Sendable {
        let definition: UnsafeRawPointer
      \(fields.joined())
        init<Model>(_ definition: StateMachines.StateMachineDefinition<Model>) {
          self.definition = StateMachines.StateMachineDefinition<Model>._$opaque(definition)
      \(assignments.joined())  }
      }
      """,
      "private static let _$stateMachineIDs = _$StateMachineIDs(\(definition))",
    ]
  }

  private func storageMembers() -> [String] {
    let name = machineClass.name
    let storeManagedArgument = machineClass.isStoreManaged ? "storeManaged: true" : ""
    var members: [String] = [
      """
      /// The current state of the state machine.
      \(modifiers)var state: String {
        \(observationAccess)\(definition).currentState(of: self)
      }
      """,
      """
      \(modifiers)var stateMachineDefinition: StateMachines.StateMachineDefinition<\(name)> {
        \(definition)
      }
      """,
      "\(modifiers)var _$stateMachineModel: \(name) {\n  self\n}",
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
        \(machineClass.accessModifier)enum _$StateMachineDefinitionProvider: StateMachines.StateMachineDefinitionProvider {
          \(machineClass.accessModifier)static var definition: StateMachines.StateMachineDefinition<\(name)> {
            \(definition)
          }
        }
        """,
        "\(unchecked)\(modifiers)\(unsafe)var _$stateMachineCodableStorage = StateMachines.CodableStateMachineStorage<_$StateMachineDefinitionProvider>(\(storeManagedArgument))",
        """
        \(modifiers)var _$stateMachineStorage: StateMachines.StateMachineStorage {
          _read {
            yield _$stateMachineCodableStorage.storage
          }
          _modify {
            yield &_$stateMachineCodableStorage.storage
          }
        }
        """,
      ]
      if !machineClass.declaresCodingKeys {
        // The state is encoded under the key "state", next to the class's own properties; a
        // store-managed class leaves it out: the store owns the state columns (P13).
        let cases = machineClass.codingKeyCases.map { "  case \($0)\n" }.joined()
        let state = machineClass.isStoreManaged ? "" : "  case _$stateMachineCodableStorage = \"state\"\n"
        members.append(
          """
          enum CodingKeys: String, CodingKey {
          \(cases)\(state)}
          """)
      }
    } else {
      let storage =
        machineClass.isStoreManaged
        ? "StateMachines.StateMachineStorage(\(definition), storeManaged: true)"
        : "StateMachines.StateMachineStorage(\(definition))"
      members.append("\(unchecked)\(modifiers)\(unsafe)var _$stateMachineStorage = \(storage)")
    }
    // A Sendable class is serialised by the lock of the object that holds its storage: the
    // storage box of a Codable class (so that encoding can take it), else the object itself.
    if machineClass.needsLock {
      let guarded = machineClass.isCodable ? "_$stateMachineCodableStorage.lock" : "StateMachines.StateMachineLock(guarding: self)"
      members.append("\(modifiers)var _$stateMachineLock: StateMachines.StateMachineLock? {\n  \(guarded)\n}")
    } else {
      members.append("\(modifiers)var _$stateMachineLock: StateMachines.StateMachineLock? {\n  nil\n}")
    }
    if let globalActor = machineClass.globalActor {
      members.append("\(modifiers)var _$stateMachineActor: (any Actor)? {\n  \(globalActor).shared\n}")
      members += isolatedDynamicMembers()
    }
    if machineClass.isObservable {
      members += [
        "\(modifiers)var _$stateMachineHasStateHooks: Bool {\n  true\n}",
        """
        \(modifiers)func _$stateMachineWillChangeState() {
          _$observationRegistrar.willSet(self, keyPath: \\.state)
        }
        """,
        """
        \(modifiers)func _$stateMachineDidChangeState() {
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
  private func isolatedDynamicMembers() -> [String] {
    [
      """
      /// Fires an event by name; see `StateMachineObject.fire(_:payload:)`.
      @discardableResult
      \(modifiers)func fire(_ event: String, payload: (any Sendable)? = nil) -> Bool {
        \(definition).fire(event, payload: payload, on: self)
      }
      """,
      """
      /// Fires an event by name and says why it was rejected; see `StateMachineObject.fireOrThrow(_:payload:)`.
      \(modifiers)func fireOrThrow(_ event: String, payload: (any Sendable)? = nil) throws(StateMachines.StateMachineError) {
        try \(definition).fireOrThrow(event, payload: payload, on: self)
      }
      """,
      """
      /// Whether the event named `event` would take a transition now.
      \(modifiers)func can(_ event: String) -> Bool {
        \(definition).can(event, on: self)
      }
      """,
      """
      /// Whether the machine is in the state named `state`.
      \(modifiers)func isInState(_ state: String) -> Bool {
        \(definition).isInState(state, on: self)
      }
      """,
      """
      /// Fires an event by name on the class's actor, awaited from any context, and says how it ended.
      \(modifiers)func send(_ event: String, payload: (any Sendable)? = nil, source: StateMachines.InspectionSource = .api) async -> StateMachines.FireOutcome {
        \(definition).send(event, payload: payload, source: source, on: self)
      }
      """,
    ]
  }

  /// `let ids = …` for a member's body (one initialisation check), and the definition's type,
  /// whose `_$fire`, `_$can` and `_$isInState` take `ids.definition`.
  private var idsAndDefinition: (ids: String, definition: String) {
    (
      "let ids = \(machineClass.name)._$stateMachineIDs\n  ",
      "StateMachines.StateMachineDefinition<\(machineClass.name)>"
    )
  }

  /// An event's method, its payload variant and its `can…` query. The method is
  /// `@inline(__always)`: its inlined part (the tiers of ``StateMachineDefinition/fire(_:on:)``)
  /// runs a transition without code, and one whose only code is an `after` callback, without a
  /// call into the library, which pays only if the method itself is inlined into its caller; left
  /// to the optimiser, it is too large for that.
  private func eventMembers(_ event: GeneratedName) -> [String] {
    let id = "ids.event_\(event.identifier)"
    let (ids, definition) = idsAndDefinition
    return [
      """
      /// Fires event \(literal(event.name)). Returns whether a transition happened.
      @discardableResult @inline(__always)
      \(modifiers)func \(event.identifier)() -> Bool {
        \(ids)return \(definition)._$fire(ids.definition, \(id), on: self)
      }
      """,
      """
      /// Fires event \(literal(event.name)) with a payload that callbacks, guards and actions receive.
      @discardableResult
      \(modifiers)func \(event.identifier)(with payload: any Sendable) -> Bool {
        \(ids)return \(definition)._$fireWithPayload(ids.definition, \(id), payload: payload, on: self)
      }
      """,
      canMember(event),
    ]
  }

  /// An event's `can…` query, synchronous for every class: it answers for the state the object
  /// holds.
  private func canMember(_ event: GeneratedName) -> String {
    let (ids, definition) = idsAndDefinition
    return """
      /// Whether event \(literal(event.name)) would take a transition now.
      \(modifiers)var can\(NameRules.capitalized(event.identifier)): Bool {
        \(ids)\(observationAccessStatement)return \(definition)._$can(ids.definition, ids.event_\(event.identifier), on: self)
      }
      """
  }

  /// A store-managed class's event methods: each is one store step on the object's row through
  /// the store that bound it (Persistence P1–P5), so it is `async throws`; there is no synchronous
  /// form to call by mistake. The `can…` query stays synchronous: it answers for the state the
  /// object holds.
  private func storeEventMembers(_ event: GeneratedName) -> [String] {
    let definition = idsAndDefinition.definition
    let name = literal(event.name)
    return [
      """
      /// Fires event \(name) as one store step on this object's row. Returns `true` when the
      /// transition committed, `false` when the definition refused the event (nothing written).
      /// Throws `StateMachineStoreError` for a lost race (`.conflict`), a failed callback or a
      /// database failure; afterwards the object holds the row's committed state and version.
      @discardableResult
      \(modifiers)func \(event.identifier)() async throws(StateMachines.StateMachineStoreError) -> Bool {
        try await \(definition)._$fireInStore(\(name), payload: nil, on: self)
      }
      """,
      """
      /// Fires event \(name) with a payload as one store step on this object's row; see `\(event.identifier)()`.
      @discardableResult
      \(modifiers)func \(event.identifier)(with payload: any Encodable & Sendable) async throws(StateMachines.StateMachineStoreError) -> Bool {
        try await \(definition)._$fireInStore(\(name), payload: payload, on: self)
      }
      """,
      canMember(event),
    ]
  }

  /// The compiler-checked names of a store-managed class's events and states, for the calls that
  /// address a row by id (`orders.fire(.pay, on: 42)`, `orders.ids(in: .paid)`). Each case's raw
  /// value is the declared name; an enum without cases says so by hand (a raw type needs cases).
  private func nameEnums(states: [GeneratedName], events: [GeneratedName]) -> [String] {
    func nameEnum(_ type: String, _ names: [GeneratedName], _ what: String) -> String {
      let access = machineClass.accessModifier
      guard !names.isEmpty else {
        return """
          /// The \(what) of `\(machineClass.name)`: it declares none.
          \(access)enum \(type): StateMachines.StateMachineName {
            \(access)var rawValue: Swift.String {
              switch self {}
            }
            \(access)init?(rawValue: Swift.String) {
              return nil
            }
          }
          """
      }
      let cases = names.map { name in
        let identifier = NameRules.keywords.contains(name.identifier) ? "`\(name.identifier)`" : name.identifier
        return name.identifier == name.name ? "  case \(identifier)\n" : "  case \(identifier) = \(literal(name.name))\n"
      }
      return """
        /// The \(what) of `\(machineClass.name)`, checked by the compiler: each case's raw value is the declared name.
        \(access)enum \(type): Swift.String, StateMachines.StateMachineName {
        \(cases.joined())}
        """
    }
    return [nameEnum("EventName", events, "events"), nameEnum("StateName", states, "states")]
  }

  private func stateMembers(_ state: GeneratedName) -> [String] {
    [
      """
      /// Whether the machine is in state \(literal(state.name)).
      \(modifiers)var is\(NameRules.capitalized(state.identifier)): Bool {
        \(idsAndDefinition.ids)\(observationAccessStatement)return \(idsAndDefinition.definition)._$isInState(ids.definition, ids.state_\(state.identifier), on: self)
      }
      """,
    ]
  }
}
