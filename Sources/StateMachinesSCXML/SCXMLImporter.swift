import Foundation
import StateMachines
internal import StateMachinesNames

/// Turns an SCXML document into builder calls (Hierarchy §8): the null-datamodel subset.
/// Everything is checked here, before anything is built, so that an error carries the line and
/// column of its element.
///
/// Mapping: ids become names and paths; `type="internal"` becomes `.local` only where S10a
/// applies (a compound source, every target inside it), else `.external`; event descriptors
/// (`"a b"`, the prefix `error` matching `error.x`, `*`) are expanded over the document's events;
/// `done.state.<id>` becomes `done.state.<path>`; `<raise>` fires an internal event, `<send>` posts
/// an external one, with `delay` on the machine's clock. `<invoke>` runs work bound by its `src`
/// or `type`; transitions on `done.invoke.<id>` / `error.invoke.<id>` written in the invoking
/// state are its result transitions (SCXMLImporter+Invoke).
struct SCXMLImporter<Model: StateMachineObject> {
  typealias Action = (Model, Transition) throws -> Void
  static var namespace: String { "http://www.w3.org/2005/07/scxml" }

  /// One state of the document.
  struct StateInfo {
    let element: XMLTree
    let id: String
    let path: String
    let parentID: String?
  }

  let bind: Bindings<Model>
  private(set) var states: [StateInfo] = []
  private var byID: [String: Int] = [:]
  /// The document's events, SCXML names.
  private var alphabet: [String] = []
  /// The builder calls, in document order.
  private(set) var operations: [(StateMachineBuilder<Model>) -> Void] = []
  /// The document's `<invoke>`s, in document order.
  private(set) var invokes: [SCXMLInvoke] = []
  private var generatedIDs = 0
  /// The document's root, and the `<transition>` of each transition the operations declare, in
  /// order: where an error the definition's checks find is located (``SCXMLImporter/locate(_:culprits:)``).
  let root: XMLTree
  private(set) var transitionElements: [XMLTree] = []

  init(_ root: XMLTree, bind: Bindings<Model>) throws(DefinitionError) {
    self.bind = bind
    self.root = root
    guard root.name == "scxml", root.namespace == Self.namespace || root.namespace == nil || root.namespace == "" else {
      throw .invalidDocument("the root element is <\(root.name)>, not <scxml>", line: root.line, column: root.column)
    }
    if let datamodel = root.attributes["datamodel"], !["null", "ecmascript"].contains(datamodel) {
      throw .invalidDocument(
        "datamodel '\(datamodel)' is not supported (only the null data model)", line: root.line, column: root.column)
    }
    try collectStates(root, parentID: nil, parentPath: nil)
    guard !states.isEmpty else { throw .invalidDocument("the document has no states", line: root.line, column: root.column) }
    collectEvents(root)
    invokes = try Self.readInvokes(of: states, bind: bind)
    try plan(root)
  }

  // MARK: States and events


  private mutating func collectStates(_ element: XMLTree, parentID: String?, parentPath: String?) throws(DefinitionError) {
    for child in element.children where child.isState {
      var id = child.attributes["id"] ?? ""
      if id.isEmpty {
        generatedIDs += 1
        id = "_\(child.name)\(generatedIDs)"
      }
      do throws(NameError) {
        try NameGrammar.checkStateName(id)
      } catch {
        throw .invalidDocument(error.located, line: child.line, column: child.column)
      }
      if let first = byID[id] {
        let element = states[first].element
        throw .invalidDocument(
          "id '\(id)' is declared twice (the first is at \(element.line):\(element.column))", line: child.line,
          column: child.column)
      }
      let path = parentPath.map { "\($0)/\(id)" } ?? id
      byID[id] = states.count
      states.append(StateInfo(element: child, id: id, path: path, parentID: parentID))
      try collectStates(child, parentID: id, parentPath: path)
    }
  }

  /// Every event the document names: transitions' literal descriptors, raised and sent events,
  /// and the done events of compound and parallel states.
  private mutating func collectEvents(_ root: XMLTree) {
    var seen: Set<String> = []
    func add(_ name: String) {
      if !name.isEmpty, !name.contains("*"), seen.insert(name).inserted { alphabet.append(name) }
    }
    func visit(_ element: XMLTree) {
      switch element.name {
      case "transition":
        for token in (element.attributes["event"] ?? "").split(whereSeparator: \.isWhitespace) {
          add(token.hasSuffix(".*") ? String(token.dropLast(2)) : String(token))
        }
      case "raise", "send":
        add(element.attributes["event"] ?? "")
      default:
        break
      }
      for child in element.children { visit(child) }
    }
    visit(root)
    for state in states where state.element.name == "parallel" || state.element.hasChildStates {
      add("done.state.\(state.id)")
    }
  }

