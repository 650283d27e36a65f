import Foundation
import Observation
import Testing

import StateMachines

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@Observable
@StateMachine
final class ObservedOrder {
  var note = ""
  static let stateMachine = StateMachineDefinition<ObservedOrder> { sm in
    sm.addState("open")
    sm.addState("paid")
    sm.when("pay", transitionFrom: "open", to: "paid")
    sm.when("refund", transitionFrom: "paid", to: "open")
  }
}

@StateMachine
final class CodableOrder: Codable {
  var id: Int
  init(id: Int) { self.id = id }
  static let stateMachine = StateMachineDefinition<CodableOrder> { sm in
    sm.addState("open")
    sm.addState("shipped")
    sm.addFinalState("closed")
    sm.when("ship", transitionFrom: "open", to: "shipped")
    sm.when("close", transitionFrom: "shipped", to: "closed")
  }
}

/// A Codable model that names its own coding keys: the macro then leaves them alone.
@StateMachine
final class KeyedCodableOrder: Codable {
  var number = 0
  enum CodingKeys: String, CodingKey {
    case number = "no"
    case _$stateMachineCodableStorage = "status"
  }
  static let stateMachine = StateMachineDefinition<KeyedCodableOrder> { sm in
    sm.addState("draft")
    sm.addState("sent")
    sm.when("send", transitionFrom: "draft", to: "sent")
  }
}

/// A flag set from Observation's `onChange`, which may run on any thread.

/// Observation needs macOS 14 / iOS 17; the package supports older systems, so each test checks.
@Suite struct ObservationTests {
  @Test func readingStateIsTrackedAndATransitionNotifies() {
    guard #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) else { return }
    let order = ObservedOrder()
    let flag = TestRecorder()
    withObservationTracking {
      _ = order.state
    } onChange: {
      flag.increment("changes")
    }
    #expect(flag["changes"] == 0)
    #expect(order.pay())
    #expect(flag["changes"] == 1)
  }

  @Test func aRejectedEventDoesNotNotify() {
    guard #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) else { return }
    let order = ObservedOrder()
    let flag = TestRecorder()
    withObservationTracking {
      _ = order.isPaid
    } onChange: {
      flag.increment("changes")
    }
    #expect(!order.refund())
    #expect(flag["changes"] == 0)
    #expect(order.pay())
    #expect(flag["changes"] == 1)
  }

  @Test func restoringTheStateNotifies() throws {
    guard #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) else { return }
    let order = ObservedOrder()
    let flag = TestRecorder()
    withObservationTracking {
      _ = order.state
    } onChange: {
      flag.increment("changes")
    }
    try order.restoreState("paid")
    #expect(flag["changes"] == 1)
  }
}

@Suite struct CodableTests {
  @Test func encodesTheStateByNameAndDecodesIt() throws {
    let order = CodableOrder(id: 7)
    order.ship()
    let data = try JSONEncoder().encode(order)
    let json = try #require(String(data: data, encoding: .utf8))
    #expect(json.contains("\"state\":\"shipped\""))
    #expect(json.contains("\"id\":7"))
    let decoded = try JSONDecoder().decode(CodableOrder.self, from: data)
    #expect(decoded.id == 7)
    #expect(decoded.state == "shipped")
    #expect(decoded.isShipped)
    #expect(decoded.close())
  }

  @Test func userCodingKeysNameTheStateKey() throws {
    let order = KeyedCodableOrder()
    order.number = 4
    order.send()
    let json = try #require(String(data: JSONEncoder().encode(order), encoding: .utf8))
    #expect(json.contains("\"status\":\"sent\""))
    let decoded = try JSONDecoder().decode(KeyedCodableOrder.self, from: Data(#"{"no":9,"status":"sent"}"#.utf8))
    #expect(decoded.number == 9)
    #expect(decoded.isSent)
  }

  @Test func decodingAFinalStateRestoresTermination() throws {
    let order = CodableOrder(id: 1)
    order.ship()
    order.close()
    let decoded = try JSONDecoder().decode(CodableOrder.self, from: JSONEncoder().encode(order))
    #expect(decoded.isClosed)
    #expect(decoded.isStateMachineTerminated)
  }

  @Test func decodingAnUnknownStateFailsWithAClearError() throws {
    let order = CodableOrder(id: 3)
    let json = try #require(String(data: JSONEncoder().encode(order), encoding: .utf8))
    let corrupted = json.replacingOccurrences(of: "\"open\"", with: "\"teleported\"")
    #expect(corrupted != json)
    do {
      _ = try JSONDecoder().decode(CodableOrder.self, from: Data(corrupted.utf8))
      Issue.record("decoding an unknown state succeeded")
    } catch let DecodingError.dataCorrupted(context) {
      #expect(context.debugDescription.contains("'teleported' is not a state"))
    }
  }
}
