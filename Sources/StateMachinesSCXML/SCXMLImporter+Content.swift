import Foundation
import StateMachines

// Executable content (Hierarchy §8): `<raise>`, `<send>`, `<cancel>`, `<if>` and `<log>` as declared
// actions, which the path explorer runs too (Paths §What the explorer runs); any other element is
// an action bound by name.

extension SCXMLImporter {
  /// One run of an element's executable content: declared actions (which the path explorer runs
  /// too), or an action bound by name (code).
  enum ContentPart {
    case declared([DeclaredAction])
    case bound(Action)
  }

  /// The executable content of an element, in document order: consecutive declared actions
  /// merged into one part. Empty if it does nothing.
  func executableContent(_ elements: [XMLTree]) throws(DefinitionError) -> [ContentPart] {
    var parts: [ContentPart] = []
    for element in elements {
      if let declared = try declaredAction(element) {
        guard let action = declared.first else { continue }
        if case .declared(let before)? = parts.last {
          parts[parts.count - 1] = .declared(before + [action])
        } else {
          parts.append(.declared([action]))
        }
        continue
      }
      let key = element.text.trimmingCharacters(in: .whitespacesAndNewlines)
      guard let bound = bind.actionBody(named: key.isEmpty ? element.name : key) else {
        throw .invalidDocument(
          "<\(element.name)> is not supported; bind an action named '\(key.isEmpty ? element.name : key)'",
          line: element.line, column: element.column)
      }
      parts.append(.bound(bound))
    }
    return parts
  }

  /// The content as one action (for the sites that take one: `<initial>` and history defaults),
  /// with the declared actions it is made of when it has no bound part.
  func singleAction(_ parts: [ContentPart]) -> (action: Action, declared: [DeclaredAction]?)? {
    guard !parts.isEmpty else { return nil }
    if parts.count == 1, case .declared(let actions) = parts[0] { return (Self.run(actions), actions) }
    let actions = parts.map { part -> Action in
      switch part {
      case .declared(let declared): return Self.run(declared)
      case .bound(let action): return action
      }
    }
    return ({ model, transition in for action in actions { try action(model, transition) } }, nil)
  }

  private static func run(_ actions: [DeclaredAction]) -> Action {
    { model, _ in model.perform(actions) }
  }

  /// `element` as a declared action: `[]` for `<log>`, `nil` for an element that is not
  /// executable content of the null data model (a bound action's name).
  private func declaredAction(_ element: XMLTree) throws(DefinitionError) -> [DeclaredAction]? {
    switch element.name {
    case "log":
      return []
    case "raise":
      guard let event = element.attributes["event"], !event.isEmpty else {
        throw .invalidDocument("<raise> needs an event", line: element.line, column: element.column)
      }
      return [.raise(ourEventName(event))]
    case "send":
      return [try send(element)]
    case "cancel":
      guard let id = element.attributes["sendid"], !id.isEmpty else {
        throw .invalidDocument("<cancel> needs a sendid", line: element.line, column: element.column)
      }
      return [.cancel(id)]
    case "if":
      return [try choice(element)]
    default:
      return nil
    }
  }

  /// `<if cond>` … `<elseif cond/>` … `<else/>` …: conditions on `In()` only, content declared
  /// only (the explorer must be able to run every branch).
  private func choice(_ element: XMLTree) throws(DefinitionError) -> DeclaredAction {
    var branches: [DeclaredBranch] = []
    var condition = try stateCondition(element)
    var inElse = false
    var current: [DeclaredAction] = []
    for child in element.children {
      switch child.name {
      case "elseif", "else":
        guard !inElse else {
          throw .invalidDocument("<\(child.name)> after <else>", line: child.line, column: child.column)
        }
        branches.append(DeclaredBranch(condition, current))
        current = []
        if child.name == "else" { inElse = true } else { condition = try stateCondition(child) }
      default:
        guard let declared = try declaredAction(child) else {
          throw .invalidDocument(
            "<\(child.name)> is not supported in <if> (only raise, send, cancel, log and if)", line: child.line,
            column: child.column)
        }
        current += declared
      }
    }
    guard inElse else { return .choose(branches + [DeclaredBranch(condition, current)]) }
    return .choose(branches, otherwise: current)
  }

  /// The `cond` of an `<if>` or `<elseif>`: `true`, `false` and `In('id')` combined.
  private func stateCondition(_ element: XMLTree) throws(DefinitionError) -> StateCondition {
    guard let text = element.attributes["cond"] else {
      throw .invalidDocument("<\(element.name)> needs a cond", line: element.line, column: element.column)
    }
    guard let condition = SCXMLCondition.parse(text) else {
      throw .invalidDocument(
        "cond '\(text)' of <\(element.name)> is not true, false or In('id') (combined with !, && and ||)",
        line: element.line, column: element.column)
    }
    var paths: [String: String] = [:]
    for id in condition.stateIDs { paths[id] = try path(of: Substring(id), at: element) }
    return condition.stateCondition { paths[$0]! }
  }

  /// `<send event>` posts to the external queue (S13); with `delay`, on the machine's clock, and
  /// with `id`, cancellable by `<cancel sendid>`.
  private func send(_ element: XMLTree) throws(DefinitionError) -> DeclaredAction {
    let supported: Set<String> = ["event", "delay", "target", "id"]
    if let unsupported = element.attributes.keys.sorted().first(where: { !supported.contains($0) }) {
      throw .invalidDocument("<send \(unsupported)> is not supported", line: element.line, column: element.column)
    }
    if !element.children.isEmpty {
      throw .invalidDocument("<send> with content is not supported", line: element.line, column: element.column)
    }
    guard let event = element.attributes["event"], !event.isEmpty else {
      throw .invalidDocument("<send> needs an event", line: element.line, column: element.column)
    }
    let name = ourEventName(event)
    let target = element.attributes["target"]
    if let target, target != "#_internal" {
      throw .invalidDocument("<send target='\(target)'> is not supported", line: element.line, column: element.column)
    }
    let id = element.attributes["id"]
    if let delayText = element.attributes["delay"] {
      guard let delay = Self.duration(delayText) else {
        throw .invalidDocument(
          "delay '\(delayText)' is not a duration such as 10ms or 2.5s, of at most 1e9 s", line: element.line,
          column: element.column)
      }
      return .send(name, delay: delay, id: id)
    }
    if target == "#_internal" { return .raise(name) }
    return .send(name)
  }
}
