import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `statemachine inspect FILE` (issue 22): the URL on a line of its own, the page behind it, and
/// a clean exit on SIGTERM.
@Suite(.timeLimit(.minutes(1))) struct InspectCommandTests {
  @Test func printsTheURLOnALineOfItsOwnAndServesUntilTerminated() async throws {
    let chart = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../../Examples/Definitions/media-player.json").standardizedFileURL
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("inspect-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: output.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: output) }
    let process = Process()
    process.executableURL = try StoreFixture.tool()
    process.arguments = ["inspect", chart.path, "--port", "0"]
    process.standardOutput = try FileHandle(forWritingTo: output)
    try process.run()
    defer { if process.isRunning { process.terminate() } }

    var text = ""
    let deadline = ContinuousClock.now + .seconds(20)
    while !text.contains("\n"), ContinuousClock.now < deadline, process.isRunning {
      try await Task.sleep(for: .milliseconds(20))
      text = String(decoding: try Data(contentsOf: output), as: UTF8.self)
    }
    let line = try #require(text.split(separator: "\n").first.map(String.init))
    let pattern = /^http:\/\/127\.0\.0\.1:(\d+)\/#token=([0-9a-f]{32})$/
    let match = try #require(line.wholeMatch(of: pattern), "\(line)")
    let port = String(match.1)

    let (page, pageResponse) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/")!)
    #expect((pageResponse as? HTTPURLResponse)?.statusCode == 200)
    #expect(String(decoding: page, as: UTF8.self).contains("id=\"diagram\""))
    let (_, refused) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/api/objects")!)
    #expect((refused as? HTTPURLResponse)?.statusCode == 401)
    var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/api/objects")!)
    request.setValue("Bearer \(match.2)", forHTTPHeaderField: "Authorization")
    let (objects, _) = try await URLSession.shared.data(for: request)
    #expect(String(decoding: objects, as: UTF8.self).contains(#""name":"media-player""#))

    process.terminate()
    while process.isRunning { try await Task.sleep(for: .milliseconds(20)) }
    #expect(process.terminationStatus == 0)
  }
}
