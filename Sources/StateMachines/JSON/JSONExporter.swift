internal import StateMachinesNames

/// Writes a builder's declarations as a `statemachines/1` document.
struct JSONExporter<Model> {
  let store: BuilderStore<Model>
  let tree: StateTree
  /// Per tree node, its transitions (declaration order) and entry and exit actions.
  private var transitions: [[BuilderStore<Model>.TransitionSpec]]
  private var entries: [[ActionEntry]]
  private var exits: [[ActionEntry]]
  /// Per tree node, its invokes (declaration order).
  private var invocations: [[InvocationSpec<Model>]]

  /// Whether what the format cannot express is left out (``StateMachineDefinition/jsonOutline()``)
  /// rather than refused.
  let outline: Bool

  /// The name an outline gives a guard written in code.
  static var codeGuard: String { "code" }

  init(_ store: BuilderStore<Model>, outline: Bool = false) throws(DefinitionError) {
    self.store = store
    self.outline = outline
    tree = try StateTree(store)
    transitions = Array(repeating: [], count: tree.count)
    entries = Array(repeating: [], count: tree.count)
    exits = Array(repeating: [], count: tree.count)
    invocations = Array(repeating: [], count: tree.count)
    for invocation in store.invocations {
      guard invocation.source != nil else {
        if outline { continue }
        throw Self.cannot("an invoke whose work is written in code ('\(invocation.id)')")
      }
      invocations[Int(try tree.resolve(invocation.state, context: "export"))].append(invocation)
    }
    for spec in store.transitions {
      if outline && (spec.from == nil || spec.notification != nil || spec.terminates) { continue }
      guard let from = spec.from else { throw Self.cannot("a wildcard transition ('\(spec.event)')") }
      if spec.notification != nil { throw Self.cannot("a notification trigger ('\(spec.event)')") }
      if spec.terminates { throw Self.cannot("a terminating transition ('\(spec.event)')") }
      if !outline && spec.guardBody != nil && spec.guardName == nil {
        throw Self.cannot("a guard written in code ('\(spec.event)')")
      }
      if !outline && spec.action != nil && Self.actionEntries(of: spec) == nil {
        throw Self.cannot("an action written in code ('\(spec.event)')")
      }
      // An invoke's result transitions are written under the invoke (appendInvokes).
      if spec.invokeID != nil { continue }
      for reference in from { transitions[Int(try tree.resolve(reference, context: "export"))].append(spec) }
    }
    for action in store.entryActions {
      if outline && Self.written(action.name, action.declared) == nil { continue }
      guard let written = Self.written(action.name, action.declared) else { throw Self.cannot("an entry action written in code") }
      entries[Int(try tree.resolve(action.state, context: "export"))] += written
    }
    for action in store.exitActions {
      if outline && Self.written(action.name, action.declared) == nil { continue }
      guard let written = Self.written(action.name, action.declared) else { throw Self.cannot("an exit action written in code") }
      exits[Int(try tree.resolve(action.state, context: "export"))] += written
    }
    if outline { return }
    if store.rootInitialAction != nil || store.nodes.contains(where: { $0.initialAction != nil || $0.defaultAction != nil }) {
      throw Self.cannot("an initial or history action written in code")
    }
    if !store.beforeCallbacks.isEmpty || !store.afterCallbacks.isEmpty || !store.observers.isEmpty {
      throw Self.cannot("before, after or observer callbacks written in code")
    }
  }

  static func cannot(_ what: String) -> DefinitionError {
    .invalidValue(what, context: "JSON export (the format cannot express it)")
  }

  func document() throws(DefinitionError) -> JSONOutput {
    var members: [(String, JSONOutput)] = [("format", .string(JSONDefinitionLoader<DynamicStateMachine>.format))]
    if !store.rootInitial.isEmpty {
      let initial = try store.rootInitial.map { text throws(DefinitionError) in
        try reference(to: try tree.resolve(.name(text, scope: -1), context: "export"), from: -1)
      }
      members.append(("initial", initial.count == 1 ? .string(initial[0]) : .array(initial.map { .string($0) })))
    }
    members.append(("states", .object(try tree.rootChildren.map { node throws(DefinitionError) in try state(node) })))
    return .object(members)
  }

  /// How to write `target` in the object of `scope` so that it resolves back to it (N5): the bare
  /// name when that finds it, else the path.
  private func reference(to target: Int32, from scope: Int32) throws(DefinitionError) -> String {
    let name = tree.names[Int(target)]
    if (try? tree.resolve(name, from: scope, context: "")) == target { return name }
    let path = tree.paths[Int(target)]
    if StatePath.isPath(path) { return path }
    throw Self.cannot("a reference to top-level state '\(name)', shadowed by a nearer state of that name")
  }