  /// Our name of an SCXML event: done events name the state by path.
  func ourEventName(_ name: String) -> String {
    let prefix = "done.state."
    if name.hasPrefix(prefix), let index = byID[String(name.dropFirst(prefix.count))] {
      return prefix + states[index].path
    }
    return name
  }

  /// The document's events that `descriptors` match (SCXML 3.12.1: a descriptor matches an
  /// event whose dot-separated tokens start with its tokens; `*` matches every event).
  private func events(matching descriptors: String) -> [String] {
    let list = descriptors.split(whereSeparator: \.isWhitespace).map { token -> String in
      token.hasSuffix(".*") ? String(token.dropLast(2)) : String(token)
    }
    // `*` also declares an event of that name, which unknown names fall back to.
    let all = list.contains("*") ? alphabet + ["*"] : alphabet
    return all.filter { event in
      list.contains { descriptor in
        descriptor == "*" || event == descriptor || event.hasPrefix(descriptor + ".")
      }
    }.map(ourEventName)
  }

  func path(of id: Substring, at element: XMLTree) throws(DefinitionError) -> String {
    guard let index = byID[String(id)] else {
      throw .invalidDocument("no state has id '\(id)'", line: element.line, column: element.column)
    }
    return states[index].path
  }

  private func targets(_ element: XMLTree, _ attribute: String = "target") throws(DefinitionError) -> [String] {
    var paths: [String] = []
    for id in (element.attributes[attribute] ?? "").split(whereSeparator: \.isWhitespace) {
      paths.append(try path(of: id, at: element))
    }
    return paths
  }

  // MARK: Planning the builder calls

  private mutating func plan(_ root: XMLTree) throws(DefinitionError) {
    for child in root.children {
      switch child.name {
      case "state", "parallel", "final", "history", "datamodel":
        if child.name == "datamodel", !child.children.isEmpty {
          throw .invalidDocument("<data> is not supported (only the null data model)", line: child.line, column: child.column)
        }
      case "script":
        throw .invalidDocument("<script> is not supported", line: child.line, column: child.column)
      default:
        throw .invalidDocument("<\(child.name)> is not supported in <scxml>", line: child.line, column: child.column)
      }
    }
    operations.append { $0.matchesEventsByPrefix = true }
    let rootInitial = try targets(root, "initial")
    if !rootInitial.isEmpty { operations.append { $0.initialStates = rootInitial } }
    for state in states { try plan(state) }
  }

  private mutating func plan(_ state: StateInfo) throws(DefinitionError) {
    let element = state.element
    let path = state.path
    switch element.name {
    case "history":
      let kind: HistoryKind = element.attributes["type"] == "deep" ? .deep : .shallow
      var defaults: [String] = []
      var content: (action: Action, declared: [DeclaredAction]?)?
      for child in element.children {
        guard child.name == "transition" else {
          throw .invalidDocument("<\(child.name)> is not supported in <history>", line: child.line, column: child.column)
        }
        defaults = try targets(child)
        content = singleAction(try executableContent(child.children))
      }
      if let declared = content?.declared {
        operations.append { $0.addHistory(path, kind, defaults: defaults, perform: declared) }
      } else {
        operations.append { $0.addHistory(path, kind, defaults: defaults, action: content?.action) }
      }
      return
    case "final":
      for child in element.children where child.name != "onentry" && child.name != "onexit" {
        throw .invalidDocument("<\(child.name)> is not supported in <final>", line: child.line, column: child.column)
      }
      operations.append { $0.addFinalState(path) }
    case "parallel":
      operations.append { $0.addParallelState(path) { _ in } }
    default:
      var initial = try targets(element, "initial")
      var initialAction: (action: Action, declared: [DeclaredAction]?)?
      for child in element.children where child.name == "initial" {
        guard let transition = child.children.first(where: { $0.name == "transition" }) else {
          throw .invalidDocument("<initial> needs a <transition>", line: child.line, column: child.column)
        }
        initial = try targets(transition)
        initialAction = singleAction(try executableContent(transition.children))
      }
      if element.hasChildStates {
        let initialStates = initial
        let action = initialAction
        operations.append { sm in
          sm.addState(path) { scope in
            if !initialStates.isEmpty { scope.initialStates = initialStates }
            if let declared = action?.declared {
              scope.initialAction(perform: declared)
            } else if let action {
              scope.initialAction(action.action)
            }
          }
        }
      } else {
        operations.append { $0.addState(path) }
      }
    }
    for invoke in invokes where invoke.statePath == path {
      operations.append { builder in
        let declaration = builder.invoke(invoke.id, in: path, work: invoke.work)
        if invoke.autoforward { declaration.autoforward() }
      }
    }
    for child in element.children {
      switch child.name {
      case "onentry":
        for part in try executableContent(child.children) {
          switch part {
          case .declared(let actions): operations.append { $0.onEntry(path, perform: actions) }
          case .bound(let action): operations.append { $0.onEntry(path, action) }
          }
        }
      case "onexit":
        for part in try executableContent(child.children) {
          switch part {
          case .declared(let actions): operations.append { $0.onExit(path, perform: actions) }
          case .bound(let action): operations.append { $0.onExit(path, action) }
          }
        }
      case "transition":
        try planTransition(child, source: state)
      case "state", "parallel", "final", "history", "initial", "invoke":
        break
      default:
        throw .invalidDocument("<\(child.name)> is not supported in <\(element.name)>", line: child.line, column: child.column)
      }
    }
  }

