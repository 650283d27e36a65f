// What the diagrams show of invokes (Invoke A.5, I15): a `do / <id>` line in the invoking
// state (UML's do-activity), and result edges labelled `done: <id>` / `error: <id>` rather than
// the reserved event names.

import Foundation

extension StateMachineDefinition {
  /// The `do / <id>` lines of `state`, in declaration order.
  func doActivities(of state: Int32) -> [String] {
    compiled.invocations.filter { $0.state == state }.map { "do / \($0.id)" }
  }

  /// How an edge names `event`: `done: <id>` or `error: <id>` for an invoke's result event,
  /// else the event's name.
  func diagramEventName(_ event: Int32) -> String {
    for invocation in compiled.invocations {
      if event == invocation.doneEvent { return "done: \(invocation.id)" }
      if event == invocation.errorEvent { return "error: \(invocation.id)" }
    }
    return eventName(event)
  }

  /// A DOT label of several lines: each escaped, joined by DOT's `\n` (a centred line break).
  func dotLabel(_ lines: [String]) -> String {
    let escaped = lines.map { $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") }
    return "\"" + escaped.joined(separator: "\\n") + "\""
  }
}
