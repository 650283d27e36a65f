import StateMachines
internal import StateMachinesNames

/// An `<invoke>` of the document (Invoke A.5): the work bound to its `src` (or `type`).
struct SCXMLInvoke {
  let id: String
  /// The path of the invoking state.
  let statePath: String
  let element: XMLTree
  let work: BoundInvocation
  /// SCXML `autoforward` (I13).
  let autoforward: Bool
}

/// What an event of a `<transition>` is, seen from the invokes: an invoke's result (taken by
/// `whenInvokeDone`/`whenInvokeFailed`), a result event that the transition can never take
/// (not declared), or another event.
enum SCXMLInvokeEvent {
  case done(String)
  case error(String)
  case neverTaken
  case other
}

extension SCXMLImporter {
  /// The SCXML URIs of a nested SCXML session's `type`, which needs a data model.
  static var scxmlTypes: Set<String> {
    ["scxml", "http://www.w3.org/TR/scxml", "http://www.w3.org/TR/scxml/", "http://www.w3.org/TR/scxml/#SCXMLEventProcessor"]
  }

  /// Reads the `<invoke>` children of every state, in document order. With the null data model
  /// only `id`, `type`, `src` and `autoforward="false"` mean something: the attributes and
  /// children that need expressions or a nested session are refused where they are written.
  static func readInvokes(of states: [StateInfo], bind: Bindings<Model>) throws(DefinitionError) -> [SCXMLInvoke] {
    var invokes: [SCXMLInvoke] = []
    // A <final> or <history> has no <invoke>: planning refuses it there.
    for state in states where state.element.name == "state" || state.element.name == "parallel" {
      for (index, element) in state.element.children.filter({ $0.name == "invoke" }).enumerated() {
        let invoke = try readInvoke(element, number: index, in: state, bind: bind)
        if let first = invokes.first(where: { $0.id == invoke.id }) {
          throw .invalidDocument(
            "invoke id '\(invoke.id)' is declared twice (the first is at \(first.element.line):\(first.element.column))",
            line: element.line, column: element.column)
        }
        invokes.append(invoke)
      }
    }
    return invokes
  }

  private static func readInvoke(
    _ element: XMLTree, number: Int, in state: StateInfo, bind: Bindings<Model>
  ) throws(DefinitionError) -> SCXMLInvoke {
    func refusal(_ message: String, at node: XMLTree = element) -> DefinitionError {
      .invalidDocument(message, line: node.line, column: node.column)
    }
    let supported: Set<String> = ["id", "type", "src", "autoforward"]
    if let unsupported = element.attributes.keys.sorted().first(where: { !supported.contains($0) }) {
      throw refusal("<invoke \(unsupported)> is not supported (only id, type, src and autoforward, with the null data model)")
    }
    if let child = element.children.first {
      throw refusal("<\(child.name)> is not supported in <invoke> (the null data model has no parameters or finalize)", at: child)
    }
    let autoforward = element.attributes["autoforward"] ?? "false"
    guard autoforward == "true" || autoforward == "false" else {
      throw refusal("<invoke autoforward='\(autoforward)'>: expected true or false")
    }
    if let type = element.attributes["type"], Self.scxmlTypes.contains(type) {
      throw refusal("<invoke type='\(type)'>: nested SCXML sessions are not supported")
    }
    // `src` names the work; a `type` alone names it too (a custom invocation type).
    guard let key = element.attributes["src"] ?? element.attributes["type"], !key.isEmpty else {
      throw refusal("<invoke> needs a src or type naming bound work")
    }
    // W3C test 224: an invoke without id gets `<state id>.<platform id>`; ours is its position.
    let id = element.attributes["id"] ?? "\(state.id).\(number)"
    do throws(NameError) {
      try NameGrammar.checkStateName(id)
    } catch {
      throw .invalidDocument("invoke id: " + error.located, line: element.line, column: element.column)
    }
    guard let work = bind.invocationWork(named: key) else {
      throw refusal("invocation '\(key)' is not bound; bind an invocation named '\(key)'")
    }
    return SCXMLInvoke(id: id, statePath: state.path, element: element, work: work, autoforward: autoforward == "true")
  }

  /// What `event`, matched by the descriptors `literal` of a `<transition>` of `source`, is. A
  /// result event written out (`done.invoke.fetch`) in the invoking state is that invoke's result
  /// transition. In a state outside the invoking one it is never taken (a result is dropped once
  /// its state is left, I7: W3C 236 and 252 write such transitions to fail on a late event); in
  /// an ancestor or descendant it cannot be expressed (the result transition leaves the invoking
  /// state). A result event only a prefix matched (`done.invoke`, `done`, `*`) is not taken:
  /// SCXML's prefix matching of result events is not supported.
  func invokeEvent(
    _ event: String, literal: Set<String>, source: StateInfo, at element: XMLTree
  ) throws(DefinitionError) -> SCXMLInvokeEvent {
    for (prefix, isDone) in [("done.invoke.", true), ("error.invoke.", false)] where event.hasPrefix(prefix) {
      let id = String(event.dropFirst(prefix.count))
      guard let invoke = invokes.first(where: { $0.id == id }) else { return .other }
      guard literal.contains(event) else { return .neverTaken }
      if invoke.statePath == source.path { return isDone ? .done(id) : .error(id) }
      let related = source.path.hasPrefix(invoke.statePath + "/") || invoke.statePath.hasPrefix(source.path + "/")
      guard related else { return .neverTaken }
      throw .invalidDocument(
        "a transition on '\(event)' must be in the state that invokes '\(id)', not in an ancestor or descendant "
          + "(its <invoke> is at \(invoke.element.line):\(invoke.element.column))",
        line: element.line, column: element.column)
    }
    return .other
  }
}
