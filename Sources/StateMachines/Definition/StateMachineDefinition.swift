/// A state machine's states, events, transitions and callbacks, built once per class.
///
/// ```swift
/// static let stateMachine = StateMachineDefinition<Subscription> { sm in
///   sm.addState("pending")
///   sm.addState("active")
///   sm.when("activate", transitionFrom: "pending", to: "active")
///   sm.after("activate") { $0.sendWelcomeMail() }
/// }
/// ```
///
/// The builder closure runs once, in the initializer; the result is validated and compiled into
/// tables indexed by small integers, so that firing a generated event method does no string
/// hashing. A definition is immutable afterwards and may be shared by any number of objects.
///
/// An invalid definition (an undeclared state, say) does not crash: ``definitionError`` names the
/// culprit, and every event is rejected with ``StateMachineError/invalidDefinition(_:)``. Use
/// ``init(validating:)`` or ``validate()`` to get the error thrown instead.
///
/// The closures it holds are called on whatever thread fires the event; for a `Sendable` object,
/// one step at a time (the machine's busy mark), but outside its lock, so they may fire events of
/// this or other machines. They should capture nothing that is not safe to use from there.
///
/// It is `Sendable` (`@unchecked`: it does not change once its initializer returns, and the
/// closures, which are not checked `Sendable`, run as the paragraph above says).
public final class StateMachineDefinition<Model: StateMachineObject>: @unchecked Sendable {
  @usableFromInline let compiled: CompiledMachine<Model>
  /// The state and event names every ``Transition`` of a flat step reads, by index.
  @usableFromInline let transitionNames: TransitionNames
  /// Each event's `before` and `after` callbacks for the flat step, by event index: unowned
  /// references to ``stepCallbackObjects``, which keeps them alive.
  @usableFromInline let stepCallbacks: [Unmanaged<StepCallbacks<Model>>]
  private let stepCallbackObjects: [StepCallbacks<Model>]
  /// The `Transition` of each flat candidate of a full slot, for a step without a payload.
  @usableFromInline let stepTransitions: StepTransitions

  /// Why the definition is invalid, or `nil` if it is valid.
  public let definitionError: DefinitionError?

  /// Whether the class conforms to ``StoreManagedStateMachine``, however the conformance is
  /// declared (in the class's inheritance clause, through a refining protocol, in an extension):
  /// asked of the type once, here, so that every object's storage is store-managed alike (P13).
  let drivesStoreManagedModel: Bool = Model.self is any StoreManagedStateMachine.Type

  /// What loading the definition from data noticed without failing: bindings the document never
  /// uses, say. Empty for a definition built in code.
  public internal(set) var definitionWarnings: [String] = []

  /// The declarations as the builder recorded them, for export (``jsonDefinition()``).
  let declarations: BuilderStore<Model>

  /// Builds a definition. If it is invalid, ``definitionError`` says why and every event is
  /// rejected.
  public init(_ build: (StateMachineBuilder<Model>) -> Void) {
    let builder = StateMachineBuilder<Model>()
    build(builder)
    declarations = builder.store
    do {
      compiled = try CompiledMachine(builder)
      definitionError = nil
    } catch {
      compiled = CompiledMachine(
        rejectingEverythingWith: builder.states, events: builder.eventNames, initial: builder.initialState)
      definitionError = error
    }
    transitionNames = TransitionNames(states: compiled.states, events: compiled.events)
    stepCallbackObjects = StepCallbacks.table(compiled)
    stepCallbacks = stepCallbackObjects.map { Unmanaged.passUnretained($0) }
    stepTransitions = StepTransitions(compiled, names: transitionNames)
  }

  /// Builds a definition and throws if it is invalid.
  public convenience init(validating build: (StateMachineBuilder<Model>) -> Void) throws(DefinitionError) {
    self.init(build)
    try validate()
  }

  /// Throws ``definitionError`` if there is one.
  public func validate() throws(DefinitionError) {
    if let definitionError { throw definitionError }
  }

  /// The states, in the order they were added; for a hierarchical definition, every state's
  /// canonical path in document order (Hierarchy N2, N4), pseudostates excluded.
  public var states: [String] {
    switch compiled.engine {
    case .flat: return compiled.states
    case .statechart(let chart):
      return compiled.states.indices.filter { !chart.tree.kinds[$0].isPseudostate }.map { compiled.states[$0] }
    }
  }

  /// The events, in the order of their first transition.
  public var events: [String] { compiled.events }

  /// The state a new object starts in (empty only for a definition without states).
  public var initialState: String { stateName(compiled.initialStateIndex) }