  private func state(_ node: Int32) throws(DefinitionError) -> (String, JSONOutput) {
    let name = tree.names[Int(node)]
    guard !name.isEmpty else { throw Self.cannot("an anonymous region of '\(tree.path(tree.parents[Int(node)]))'") }
    let declared = store.nodes[tree.declaredOf[Int(node)]]
    var members: [(String, JSONOutput)] = []
    let parent = tree.parents[Int(node)]
    switch tree.kinds[Int(node)] {
    case .atomic, .compound: break
    case .parallel: members.append(("type", .string("parallel")))
    case .final: members.append(("type", .string("final")))
    case .history(let kind):
      members.append(("type", .string("history")))
      members.append(("history", .string(kind == .deep ? "deep" : "shallow")))
      if !declared.targets.isEmpty { members.append(("target", try targets(declared.targets, scope: parent))) }
    case .junction:
      members.append(("type", .string("junction")))
      let paths = try declared.junctionPaths.map { path throws(DefinitionError) -> JSONOutput in
        if !outline && path.guardBody != nil && path.guardName == nil { throw Self.cannot("a junction guard written in code") }
        if !outline && path.action != nil && path.actionEntries.isEmpty { throw Self.cannot("a junction action written in code") }
        var fields: [(String, JSONOutput)] = [
          ("target", .string(try reference(to: try tree.resolve(path.target, context: "export"), from: node)))
        ]
        if let guardName = path.guardName ?? (path.guardBody != nil ? Self.codeGuard : nil) {
          fields.append(("guard", .string(guardName)))
        }
        if !path.actionEntries.isEmpty { fields.append(("actions", try Self.output(path.actionEntries))) }
        return .object(fields)
      }
      members.append(("paths", .array(paths)))
    case .join:
      members.append(("type", .string("join")))
      members.append(("target", try targets(declared.targets, scope: parent)))
    }
    if let description = declared.description { members.append(("description", .string(description))) }
    if !declared.initial.isEmpty { members.append(("initial", try targets(declared.initial, scope: node))) }
    if !entries[Int(node)].isEmpty { members.append(("entry", try Self.output(entries[Int(node)]))) }
    if !exits[Int(node)].isEmpty { members.append(("exit", try Self.output(exits[Int(node)]))) }
    try appendTransitions(of: node, to: &members)
    try appendInvokes(of: node, to: &members)
    let children = tree.children[Int(node)]
    if !children.isEmpty {
      members.append(("states", .object(try children.map { child throws(DefinitionError) in try state(child) })))
    }
    return (name, .object(members))
  }

  /// Names written in `scope` (initial states, history defaults, a join's target), rewritten so
  /// that they resolve from the state object that holds them.
  private func targets(_ texts: [String], scope: Int32) throws(DefinitionError) -> JSONOutput {
    let written = try texts.map { text throws(DefinitionError) in
      try reference(to: try tree.resolve(text, from: scope, context: "export"), from: scope)
    }
    return written.count == 1 ? .string(written[0]) : .array(written.map { .string($0) })
  }

  /// The invokes of `node` (Invoke A.5): id, bound source, restore policy, and the result
  /// transitions the store declares for each.
  private func appendInvokes(of node: Int32, to members: inout [(String, JSONOutput)]) throws(DefinitionError) {
    guard !invocations[Int(node)].isEmpty else { return }
    var invokes: [JSONOutput] = []
    for invocation in invocations[Int(node)] {
      let source = invocation.source ?? invocation.id
      var fields: [(String, JSONOutput)] = []
      if invocation.id != source { fields.append(("id", .string(invocation.id))) }
      fields.append(("src", .string(source)))
      for (key, event) in [("onDone", InvocationEvents.done(invocation.id)), ("onError", InvocationEvents.error(invocation.id))] {
        let results = try store.transitions.filter { $0.invokeID == invocation.id && $0.event == event }.map {
          spec throws(DefinitionError) in try transition(spec, of: node)
        }
        if !results.isEmpty { fields.append((key, results.count == 1 ? results[0] : .array(results))) }
      }
      if invocation.onRestore == .fail { fields.append(("onRestore", .string("fail"))) }
      if invocation.autoforward { fields.append(("autoforward", .bool(true))) }
      invokes.append(.object(fields))
    }
    members.append(("invoke", .array(invokes)))
  }

