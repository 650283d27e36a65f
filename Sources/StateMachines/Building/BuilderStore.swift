internal import StateMachinesNames
import Foundation

/// Everything a definition's builders declare. The root builder and every scoped builder of one
/// definition write into the same store; each knows the scope it declares in.
final class BuilderStore<Model> {
  struct TransitionSpec {
    /// The event; empty for an eventless transition (`always`).
    let event: String
    /// `nil` means any state (a wildcard transition, owned by the root: S4).
    var from: [StateReference]?
    /// Empty: the transition has no target (internal, or a terminating `die`). Several: a fork.
    var to: [StateReference]
    var kind: TransitionKind = .external
    var isEventless = false
    /// `whenDone`: the event is `done.state.<path of from>`, known once the tree is compiled.
    var isDoneTransition = false
    /// `whenInvokeDone`/`whenInvokeFailed`: the invoke whose state is the source, filled in
    /// when compiling (the invoke may be declared later).
    var invokeID: String? = nil
    var terminates = false
    var guardBody: MachineGuard<Model>? = nil
    var action: MachineCallback<Model>? = nil
    /// The declared actions among ``action``'s parts, in order (the path explorer runs them).
    var declaredActions: [DeclaredAction] = []
    /// Whether ``action`` runs code besides ``declaredActions`` (code the explorer cannot see).
    var actionHasCode = false
    /// Fires the event automatically this long after entering a from-state.
    var timeout: Duration? = nil
    /// Fires the event when this notification is posted while in a from-state.
    var notification: Notification.Name? = nil
    /// The bound name of the guard, and the actions as the document wrote them (bound names and
    /// declared actions), for a definition loaded from data (export).
    var guardName: String? = nil
    var actionEntries: [ActionEntry] = []
    var description: String? = nil

    var isInternal: Bool { kind == .internal }

    /// A flat machine's source names (`nil` for a wildcard).
    var fromNames: [String]? { from.map { $0.map(\.text) } }
    /// A flat machine's target name (`nil` to stay).
    var toName: String? { to.first?.text }
  }

  struct NamedCallback {
    let name: String
    let body: MachineCallback<Model>
  }

  struct StateCallback {
    var state: StateReference
    let body: MachineCallback<Model>
    /// The bound name, for a definition loaded from data (export).
    var name: String? = nil
    /// The declared actions `body` runs, if it is made of them (`nil`: code).
    var declared: [DeclaredAction]? = nil
  }

  struct EntryAction {
    var state: StateReference
    let body: MachineEntryAction<Model>
    /// The bound name, for a definition loaded from data (export).
    var name: String? = nil
    /// The declared actions `body` runs, if it is made of them (`nil`: code).
    var declared: [DeclaredAction]? = nil
  }

  var nodes: [DeclaredNode<Model>] = [] {
    didSet { checkedTree = nil }
  }
  /// The tree of ``nodes``, when a loader has built it already to check its references; any change
  /// to the nodes forgets it.
  var checkedTree: StateTree?
  var rootInitial: [String] = []
  var rootInitialAction: MachineCallback<Model>?
  /// The declared actions ``rootInitialAction`` runs, if it is one.
  var rootInitialDeclared: [DeclaredAction]?
  /// Every transition as declared, in order.
  var declaredTransitions: [TransitionSpec] = [] {
    didSet { uniqueTransitions = nil }
  }
  /// How many of the first declared transitions are known to hold no repeats: a loader that
  /// checked them sets it.
  var knownUniqueCount = -1
  /// ``transitions``, computed once (compiling reads it several times).
  private var uniqueTransitions: [TransitionSpec]?
  var beforeCallbacks: [NamedCallback] = []
  var afterCallbacks: [NamedCallback] = []
  var entryActions: [EntryAction] = []
  var exitActions: [StateCallback] = []
  var observers: [(Model, Transition) -> Void] = []
  /// The invokes (the Invoke article), in declaration order.
  var invocations: [InvocationSpec<Model>] = []
  var clock: any Clock<Duration> = ContinuousClock()
  var notificationCenter: NotificationCenter = .default
  var maxStepsPerRunToCompletion = 10_000
  var maxEventlessMicrosteps = 1_000
  var matchesEventsByPrefix = false
  var log: StateMachineLog?
  var postsStateNotifications = false
  /// Whether this is a skeleton for the path explorer (``skeleton(guards:junctionGuards:taken:)``).
  var isSkeleton = false