  /// The final states: entering one terminates the machine.
  public var finalStates: [String] {
    compiled.states.indices.filter { compiled.isFinal[$0] }.map { compiled.states[$0] }
  }

  /// Resolves an event name once, for firing it without string hashing. An unknown name gives an
  /// ID that every call rejects.
  @inlinable
  public func eventID(_ name: String) -> StateMachineEventID {
    eventID(index: eventIndex(name) ?? -1)
  }

  /// The ID of the event at `index`; out of range means unknown. Inlinable: `fire("name")` calls
  /// it on every event.
  @inlinable
  func eventID(index: Int32) -> StateMachineEventID {
    let known = index >= 0 && Int(index) < compiled.events.count
    return compiled.eventIDs[known ? Int(index) : compiled.events.count]
  }

  /// Resolves a state name once, for cheap `is<State>` checks.
  @inlinable
  public func stateID(_ name: String) -> StateMachineStateID {
    StateMachineStateID(definition: compiled.identity, index: compiled.stateTable.index(of: name) ?? stateIndex(resolving: name))
  }

  /// A statechart's state named by a bare name (unique in the machine, N5) or a non-canonical
  /// path (`p@0` for a named region); -1 if none.
  @usableFromInline
  func stateIndex(resolving name: String) -> Int32 {
    compiled.engine.resolve(name)
  }

  @inlinable
  func eventIndex(_ name: String) -> Int32? { compiled.eventTable.index(of: name) ?? prefixEventIndex(name) }

  /// For a definition that matches events by prefix (SCXML 3.12.1,
  /// ``StateMachineBuilder/matchesEventsByPrefix``): the event of the longest dot-separated
  /// prefix of `name` that the definition knows, else `*` if it has it. `nil` otherwise.
  @usableFromInline
  func prefixEventIndex(_ name: String) -> Int32? {
    guard compiled.matchesEventsByPrefix else { return nil }
    var prefix = Substring(name)
    while let dot = prefix.lastIndex(of: ".") {
      prefix = prefix[..<dot]
      if let index = compiled.eventTable.index(of: String(prefix)) { return index }
    }
    return compiled.eventTable.index(of: "*")
  }

  // MARK: The string-keyed API, for models and for the members generated in actor-isolated classes

  /// Fires the event named `event` on `model`; see ``StateMachineObject/fire(_:payload:)``.
  /// Inlinable, so it runs the caller's specialised fast path.
  @inlinable @discardableResult
  public func fire(_ event: String, payload: (any Sendable)? = nil, on model: Model) -> Bool {
    fire(named: event, payload: payload, model, modelChecked: false)
  }

  /// ``fire(_:payload:on:)``; `modelChecked` when `model` is known to be driven by this
  /// definition (``StateMachineObject/fire(_:payload:)`` passes its own definition).
  @inlinable
  func fire(named event: String, payload: (any Sendable)?, _ model: Model, modelChecked: Bool) -> Bool {
    // The payload is not handed to the rejection (nor to its inspection record): doing so, even
    // through a function never inlined, costs every accepted event a copy and a destroy of the
    // existential (Benchmarks/README.md, "Optional existentials not made per call").
    // `fireOrThrow` and `send` record it.
    guard let index = eventIndex(event) else {
      _ = rejectUnknown(event, model)
      return false
    }
    if payload == nil {
      return fire(eventID(index: index), model, modelChecked: modelChecked, soleAfterInPlace: false)
    }
    return fire(eventID(index: index), payload: payload, on: model)
  }

  /// Fires the event named `event` on `model` and throws why it was rejected; see
  /// ``StateMachineObject/fireOrThrow(_:payload:)``.
  @inlinable
  public func fireOrThrow(_ event: String, payload: (any Sendable)? = nil, on model: Model) throws(StateMachineError) {
    guard let index = eventIndex(event) else { throw rejectUnknown(event, model, payload: payload) }
    try fireOrThrow(eventID(index: index), payload: payload, on: model)
  }

  /// Whether firing the event named `event` now would take a transition; see
  /// ``StateMachineObject/can(_:)``. `false` for a name the definition does not know.
  @inlinable
  public func can(_ event: String, on model: Model) -> Bool {
    can(eventID(event), on: model)
  }

  /// Whether `model` is in the state named `state` (a name, or a path in a statechart); see
  /// ``StateMachineObject/isInState(_:)``. `false` for a name the definition does not know.
  @inlinable
  public func isInState(_ state: String, on model: Model) -> Bool {
    isInState(stateID(state), on: model)
  }

