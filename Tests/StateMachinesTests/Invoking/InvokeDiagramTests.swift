import Foundation
import Testing

@testable import StateMachines

/// Invokes in the diagrams (Invoke A.5, I15): a `do / <id>` line in the invoking state (UML's
/// do-activity), result edges labelled `done: <id>` and `error: <id>`.
@Suite struct InvokeDiagramTests {
  /// A flat machine: `loading` invokes `fetchUser`.
  static let flat = StateMachineDefinition<DynamicStateMachine> { sm in
    sm.addState("idle")
    sm.addState("loading")
    sm.addState("ready")
    sm.addState("failed")
    sm.when("load", transitionFrom: "idle", to: "loading")
    sm.invoke("fetchUser", in: "loading") { _ in "user" }
    sm.whenInvokeDone("fetchUser", transitionTo: "ready")
    sm.whenInvokeFailed("fetchUser", transitionTo: "failed")
  }

  /// A statechart: the compound `session` and its child `polling` invoke.
  static let chart = StateMachineDefinition<DynamicStateMachine> { sm in
    sm.addState("idle")
    sm.addState("session") { session in
      session.addState("polling")
      session.addState("stale")
    }
    sm.when("open", transitionFrom: "idle", to: "session")
    sm.invoke("heartbeat", in: "session") { _ in }
    sm.invoke("poll", in: "session/polling") { _ in }
    sm.whenInvokeDone("poll", transitionTo: "session/stale")
    sm.whenInvokeFailed("heartbeat", transitionTo: "idle")
  }

  @Test("the definition lists its invokes with their states' paths")
  func invokeList() {
    #expect(Self.flat.invokes == [DeclaredInvoke(id: "fetchUser", state: "loading")])
    #expect(Self.chart.invokes.map(\.description) == ["heartbeat in 'session'", "poll in 'session/polling'"])
  }

  @Test("DOT of a flat machine: the state's label has do / fetchUser; the result edges read done: and error:")
  func flatDot() throws {
    try #require(Self.flat.definitionError == nil)
    let dot = Self.flat.dotDiagram
    #expect(dot.contains(#""loading" [shape=ellipse, label="loading\ndo / fetchUser"];"#), "\(dot)")
    #expect(dot.contains(#""idle" [shape=ellipse];"#))
    #expect(dot.contains(#""loading" -> "ready" [label="done: fetchUser"];"#), "\(dot)")
    #expect(dot.contains(#""loading" -> "failed" [label="error: fetchUser"];"#), "\(dot)")
    #expect(!dot.contains("done.invoke"))
  }

  @Test("Mermaid of a flat machine: s1 : do / fetchUser; result edges done: and error: (colon escaped)")
  func flatMermaid() throws {
    let mermaid = Self.flat.mermaidDiagram
    #expect(mermaid.contains("  state \"loading\" as s1\n  s1 : do / fetchUser\n"), "\(mermaid)")
    #expect(mermaid.contains("s1 --> s2 : done#58; fetchUser"), "\(mermaid)")
    #expect(mermaid.contains("s1 --> s3 : error#58; fetchUser"), "\(mermaid)")
    #expect(!mermaid.contains("done.invoke"))
  }

  @Test("DOT of a statechart: an atomic state's and a cluster's labels have their do lines; result edges")
  func chartDot() throws {
    try #require(Self.chart.definitionError == nil)
    let dot = Self.chart.dotDiagram
    #expect(dot.contains(#"label="session\ndo / heartbeat";"#), "\(dot)")
    #expect(dot.contains(#""session/polling" [label="polling\ndo / poll", shape=box, style=rounded];"#), "\(dot)")
    #expect(dot.contains(#"[label="done: poll"]"#), "\(dot)")
    #expect(dot.contains(#"label="error: heartbeat""#), "\(dot)")
  }

  @Test("Mermaid of a statechart: the composite and the atomic state get their do descriptions")
  func chartMermaid() throws {
    let mermaid = Self.chart.mermaidDiagram
    let lines = mermaid.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    let session = try #require(lines.firstIndex(of: "state \"session\" as s1"))
    #expect(lines[session + 1] == "s1 : do / heartbeat", "\(mermaid)")
    let polling = try #require(lines.firstIndex(of: "state \"polling\" as s2"))
    #expect(lines[polling + 1] == "s2 : do / poll", "\(mermaid)")
    #expect(lines.contains("s2 --> s3 : done#58; poll"), "\(mermaid)")
    #expect(lines.contains("s1 --> s0 : error#58; heartbeat"), "\(mermaid)")
  }
}