  private mutating func planTransition(_ element: XMLTree, source: StateInfo) throws(DefinitionError) {
    let targetPaths = try targets(element)
    let guardBody = try condition(element)
    let content = try executableContent(element.children)
    // type="internal" is local only where S10a applies (§8).
    var kind = TransitionKind.external
    if element.attributes["type"] == "internal", source.element.hasChildStates,
      !targetPaths.isEmpty, targetPaths.allSatisfy({ $0.hasPrefix(source.path + "/") })
    {
      kind = .local
    }
    let from = source.path
    let declare: (TransitionDeclaration<Model>) -> Void = { declaration in
      if let guardBody { declaration.guarded(guardBody) }
      for part in content {
        switch part {
        case .declared(let actions): declaration.perform(actions)
        case .bound(let action): declaration.action(action)
        }
      }
    }
    guard let descriptors = element.attributes["event"] else {
      operations.append { declare($0.always(transitionFrom: from, to: targetPaths, kind: kind)) }
      transitionElements.append(element)
      return
    }
    let literal = Set(descriptors.split(whereSeparator: \.isWhitespace).map(String.init))
    for event in events(matching: descriptors) {
      // An invoke's result event becomes its result transition (Invoke A.5).
      switch try invokeEvent(event, literal: literal, source: source, at: element) {
      case .done(let id): operations.append { declare($0.whenInvokeDone(id, transitionTo: targetPaths, kind: kind)) }
      case .error(let id): operations.append { declare($0.whenInvokeFailed(id, transitionTo: targetPaths, kind: kind)) }
      case .neverTaken: continue
      case .other: operations.append { declare($0.when(event, transitionFrom: from, to: targetPaths, kind: kind)) }
      }
      transitionElements.append(element)
    }
  }

  private func condition(_ element: XMLTree) throws(DefinitionError) -> ((Model, Transition) throws -> Bool)? {
    guard let text = element.attributes["cond"] else { return nil }
    // The supported subset first: a tool that binds every unknown name must not turn
    // `In('closed')` into a guard of its own.
    guard let condition = SCXMLCondition.parse(text) else {
      if let bound = bind.guardBody(named: text) { return bound }
      throw .invalidDocument(
        "cond '\(text)' is neither true, false, In('id') nor a bound guard", line: element.line, column: element.column)
    }
    var paths: [String: String] = [:]
    for id in condition.stateIDs { paths[id] = try path(of: Substring(id), at: element) }
    let evaluated = condition.stateCondition { paths[$0]! }
    return { model, _ in evaluated.holds { model.isInState($0) } }
  }

  /// The longest delay: as the JSON format's timeouts, 10^9 seconds (about 31 years).
  static var maxDelaySeconds: Double { 1e9 }

  /// A CSS2 duration (`10ms`, `2s`, `1.5s`) of at most ``maxDelaySeconds``; `nil` for anything
  /// else, including a value too large for a `Duration` (which would trap when converted).
  static func duration(_ text: String) -> Duration? {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    var nanoseconds: Double?
    if trimmed.hasSuffix("ms") {
      nanoseconds = Double(trimmed.dropLast(2)).map { $0 * 1_000_000 }
    } else if trimmed.hasSuffix("s") {
      nanoseconds = Double(trimmed.dropLast()).map { $0 * 1_000_000_000 }
    }
    guard let nanoseconds, nanoseconds.isFinite, nanoseconds >= 0, nanoseconds <= maxDelaySeconds * 1e9 else {
      return nil
    }
    return .nanoseconds(Int64(nanoseconds))
  }
}
