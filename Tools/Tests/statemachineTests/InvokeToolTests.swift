import Foundation
import Testing

/// `statemachine` on definitions with invokes (Invoke A.5): `run` binds every source to a stub
/// that succeeds with null and prints the result event it took; `validate` lists the invokes;
/// `render` draws them.
@Suite("statemachine and invoke", .timeLimit(.minutes(1)))
struct InvokeToolTests {
  static let profile = #"""
    {
      "format": "statemachines/1",
      "states": {
        "idle": { "on": { "load": "loading" } },
        "loading": {
          "on": { "cancel": "idle" },
          "invoke": [{ "src": "fetchUser", "onDone": { "target": "ready", "actions": ["store"] }, "onError": "failed" }]
        },
        "ready": { "on": { "load": "loading" } },
        "failed": {}
      }
    }
    """#

  static let scxml = """
    <?xml version="1.0"?>
    <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0">
      <state id="idle"><transition event="load" target="loading"/></state>
      <state id="loading">
        <invoke id="fetch" type="http"/>
        <transition event="done.invoke.fetch" target="ready"/>
      </state>
      <state id="ready"/>
    </scxml>
    """

  /// Runs the tool with `arguments` on `text` written to a file with `fileExtension`.
  static func tool(_ arguments: [String], text: String, fileExtension: String = "json") async throws -> StoreFixture.Output {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("invoke-\(UUID().uuidString).\(fileExtension)")
    try Data(text.utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let process = Process()
    process.executableURL = try StoreFixture.tool()
    process.arguments = [arguments[0], file.path] + arguments.dropFirst()
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    while process.isRunning { try await Task.sleep(for: .milliseconds(10)) }
    return StoreFixture.Output(status: process.terminationStatus, stdout: stdout, stderr: stderr)
  }

  @Test("run: the stub work succeeds with null; its done event takes onDone, after the step that started it")
  func run() async throws {
    let output = try await Self.tool(["run", "--events", "load,load"], text: Self.profile)
    #expect(output.status == 0, "\(output.stderr)")
    #expect(
      output.lines == [
        "start: idle", "load -> loading", "done.invoke.fetchUser -> ready  actions: store", "load -> loading",
        "done.invoke.fetchUser -> ready  actions: store",
      ], "\(output.stdout)")
  }

  @Test("run --json: the result step has the event's name and the state it reached")
  func runJSON() async throws {
    let output = try await Self.tool(["run", "--events", "load", "--json"], text: Self.profile)
    let steps = try output.objects()
    #expect(steps.map { $0["event"] as? String } == [nil, "load", "done.invoke.fetchUser"])
    #expect(steps.map { $0["state"] as? String } == ["idle", "loading", "ready"])
  }

  @Test("run an SCXML document: the invoke's type is bound to the stub")
  func runSCXML() async throws {
    let output = try await Self.tool(["run", "--events", "load"], text: Self.scxml, fileExtension: "scxml")
    #expect(output.lines == ["start: idle", "load -> loading", "done.invoke.fetch -> ready"], "\(output.stdout) \(output.stderr)")
  }

  @Test("validate lists the invokes; render draws do / id and the result edges")
  func validateAndRender() async throws {
    let validate = try await Self.tool(["validate"], text: Self.profile)
    #expect(validate.status == 0)
    #expect(validate.stdout.contains("ok (4 states, "), "\(validate.stdout)")
    #expect(validate.stdout.contains("invokes: fetchUser in 'loading')"), "\(validate.stdout)")
    let dot = try await Self.tool(["render", "--format", "dot"], text: Self.profile)
    #expect(dot.stdout.contains(#"label="loading\ndo / fetchUser""#), "\(dot.stdout)")
    #expect(dot.stdout.contains(#"[label="done: fetchUser"]"#), "\(dot.stdout)")
    let mermaid = try await Self.tool(["render", "--format", "mermaid"], text: Self.profile)
    #expect(mermaid.stdout.contains("s1 : do / fetchUser"), "\(mermaid.stdout)")
  }
}