  private func appendTransitions(of node: Int32, to members: inout [(String, JSONOutput)]) throws(DefinitionError) {
    var on: [(String, [JSONOutput])] = []
    var always: [JSONOutput] = []
    var after: [JSONOutput] = []
    var done: [JSONOutput] = []
    for spec in transitions[Int(node)] {
      let transition = try transition(spec, of: node)
      if spec.timeout != nil {
        after.append(transition)
      } else if spec.isEventless {
        always.append(transition)
      } else if spec.isDoneTransition {
        done.append(transition)
      } else if let index = on.firstIndex(where: { $0.0 == spec.event }) {
        on[index].1.append(transition)
      } else {
        on.append((spec.event, [transition]))
      }
    }
    if !on.isEmpty { members.append(("on", .object(on.map { ($0.0, $0.1.count == 1 ? $0.1[0] : .array($0.1)) }))) }
    if !always.isEmpty { members.append(("always", .array(always))) }
    if !after.isEmpty { members.append(("after", .array(after))) }
    if !done.isEmpty { members.append(("onDone", done.count == 1 ? done[0] : .array(done))) }
  }

  /// One transition of `node` as an object: its timeout, targets, kind, guard, actions.
  private func transition(_ spec: BuilderStore<Model>.TransitionSpec, of node: Int32) throws(DefinitionError) -> JSONOutput {
    var fields: [(String, JSONOutput)] = []
    if let timeout = spec.timeout {
      let (seconds, attoseconds) = timeout.components
      fields.append(("seconds", .number(Double(seconds) + Double(attoseconds) / 1e18)))
    }
    let targetNames = try spec.to.map { target throws(DefinitionError) in
      try reference(to: try tree.resolve(target, context: "export"), from: node)
    }
    if !targetNames.isEmpty {
      fields.append(("target", targetNames.count == 1 ? .string(targetNames[0]) : .array(targetNames.map { .string($0) })))
    }
    let defaultKind: TransitionKind = spec.to.isEmpty ? .internal : .external
    if spec.kind != defaultKind {
      fields.append(("kind", .string(spec.kind == .local ? "local" : spec.kind == .internal ? "internal" : "external")))
    }
    if let guardName = spec.guardName ?? (spec.guardBody != nil ? Self.codeGuard : nil) {
      fields.append(("guard", .string(guardName)))
    }
    if let entries = Self.actionEntries(of: spec), !entries.isEmpty { fields.append(("actions", try Self.output(entries))) }
    if let description = spec.description { fields.append(("description", .string(description))) }
    return .object(fields)
  }
}

/// A JSON value to write, objects in the order given.
indirect enum JSONOutput {
  case string(String)
  case number(Double)
  case bool(Bool)
  case array([JSONOutput])
  case object([(String, JSONOutput)])

  /// The value as text, two spaces per level; short arrays and objects of scalars on one line.
  var text: String {
    var output = ""
    write(to: &output, indent: 0)
    output.append("\n")
    return output
  }

  private var isScalar: Bool {
    switch self {
    case .string, .number, .bool: return true
    case .array(let elements): return elements.isEmpty
    case .object(let members): return members.isEmpty
    }
  }

  private func write(to output: inout String, indent: Int) {
    switch self {
    case .string(let text): output += Self.quoted(text)
    case .bool(let value): output += value ? "true" : "false"
    case .number(let value):
      output += value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    case .array(let elements):
      if elements.allSatisfy(\.isScalar) {
        output += "["
        for (index, element) in elements.enumerated() {
          if index > 0 { output += ", " }
          element.write(to: &output, indent: indent)
        }
        output += "]"
        return
      }
      output += "[\n"
      for (index, element) in elements.enumerated() {
        output += String(repeating: "  ", count: indent + 1)
        element.write(to: &output, indent: indent + 1)
        output += index == elements.count - 1 ? "\n" : ",\n"
      }
      output += String(repeating: "  ", count: indent) + "]"
    case .object(let members):
      if members.isEmpty {
        output += "{}"
        return
      }
      output += "{\n"
      for (index, (key, value)) in members.enumerated() {
        output += String(repeating: "  ", count: indent + 1) + Self.quoted(key) + ": "
        value.write(to: &output, indent: indent + 1)
        output += index == members.count - 1 ? "\n" : ",\n"
      }
      output += String(repeating: "  ", count: indent) + "}"
    }
  }

  /// A JSON string literal: quotes, backslashes and control characters escaped.
  static func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }
}
