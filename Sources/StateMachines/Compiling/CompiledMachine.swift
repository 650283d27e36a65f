import Foundation

/// A validated definition as tables indexed by small integers: what the runtime reads on every
/// event. Built once per definition by ``init(_:)``.
@usableFromInline
struct CompiledMachine<Model> {
  @usableFromInline typealias Callback = MachineCallback<Model>
  @usableFromInline typealias EntryAction = MachineEntryAction<Model>
  @usableFromInline typealias Observer = (Model, Transition) -> Void

  /// One candidate transition of a (state, event) slot.
  @usableFromInline
  struct FlatCandidate {
    /// The target state, or -1 to stay in the current state (a terminating transition).
    @usableFromInline let target: Int32
    @usableFromInline let isInternal: Bool
    @usableFromInline let terminates: Bool
    @usableFromInline let guardBody: MachineGuard<Model>?
    @usableFromInline let action: Callback?
  }

  /// Something that fires an event by itself while the machine is in a state: a timeout or a
  /// notification.
  @usableFromInline
  struct Trigger {
    @usableFromInline let event: Int32
    @usableFromInline let timeout: Duration?
    @usableFromInline let notification: Notification.Name?
    /// An invoke of the state: its index in ``CompiledMachine/invocations``.
    @usableFromInline var invocation: Int32? = nil
  }

  /// A transition as declared, for diagrams.
  struct DeclaredTransition {
    let event: Int32
    /// `nil` for a wildcard.
    let from: [Int32]?
    /// `nil` for a terminating transition that stays.
    let to: Int32?
    let isGuarded: Bool
    let isInternal: Bool
    let terminates: Bool
    let timeout: Duration?
    let notification: Notification.Name?
  }


  /// The identity of this definition, which its event and state IDs carry: an ID of another
  /// definition is rejected with one compare. (An object, not a counter, so it is unique while
  /// the definition lives.)
  @usableFromInline let identity: ObjectIdentifier
  let identityToken: DefinitionIdentity
  /// The most steps one run to completion may take (``StateMachineBuilder/maxStepsPerRunToCompletion``).
  @usableFromInline let maxSteps: Int
  /// Where the timeouts of this definition's clock are armed.
  let scheduler: any TimeoutScheduler
  /// The delayed sends with an id, for `<cancel>`.
  let delayedSends = DelayedSends()

  @usableFromInline let states: [String]
  @usableFromInline let events: [String]
  /// Name lookups at run time (no `Hasher`).
  @usableFromInline let stateTable: NameTable
  @usableFromInline let eventTable: NameTable
  @usableFromInline let initialStateIndex: Int32
  /// The tier of every (state, event), column-major (``TransitionSlot/position(event:state:columnHeight:)``),
  /// plus one last column of ``TransitionSlot/none`` for unknown events. An event ID carries its
  /// column's offset, so the hot path adds the state and loads.
  @usableFromInline let fastSlots: [TransitionSlot]
  /// The height of a column of ``fastSlots``: the number of states, at least 1 (a definition
  /// without states still has a current state index, 0, that must read a rejecting slot).
  @usableFromInline let columnHeight: Int
  /// The ID of each event, and last the ID every unknown name gets.
  @usableFromInline let eventIDs: [StateMachineEventID]
  /// The light transitions, indexed by light slots of ``fastSlots``. Unowned
  /// references to ``lightTransitionObjects``, which keeps them alive.
  @usableFromInline let lightTransitions: [Unmanaged<LightTransition<Model>>]
  let lightTransitionObjects: [LightTransition<Model>]
  /// The light slots at or below this value are those of transitions whose only code is one
  /// `after` callback (``LightTransition/soleAfterCallback``), last in ``lightTransitions``:
  /// one compare tells them apart for the inlined part of an event method, which runs them itself.
  /// `Int32.min` when there are none.
  @usableFromInline let soleAfterSlotLimit: Int32