  /// Names declared twice in one scope with different kinds (N6), reported when compiling: the
  /// path as written, the node declared first, and which call to ``declare(_:kind:in:)`` conflicts.
  var conflictingDeclarations: [(path: String, node: Int, declaration: Int)] = [] {
    didSet { checkedTree = nil }
  }
  /// How many times ``declare(_:kind:in:)`` was called: a loader counts its declarations alike,
  /// to locate a conflicting one.
  private(set) var declarationCount = 0
  /// What caused the error compiling threw (``DefinitionCulprit``), for a loader to locate it;
  /// empty if it was not found in the declarations.
  var failureCulprits: [DefinitionCulprit] = []
  /// For each of ``transitions``, its index in ``declaredTransitions``; `nil` when they are one
  /// list.
  private var uniqueOrigins: [Int]?
  /// Where each declared node is, by (scope, parent path, name), so that declaring is linear.
  private var declaredIndex: [DeclarationKey: Int] = [:]
  /// The placeholders the root's `initialState` added, by name.
  private var implicitIndex: [String: Int] = [:]

  /// Declares a node in `scope` (a path's last component under its parent path), or returns the
  /// one already declared there under that name. A redeclaration may turn a state final; any other
  /// change of kind is an error found when compiling (N6).
  @discardableResult
  func declare(_ path: String, kind: DeclaredKind, in scope: Int) -> Int {
    let (parentPath, name) = StatePath.splitDeclaration(path)
    let key = DeclarationKey(scope: scope, parentPath: parentPath, name: name)
    declarationCount += 1
    if let existing = declaredIndex[key] {
      let kinds = (nodes[existing].kind, kind)
      if kinds == (.state, .final) {
        nodes[existing].kind = .final
      } else if kinds.0 != kinds.1 && kinds != (.final, .state) {
        conflictingDeclarations.append((path, existing, declarationCount - 1))
      }
      return existing
    }
    if parentPath == nil, scope == -1, let implicit = implicitIndex.removeValue(forKey: name) {
      nodes[implicit].isImplicit = false
      nodes[implicit].kind = kind
      declaredIndex[key] = implicit
      return implicit
    }
    nodes.append(DeclaredNode(name: name, scope: scope, parentPath: parentPath, kind: kind))
    declaredIndex[key] = nodes.count - 1
    return nodes.count - 1
  }

  /// Adds a placeholder for a root `initialState` that names no declared node yet.
  func declareImplicit(_ name: String) {
    guard implicitIndex[name] == nil, !nodes.contains(where: { $0.name == name }) else { return }
    var node = DeclaredNode<Model>(name: name, scope: -1, parentPath: nil, kind: .state)
    node.isImplicit = true
    nodes.append(node)
    implicitIndex[name] = nodes.count - 1
  }

  /// Rewrites references to top-level nodes by index (`.node`) as names: a flat machine's tables
  /// know states by name only. Call once everything is declared, for a flat store only.
  func nameTopLevelReferences() {
    func named(_ reference: StateReference) -> StateReference {
      guard case .node(let index) = reference, nodes[index].scope == -1, nodes[index].parentPath == nil else {
        return reference
      }
      return .name(nodes[index].name, scope: -1)
    }
    for index in declaredTransitions.indices {
      declaredTransitions[index].from = declaredTransitions[index].from?.map(named)
      declaredTransitions[index].to = declaredTransitions[index].to.map(named)
    }
    for index in entryActions.indices { entryActions[index].state = named(entryActions[index].state) }
    for index in exitActions.indices { exitActions[index].state = named(exitActions[index].state) }
    for index in invocations.indices { invocations[index].state = named(invocations[index].state) }
  }

