import Foundation
import Observation
import Testing

import StateMachines

/// Combinations of class kinds that change what the macro generates: each must compile and work.
@StateMachine
final class SendableCodableTicket: @unchecked Sendable, Codable {
  var seat = 0
  static let stateMachine = StateMachineDefinition<SendableCodableTicket> { sm in
    sm.addState("reserved")
    sm.addState("paid")
    sm.when("pay", transitionFrom: "reserved", to: "paid")
  }
}

@StateMachine
public class PublicCodableLetter: Codable {
  public var text = ""
  public init() {}
  public static let stateMachine = StateMachineDefinition<PublicCodableLetter> { sm in
    sm.addState("draft")
    sm.addState("sent")
    sm.when("send", transitionFrom: "draft", to: "sent")
  }
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@MainActor
@Observable
@StateMachine
public class PublicObservableScreen {
  public init() {}
  public static let stateMachine = StateMachineDefinition<PublicObservableScreen> { sm in
    sm.addState("hidden")
    sm.addState("shown")
    sm.when("show", transitionFrom: "hidden", to: "shown")
  }
}

@Suite(.timeLimit(.minutes(1))) struct ClassVariantTests {
  @Test func sendableCodableClassRoundTripsAndIsLocked() async throws {
    let ticket = SendableCodableTicket()
    ticket.seat = 12
    await withTaskGroup(of: Bool.self) { group in
      for _ in 0..<8 { group.addTask { ticket.pay() } }
      var accepted = 0
      for await result in group where result { accepted += 1 }
      #expect(accepted == 1)
    }
    let data = try JSONEncoder().encode(ticket)
    let decoded = try JSONDecoder().decode(SendableCodableTicket.self, from: data)
    #expect(decoded.seat == 12)
    #expect(decoded.isPaid)
  }

  @Test func publicNonFinalCodableClassRoundTrips() throws {
    let letter = PublicCodableLetter()
    letter.text = "hello"
    letter.send()
    let decoded = try JSONDecoder().decode(PublicCodableLetter.self, from: JSONEncoder().encode(letter))
    #expect(decoded.text == "hello")
    #expect(decoded.state == "sent")
  }

  @MainActor
  @Test func publicNonFinalMainActorObservableClassNotifies() {
    guard #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) else { return }
    let screen = PublicObservableScreen()
    let flag = TestRecorder()
    withObservationTracking {
      _ = screen.isShown
    } onChange: {
      flag.increment("changes")
    }
    #expect(screen.show())
    #expect(flag["changes"] == 1)
  }
}

/// A `@MainActor` machine driven by name from a nonisolated async context: the
/// string-keyed API is callable with `await` from anywhere.
@MainActor
@StateMachine
final class MainActorKiosk {
  static let stateMachine = StateMachineDefinition<MainActorKiosk> { sm in
    sm.addState("idle")
    sm.addState("serving")
    sm.when("serve", transitionFrom: "idle", to: "serving")
  }
}

@Suite(.timeLimit(.minutes(1))) struct NonisolatedCallerTests {
  @Test("await fire(\"x\") on a @MainActor class from a nonisolated async context")
  nonisolated func awaitFireByName() async throws {
    let kiosk = await MainActorKiosk()
    #expect(await kiosk.can("serve"))
    #expect(await kiosk.fire("serve"))
    #expect(await kiosk.isInState("serving"))
    #expect(await !kiosk.fire("serve"))
    await #expect(throws: StateMachineError.self) { try await kiosk.fireOrThrow("serve") }
    #expect(await kiosk.state == "serving")
  }
}
