import Foundation
import Observation
import Testing

import StateMachines

struct EdgeFailure: Error {}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@MainActor
@Observable
@StateMachine
final class EdgeObservedLight {
  static let stateMachine = StateMachineDefinition<EdgeObservedLight> { sm in
    sm.addState("green")
    sm.addState("yellow")
    sm.addState("red")
    sm.when("slow", transitionFrom: "green", to: "yellow")
    sm.when("stop", transitionFrom: "yellow", to: "red")
  }
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@Observable
@StateMachine
final class EdgeObservedCodableNote: Codable {
  var title = ""
  @ObservationIgnored var draftCount = 0
  static let stateMachine = StateMachineDefinition<EdgeObservedCodableNote> { sm in
    sm.addState("draft")
    sm.addState("published")
    sm.when("publish", transitionFrom: "draft", to: "published")
  }
}

extension Notification.Name {
  static let edgeTestsPing = Notification.Name("StateMachinesTests.edge.ping")
}

/// Run-to-completion at the edges: Observation handlers, `startStateMachine()`, aborted steps.
@Suite(.serialized) struct RunToCompletionEdgeTests {
  @MainActor
  @Test func anEventFiredFromAnObservationHandlerIsQueuedNotNested() {
    guard #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) else { return }
    let light = EdgeObservedLight()
    withObservationTracking {
      _ = light.state
    } onChange: {
      // Runs inside the transition, before the state is written: must be queued.
      MainActor.assumeIsolated { _ = light.stop() }
    }
    #expect(light.slow())
    #expect(light.state == "red")
  }

  @Test func observableCodableClassEncodesTrackedAndIgnoredProperties() throws {
    guard #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) else { return }
    let note = EdgeObservedCodableNote()
    note.title = "Hello"
    note.draftCount = 2
    note.publish()
    let json = try #require(String(data: JSONEncoder().encode(note), encoding: .utf8))
    #expect(json.contains("\"title\":\"Hello\""))
    #expect(json.contains("\"draftCount\":2"))
    #expect(json.contains("\"state\":\"published\""))
    let decoded = try JSONDecoder().decode(EdgeObservedCodableNote.self, from: Data(json.utf8))
    #expect(decoded.title == "Hello")
    #expect(decoded.isPublished)
  }

  @Test func startRunsEntryActionsToCompletionAndArmsOnlyTheCurrentState() throws {
    var log: [String] = []
    let machine = try DynamicStateMachine(validating: { sm in
      sm.addState("a")
      sm.addState("b")
      sm.addState("c")
      sm.when("go", transitionFrom: "a", to: "b")
      sm.when("ping", transitionFrom: "a", to: "c", onNotification: .edgeTestsPing)
      sm.onEntry("a") { machine in
        log.append("entry a, go queued: \(machine.fire("go")), still in \(machine.state)")
      }
      sm.onEntry("b") { _ in log.append("entry b") }
    })
    try machine.startStateMachine()
    #expect(log == ["entry a, go queued: true, still in a", "entry b"])
    #expect(machine.state == "b")
    // "a"'s observer was disarmed when "go" left it: the notification changes nothing now.
    NotificationCenter.default.post(name: .edgeTestsPing, object: nil)
    #expect(machine.state == "b")
  }

  @Test func startOnAnInvalidDefinitionThrowsInsteadOfCrashing() {
    let machine = DynamicStateMachine(StateMachineDefinition { _ in })
    #expect(throws: StateMachineError.self) { try machine.startStateMachine() }
    #expect(machine.state == "")
  }

  @Test func eventsQueuedByAnAbortedStepAreDropped() {
    let machine = DynamicStateMachine(StateMachineDefinition { sm in
      sm.addState("a")
      sm.addState("b")
      sm.addState("c")
      sm.when("go", transitionFrom: "a", to: "b")
      sm.when("jump", transitionFrom: "a", to: "c")
      sm.before("go") { machine, _ in
        machine.fire("jump")
        throw EdgeFailure()
      }
    })
    #expect(!machine.fire("go"))
    #expect(machine.state == "a")
  }

  @Test func eventsQueuedByAnAbortedLightStepAreDropped() {
    let machine = DynamicStateMachine(StateMachineDefinition { sm in
      sm.addState("a")
      sm.addState("b")
      sm.addState("c")
      sm.when("go", transitionFrom: "a", to: "b")
      sm.when("jump", transitionFrom: "a", to: "c")
      sm.before("go") { (machine: DynamicStateMachine) in
        machine.fire("jump")
        throw EdgeFailure()
      }
    })
    #expect(!machine.fire("go"))
    #expect(machine.state == "a")
  }
}