  /// Appends an anonymous region to parallel node `parallel`.
  func declareAnonymousRegion(in parallel: Int) -> Int {
    nodes.append(DeclaredNode(name: "", scope: parallel, parentPath: nil, kind: .state))
    return nodes.count - 1
  }

  /// The same states and transitions for a machine of another type, with the code replaced: each
  /// transition's guard by `guards(index, spec)` (`index` in ``transitions``, whose repeats are
  /// dropped), each junction path's by `junctionGuards(node, path)`, each transition's action by
  /// one that calls `taken(index, source)` with the state it leaves and then runs its declared
  /// actions on `target`. Entry, exit, initial and default actions made of declared actions run
  /// them on `target`; other code that shapes the machine (initial and default actions) becomes
  /// code that does nothing; callbacks, entry and exit actions written as code and observers are
  /// left out. Invokes keep their ids and states and never run: a skeleton arms no trigger.
  func skeleton<Other>(
    guards: (Int, TransitionSpec) -> MachineGuard<Other>?,
    junctionGuards: (Int, Int) -> MachineGuard<Other>?,
    taken: @escaping (Int, String) -> Void,
    actions target: DeclaredActionTarget<Other>
  ) -> BuilderStore<Other> {
    let nothing = MachineCallback<Other>.plain { _ in }
    /// A callback's declared actions, run on `target`; nothing for code.
    func declared(_ actions: [DeclaredAction]?) -> MachineCallback<Other> {
      guard let actions, !actions.isEmpty else { return nothing }
      return .plain { actions.run(on: $0, target) }
    }
    let store = BuilderStore<Other>()
    store.nodes = nodes.enumerated().map { index, node in
      var mapped = DeclaredNode<Other>(
        name: node.name, scope: node.scope, parentPath: node.parentPath, kind: node.kind)
      mapped.initial = node.initial
      mapped.initialAction = node.initialAction.map { _ in declared(node.initialDeclared) }
      mapped.initialDeclared = node.initialDeclared
      mapped.targets = node.targets
      mapped.defaultAction = node.defaultAction.map { _ in declared(node.defaultDeclared) }
      mapped.defaultDeclared = node.defaultDeclared
      mapped.junctionPaths = node.junctionPaths.enumerated().map { path, junction in
        JunctionPath(
          target: junction.target, guardBody: junction.guardBody.flatMap { _ in junctionGuards(index, path) },
          action: junction.action.map { _ in declared(ActionEntry.declared(in: junction.actionEntries)) })
      }
      mapped.isImplicit = node.isImplicit
      return mapped
    }
    store.checkedTree = checkedTree
    store.rootInitial = rootInitial
    store.rootInitialAction = rootInitialAction.map { _ in declared(rootInitialDeclared) }
    store.rootInitialDeclared = rootInitialDeclared
    let unique = transitions
    store.declaredTransitions = unique.enumerated().map { index, spec in
      var mapped = BuilderStore<Other>.TransitionSpec(event: spec.event, from: spec.from, to: spec.to)
      mapped.kind = spec.kind
      mapped.isEventless = spec.isEventless
      mapped.isDoneTransition = spec.isDoneTransition
      mapped.invokeID = spec.invokeID
      mapped.terminates = spec.terminates
      mapped.guardBody = spec.guardBody.flatMap { _ in guards(index, spec) }
      let actions = spec.declaredActions
      mapped.action = .withTransition { model, transition in
        taken(index, transition.source)
        actions.run(on: model, target)
      }
      mapped.declaredActions = actions
      mapped.timeout = spec.timeout
      mapped.notification = spec.notification
      return mapped
    }
    store.knownUniqueCount = unique.count
    // Entry and exit actions made of declared actions run; code does not.
    store.entryActions = entryActions.compactMap { action in
      action.declared.map { .init(state: action.state, body: .callback(declared($0)), declared: $0) }
    }
    store.exitActions = exitActions.compactMap { action in
      action.declared.map { .init(state: action.state, body: declared($0), declared: $0) }
    }
    store.invocations = invocations.map { spec in
      var mapped = InvocationSpec<Other>(id: spec.id, state: spec.state, input: { _, _ in () }, work: { _ in nil })
      mapped.onRestore = spec.onRestore
      mapped.autoforward = spec.autoforward
      return mapped
    }
    store.clock = clock
    store.notificationCenter = notificationCenter
    store.maxStepsPerRunToCompletion = maxStepsPerRunToCompletion
    store.maxEventlessMicrosteps = maxEventlessMicrosteps
    store.matchesEventsByPrefix = matchesEventsByPrefix
    store.conflictingDeclarations = conflictingDeclarations
    store.declarationCount = declarationCount
    store.declaredIndex = declaredIndex
    store.implicitIndex = implicitIndex
    store.isSkeleton = true
    return store
  }