  @usableFromInline var initialStateIndex: Int32 { compiled.initialStateIndex }

  @usableFromInline
  func isFinalState(_ index: Int32) -> Bool {
    compiled.isFinal.indices.contains(Int(index)) && compiled.isFinal[Int(index)]
      && compiled.engine.finalStateTerminates(index)
  }

  @usableFromInline
  func stateName(_ index: Int32) -> String {
    compiled.states.indices.contains(Int(index)) ? compiled.states[Int(index)] : ""
  }

  @usableFromInline
  func eventName(_ index: Int32) -> String {
    compiled.events.indices.contains(Int(index)) ? compiled.events[Int(index)] : ""
  }
}

extension StateMachineDefinition {
  /// What caused ``definitionError`` in the declarations, for the loader of a document to locate
  /// it; empty if the error is not about a declaration.
  package var definitionCulprits: [DefinitionCulprit] {
    definitionError == nil ? [] : declarations.failureCulprits
  }
}

extension StateMachineDefinition {
  /// Runs `body` on the object's storage, under its lock if it has one.
  @inlinable @inline(__always)
  func locked<R>(_ model: Model, _ body: () throws -> R) rethrows -> R {
    if let lock = model._$stateMachineLock { return try lock.withLock(body) }
    return try body()
  }

  /// Whether `event` is an ID of this definition and `model` is driven by it. `modelChecked`
  /// skips both checks (the second reads the object's definition, a lazy static for a generated
  /// class): generated members pass it, and the object's own name lookups, whose object is driven
  /// by this definition and whose ID this definition made, by construction. Skipping the first
  /// too keeps one value less alive in a loop of generated calls, which spares the fast tier a spill.
  @inlinable @inline(__always)
  func accepts(_ event: StateMachineEventID, on model: Model, modelChecked: Bool = false) -> Bool {
    modelChecked || (event.definition == compiled.identity && model.stateMachineDefinition === self)
  }

  /// Writes a line to the verbose log, if there is one.
  @inlinable
  func trace(_ message: @autoclosure () -> String) {
    if let log = compiled.log { log.write("[\(Model.self)] " + message()) }
  }

  /// The error for an event name the machine does not know; a terminated machine says so first
  /// (Semantics step 1). Logged.
  @usableFromInline
  func rejectUnknown(
    _ name: String, _ model: Model, source: InspectionSource = .api, payload: (any Sendable)? = nil
  ) -> StateMachineError {
    let (terminated, state) = locked(model) {
      (model._$stateMachineStorage.isTerminated, model._$stateMachineStorage.stateIndex)
    }
    let error: StateMachineError
    if let definitionError {
      error = .invalidDefinition(definitionError)
    } else if terminated {
      error = .terminated(event: name, state: stateName(state))
    } else {
      error = .unknownEvent(name)
    }
    trace("event '\(name)' rejected: \(error)")
    if let inspection = Inspection.listeningInspection(self, of: model) {
      Inspection.recordRejection(self, name, source: source, payload: payload, error, model, inspection)
    }
    return error
  }
}

// The outcomes a step returns, with the trace that says why.
extension StateMachineDefinition {
  /// A rejection: nothing changed. The log says why.
  @inlinable
  func rejected(_ error: StateMachineError) -> StepOutcome {
    trace("rejected: \(error)")
    return .rejected(error)
  }

  /// A failure: a callback of `event` threw `error`, before or after the state was written.
  @inlinable
  func failed(_ event: String, transitionHappened: Bool, _ error: any Error) -> StepOutcome {
    let failure = StateMachineError.callbackFailed(
      event: event, transitionHappened: transitionHappened, underlying: error)
    trace("failed: \(failure)")
    return .failed(failure, transitionHappened: transitionHappened)
  }

  /// The rejection of every event by an invalid definition (out of line: it copies the error).
  @usableFromInline
  func rejectedByDefinition() -> StepOutcome {
    rejected(.invalidDefinition(definitionError!))
  }

  /// The error of a run to completion of `event` that hit the step limit.
  @usableFromInline
  func limitError(_ event: Int32) -> StateMachineError {
    .runToCompletionLimit(event: eventName(event), steps: compiled.maxSteps)
  }
}

extension StateMachineDefinition {
  /// The definition's invokes, in declaration order (empty for an invalid definition).
  public var invokes: [DeclaredInvoke] {
    compiled.invocations.map { DeclaredInvoke(id: $0.id, state: stateName($0.state)) }
  }
}