  /// Where each (state, event)'s candidates are in ``candidates``: specific from-states first,
  /// then wildcards, each in declaration order.
  @usableFromInline let candidateRows: CandidateRows
  @usableFromInline let candidates: [FlatCandidate]
  /// The declared transition of each of ``candidates`` (its index in ``declaredTransitions``),
  /// which inspection records name; read only for an inspected object.
  let candidateDeclarations: [Int32]
  @usableFromInline let beforeCallbacks: [[Callback]]
  @usableFromInline let afterCallbacks: [[Callback]]
  @usableFromInline let entryActions: [[EntryAction]]
  @usableFromInline let exitActions: [[Callback]]
  @usableFromInline let isFinal: [Bool]
  /// Whether any callback, guard or action takes the ``Transition``, or an observer needs it: the
  /// full step then builds it once per step.
  @usableFromInline let takesTransition: Bool
  @usableFromInline let observers: [Observer]
  /// Per state: the timeouts and notifications armed while in it.
  @usableFromInline let triggers: [[Trigger]]
  /// Per state: whether it arms any of ``triggers``, and whether it has ``entryActions``. Plain
  /// arrays, so that asking whether a loaded object's state needs entering touches no array of a
  /// type generic over `Model` (whose metadata an unspecialised caller, such as a store, looks up).
  @usableFromInline let armsTriggers: [Bool]
  @usableFromInline let hasEntryActions: [Bool]
  /// The invokes (the Invoke article), each also a trigger of its state.
  let invocations: [CompiledInvocation<Model>]
  /// Whether an invoke forwards the machine's external events to its work (I13): only then does
  /// taking an event look at the running invocations.
  @usableFromInline let forwardsEvents: Bool
  @usableFromInline let log: StateMachineLog?
  /// Whether this is the skeleton the path explorer runs (``StateMachinePaths``): its triggers
  /// (timeouts, notifications, invokes) are never armed, since the explorer delivers their
  /// events itself.
  let isSkeleton: Bool
  let declaredTransitions: [DeclaredTransition]
  @usableFromInline let clock: any Clock<Duration>
  @usableFromInline let notificationCenter: NotificationCenter
  /// The step this definition runs: flat, whose events all go through the tables above, or the
  /// statechart's, with its tables (chosen by ``init(_:)``).
  @usableFromInline let engine: MachineEngine<Model>
  /// An unknown event name fires its longest known dot-separated prefix (SCXML 3.12.1).
  @usableFromInline let matchesEventsByPrefix: Bool
  /// Entries, exits and internal transitions are posted to ``notificationCenter``.
  @usableFromInline let postsStateNotifications: Bool
  /// The statechart of ``engine``, unretained (`engine` holds it while the definition lives):
  /// a step reads it without the retain and release of a copy of `engine`'s payload.
  @usableFromInline let unretainedChart: Unmanaged<Statechart<Model>>?

  /// An empty machine that rejects everything (the tables of an invalid definition).
  init(rejectingEverythingWith states: [String], events: [String], initial: String?) {
    identityToken = DefinitionIdentity()
    identity = ObjectIdentifier(identityToken)
    maxSteps = 1
    scheduler = timeoutScheduler(for: ContinuousClock())
    self.states = states
    self.events = events
    let stateIndexByName = Self.indexes(states)
    stateTable = NameTable(states)
    eventTable = NameTable(events)
    initialStateIndex = initial.flatMap { stateIndexByName[$0] } ?? 0
    columnHeight = max(states.count, 1)
    fastSlots = Array(repeating: TransitionSlot.none, count: max(states.count, 1) * (events.count + 1))
    eventIDs = Self.eventIDs(
      fastSlots, onlySources: Array(repeating: -1, count: events.count), columnHeight: max(states.count, 1),
      identity: identity)
    lightTransitions = []
    lightTransitionObjects = []
    soleAfterSlotLimit = .min
    candidateRows = CandidateRows(emptyWith: states.count)
    candidates = []
    candidateDeclarations = []
    beforeCallbacks = Array(repeating: [], count: events.count)
    afterCallbacks = Array(repeating: [], count: events.count)
    entryActions = Array(repeating: [], count: states.count)
    exitActions = Array(repeating: [], count: states.count)
    isFinal = Array(repeating: false, count: states.count)
    takesTransition = false
    observers = []
    triggers = Array(repeating: [], count: states.count)
    armsTriggers = Array(repeating: false, count: states.count)
    hasEntryActions = Array(repeating: false, count: states.count)
    isSkeleton = false
    invocations = []
    forwardsEvents = false
    declaredTransitions = []
    log = nil
    clock = ContinuousClock()
    notificationCenter = .default
    engine = .flat
    unretainedChart = nil
    matchesEventsByPrefix = false
    postsStateNotifications = false
  }