  /// The transitions, in declaration order, without repeats: declaring the same plain transition
  /// (no guard, no action) twice is harmless.
  var transitions: [TransitionSpec] {
    if let uniqueTransitions { return uniqueTransitions }
    // A loader that checked its transitions for repeats spares the hashing of every one of them.
    if declaredTransitions.count == knownUniqueCount {
      uniqueTransitions = declaredTransitions
      uniqueOrigins = nil
      return declaredTransitions
    }
    var plain: Set<PlainTransitionKey> = []
    plain.reserveCapacity(declaredTransitions.count)
    var unique: [TransitionSpec] = []
    unique.reserveCapacity(declaredTransitions.count)
    var origins: [Int] = []
    origins.reserveCapacity(declaredTransitions.count)
    for (index, spec) in declaredTransitions.enumerated() {
      if spec.guardBody == nil, spec.action == nil, spec.timeout == nil, spec.notification == nil {
        let key = PlainTransitionKey(
          event: spec.event, from: spec.from, to: spec.to, kind: spec.kind, eventless: spec.isEventless,
          terminates: spec.terminates)
        guard plain.insert(key).inserted else { continue }
      }
      unique.append(spec)
      origins.append(index)
    }
    uniqueTransitions = unique
    uniqueOrigins = unique.count == declaredTransitions.count ? nil : origins
    return unique
  }

  /// The index in ``declaredTransitions`` of the `index`th of ``transitions``.
  func declaredIndex(ofTransition index: Int) -> Int { uniqueOrigins?[index] ?? index }

  /// `error`, its culprits recorded for the loader that will locate it.
  func failure(_ error: DefinitionError, _ culprits: DefinitionCulprit...) -> DefinitionError {
    failure(error, culprits)
  }

  func failure(_ error: DefinitionError, _ culprits: [DefinitionCulprit]) -> DefinitionError {
    failureCulprits = culprits
    return error
  }

  /// Runs `body`; an error it throws is blamed on `culprit`.
  func blaming<T>(
    _ culprit: @autoclosure () -> DefinitionCulprit, _ body: () throws(DefinitionError) -> T
  ) throws(DefinitionError) -> T {
    do {
      return try body()
    } catch {
      throw failure(error, culprit())
    }
  }

  /// Whether the definition needs the statechart runtime: nested or parallel states,
  /// pseudostates, eventless or multi-target transitions, or several initial states. A flat
  /// machine keeps the flat tables.
  var isHierarchical: Bool {
    nodes.contains { $0.scope != -1 || $0.parentPath != nil || !($0.kind == .state || $0.kind == .final) }
      || declaredTransitions.contains {
        $0.isEventless || $0.isDoneTransition || $0.to.count > 1 || ($0.to.isEmpty && !$0.terminates)
      }
      || rootInitial.count > 1 || rootInitialAction != nil
  }
}

/// Where a node is declared: its scope, its path form's parent path and its name.
private struct DeclarationKey: Hashable {
  let scope: Int
  let parentPath: String?
  let name: String
}

/// What makes two plain transitions (no guard, no action) the same.
private struct PlainTransitionKey: Hashable {
  let event: String
  let from: [StateReference]?
  let to: [StateReference]
  let kind: TransitionKind
  let eventless: Bool
  let terminates: Bool
}
