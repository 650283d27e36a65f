import Foundation
import Testing

@testable import StateMachines

/// An upload whose work returns what its input saw, restartable after a decode (I10).
@StateMachine
final class InvokeUpload: Codable, @unchecked Sendable {
  var fileID = "f1"
  var seen: String?
  /// Held work sleeps on it until it is cancelled (I16): nothing advances it.
  static let clock = ManualClock()
  static let stateMachine = StateMachineDefinition<InvokeUpload> { sm in
    sm.clock = clock
    sm.addState("idle")
    sm.addState("uploading")
    sm.addState("done")
    sm.when("start", transitionFrom: "idle", to: "uploading")
    sm.when("poke", transitionFrom: "uploading", to: "uploading", internal: true)
    sm.invoke("upload", in: "uploading", input: { upload, transition in
      "\(upload.fileID) payload=\(transition.payload.map { "\($0)" } ?? "nil")"
    }) { context in
      // The first start waits for a restore (it is cancelled); later ones finish at once.
      if context.input.hasSuffix("payload=hold") { try await context.clock.sleep(for: .seconds(3600)) }
      return context.input
    }
    sm.whenInvokeDone("upload", transitionTo: "done").action { upload, transition in
      upload.seen = transition.payload(as: String.self)
    }
  }
}

/// The same upload, but interrupted work must not run again: `.onRestore(.fail)`.
@StateMachine
final class InvokeCharge: Codable, @unchecked Sendable {
  var failure: String?
  static let stateMachine = StateMachineDefinition<InvokeCharge> { sm in
    sm.clock = ManualClock()
    sm.addState("idle")
    sm.addState("charging")
    sm.addState("checking")
    sm.when("charge", transitionFrom: "idle", to: "charging")
    sm.when("poke", transitionFrom: "charging", to: "charging", internal: true)
    sm.invoke("charge", in: "charging") { context in try await context.clock.sleep(for: .seconds(3600)) }
      .onRestore(.fail)
    sm.whenInvokeFailed("charge", transitionTo: "checking").action { charge, transition in
      charge.failure = transition.payload(as: InvocationError.self).map { "\($0)" }
    }
  }
}

/// A download that reports progress through `context.send` while it runs.
@MainActor
@StateMachine
final class InvokeDownload {
  let gates = InvocationGates()
  let sends = TestRecorder()
  var reports: [Int] = []
  static let stateMachine = StateMachineDefinition<InvokeDownload> { sm in
    sm.addState("idle")
    sm.addState("downloading")
    sm.when("go", transitionFrom: "idle", to: "downloading")
    sm.when("stop", transitionFrom: "downloading", to: "idle")
    sm.when("progress", transitionFrom: "downloading", to: "downloading", internal: true)
      .action { download, transition in download.reports.append(transition.payload(as: Int.self) ?? -1) }
    sm.invoke("download", in: "downloading", input: { download, _ in
      DownloadInput(gates: download.gates, sends: download.sends)
    }) { context in
      context.input.sends.append("50: \(await context.send("progress", payload: 50))")
      await context.input.gates.wait(context.generation)
      context.input.sends.append("90: \(await context.send("progress", payload: 90))")
    }
  }
}

struct DownloadInput: Sendable {
  let gates: InvocationGates
  let sends: TestRecorder
}

@Suite(.timeLimit(.minutes(1)))
struct InvokeRestoreAndSendTests {
  @Test("I10: a decoded machine restarts the work of its state on its first use, with no payload")
  func decodeRestarts() async throws {
    let upload = InvokeUpload()
    #expect(upload.fire("start", payload: "hold"))
    #expect(upload.activeInvocations.count == 1)
    let data = try JSONEncoder().encode(upload)
    try upload.stopStateMachine()
    await upload.waitForInvocations()

    let decoded = try JSONDecoder().decode(InvokeUpload.self, from: data)
    // Tasks are not data: nothing runs until the first use, here reading the state.
    #expect(decoded.activeInvocations.isEmpty)
    #expect(decoded.state == "uploading")
    await decoded.waitForInvocations()
    #expect(decoded.state == "done")
    #expect(decoded.seen == "f1 payload=nil")
  }

  @Test("I10: with .onRestore(.fail), a decoded machine raises error.invoke.<id> instead of running the work again")
  func decodeFails() async throws {
    let charge = InvokeCharge()
    #expect(charge.fire("charge"))
    let data = try JSONEncoder().encode(charge)
    try charge.stopStateMachine()
    await charge.waitForInvocations()

    let decoded = try JSONDecoder().decode(InvokeCharge.self, from: data)
    #expect(decoded.fire("poke"))
    // Raised as an internal event of that first run: handled before fire returned.
    #expect(decoded.state == "checking")
    #expect(decoded.failure == "\(InvocationError.interruptedByRestore(id: "charge"))")
    #expect(decoded.invocationStatistics.started == 0)
  }

  @Test("I6, I7: the work's send is an external event while it is current, and false once its state was left")
  @MainActor
  func contextSend() async {
    let download = InvokeDownload()
    #expect(download.fire("go"))
    await eventually { download.sends.lines.count == 1 }
    #expect(download.sends.lines == ["50: true"])
    #expect(download.reports == [50])
    #expect(download.fire("stop"))
    download.gates.open(1)
    await download.waitForInvocations()
    #expect(download.sends.lines == ["50: true", "90: false"])
    #expect(download.reports == [50])
  }

  @Test("send(_:payload:) fires a locked model from a nonisolated context and says how it ended")
  func sendFromAnyContext() async {
    let upload = InvokeUpload()
    #expect(await upload.send("poke").happened == false)
    #expect(await upload.send("start", payload: "hold").happened)
    if case .rejected(let error) = await upload.send("nonsense") {
      #expect("\(error)".contains("nonsense"))
    } else {
      Issue.record("an unknown event must be rejected")
    }
    #expect(upload.state == "uploading")
    try? upload.stopStateMachine()
    await upload.waitForInvocations()
  }

  @Test("send(_:payload:) fires a main-actor model from a nonisolated context (the generated member hops)")
  func sendToMainActorFromAnyContext() async {
    let download = await InvokeDownload()
    #expect(await download.send("go").happened)
    #expect(await download.state == "downloading")
    if case .rejected(let error) = await download.send("go") {
      #expect("\(error)".contains("go"))
    } else {
      Issue.record("go from downloading must be rejected")
    }
    #expect(await download.send("stop").happened)
    await Self.finish(download)
  }

  @MainActor
  private static func finish(_ download: InvokeDownload) async {
    download.gates.open(1)
    await download.waitForInvocations()
  }
}