  /// Validates `builder` (Semantics §Definition) and compiles it.
  init(_ builder: StateMachineBuilder<Model>) throws(DefinitionError) {
    try builder.store.resolveInvokeSources(storeManaged: Model.self is any StoreManagedStateMachine.Type)
    if builder.store.isHierarchical {
      try self.init(statechart: builder)
    } else {
      try self.init(flat: builder)
    }
  }

  /// Each event's ID: its column, and its only source state if it has one, with that slot's
  /// transition when its only code is one `after` callback (`lightTransitions`, the light slots'
  /// transitions). Last, the ID of an unknown event: the all-rejecting last column.
  static func eventIDs(
    _ fastSlots: [TransitionSlot], onlySources: [Int32], columnHeight: Int, identity: ObjectIdentifier,
    lightTransitions: [LightTransition<Model>] = []
  ) -> [StateMachineEventID] {
    var ids: [StateMachineEventID] = []
    ids.reserveCapacity(onlySources.count + 1)
    for (event, onlySource) in onlySources.enumerated() {
      let column = TransitionSlot.position(event: event, state: 0, columnHeight: columnHeight)
      if onlySource >= 0 {
        let slot = fastSlots[column + Int(onlySource)]
        let light = slot.isLight && slot.lightIndex < lightTransitions.count ? lightTransitions[slot.lightIndex] : nil
        let soleAfter = light?.soleAfterCallback == nil ? nil : light
        ids.append(
          StateMachineEventID(
            definition: identity, index: Int32(event), column: column, onlySource: onlySource,
            onlySourceSlot: slot,
            soleAfterTransition: soleAfter.map { UInt(bitPattern: Unmanaged.passUnretained($0).toOpaque()) } ?? 0))
      } else {
        ids.append(StateMachineEventID(definition: identity, index: Int32(event), column: column))
      }
    }
    let unknownColumn = TransitionSlot.position(event: onlySources.count, state: 0, columnHeight: columnHeight)
    ids.append(StateMachineEventID(definition: identity, index: -1, column: unknownColumn))
    return ids
  }

  /// Whether anything of `builder` receives the ``Transition``.
  static func anyTakesTransition(_ builder: StateMachineBuilder<Model>) -> Bool {
    func takes(_ callback: MachineCallback<Model>?) -> Bool {
      if case .withTransition? = callback { return true }
      return false
    }
    func takes(_ guardBody: MachineGuard<Model>?) -> Bool {
      if case .withTransition? = guardBody { return true }
      return false
    }
    func takes(_ entry: MachineEntryAction<Model>) -> Bool {
      switch entry {
      case .callback(let callback): return takes(callback)
      case .then: return true
      }
    }
    return !builder.observers.isEmpty
      || builder.beforeCallbacks.contains { takes($0.body) } || builder.afterCallbacks.contains { takes($0.body) }
      || builder.exitActions.contains { takes($0.body) } || builder.entryActions.contains { takes($0.body) }
      || builder.transitions.contains { takes($0.guardBody) || takes($0.action) }
  }

  static func group(
    _ callbacks: [BuilderStore<Model>.NamedCallback], by index: [String: Int32], count: Int
  ) -> [[Callback]] {
    var grouped = [[Callback]](repeating: [], count: count)
    for callback in callbacks { grouped[Int(index[callback.name]!)].append(callback.body) }
    return grouped
  }

  static func indexes(_ names: [String]) -> [String: Int32] {
    Dictionary(names.enumerated().map { ($0.element, Int32($0.offset)) }, uniquingKeysWith: { first, _ in first })
  }
}

/// The object whose identity a definition's IDs carry.
final class DefinitionIdentity: Sendable {}
