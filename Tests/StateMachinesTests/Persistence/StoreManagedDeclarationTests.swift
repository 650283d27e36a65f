// Every way of declaring `StoreManagedStateMachine` gives the same class (Persistence P13): in the
// inheritance clause, through a refining protocol, in an extension in the same file or in
// another file. The compiler tells the macro (SE-0407), so each gets the async store methods,
// the typed names and a lock; the runtime asks the type itself, so each refuses a synchronous
// fire and binds to a store alike.

import Foundation
@testable import StateMachines
import Testing

/// Listed in the inheritance clause.
@StateMachine
final class ListedTicket: Codable, StoreManagedStateMachine, @unchecked Sendable {
  var id: Int
  var storeID: Int { id }
  init(id: Int) { self.id = id }
  static let stateMachine = StateMachineDefinition<ListedTicket> { sm in
    sm.addState("open")
    sm.addState("closed")
    sm.when("close", transitionFrom: "open", to: "closed")
  }
}

/// An application's own protocol that refines `StoreManagedStateMachine`, as
/// `PostgresStateMachineRecord` does.
protocol ApplicationRecord: StoreManagedStateMachine {}

/// Through a refining protocol the macro cannot recognise by name.
@StateMachine
final class RefinedTicket: Codable, ApplicationRecord, @unchecked Sendable {
  var id: Int
  var storeID: Int { id }
  init(id: Int) { self.id = id }
  static let stateMachine = StateMachineDefinition<RefinedTicket> { sm in
    sm.addState("open")
    sm.addState("closed")
    sm.when("close", transitionFrom: "open", to: "closed")
  }
}

/// In an extension in this file.
@StateMachine
final class ExtendedTicket: Codable {
  var id: Int
  init(id: Int) { self.id = id }
  static let stateMachine = StateMachineDefinition<ExtendedTicket> { sm in
    sm.addState("open")
    sm.addState("closed")
    sm.when("close", transitionFrom: "open", to: "closed")
  }
}

extension ExtendedTicket: StoreManagedStateMachine, @unchecked Sendable {
  var storeID: Int { id }
}

/// The checks every declaration must pass.
func checkStoreManagedDeclaration<Model: StoreManagedStateMachine & Codable>(
  _ make: (Int) -> Model, close: (Model) async throws -> Bool
) async throws {
  let id = StoreTestIDs.next()
  let ticket = make(id)
  // The runtime's rule: the storage is store-managed and a synchronous fire is refused (P13).
  #expect(ticket._$stateMachineStorage.slowPathFlags & StateMachineStorage.storeManagedFlag != 0)
  #expect(ticket.fire("close") == false)
  #expect(ticket.state == "open")
  // The macro's: a lock (the class is Sendable through the protocol) and the typed names.
  #expect(ticket._$stateMachineLock != nil)
  #expect(Model.EventName.allCases.map(\.rawValue) == ["close"])
  #expect(Set(Model.StateName.allCases.map(\.rawValue)) == ["open", "closed"])
  // The generated async method fires through the store that bound the object.
  let store = InMemoryStateMachineStore<Model>()
  try await store.insert(ticket)
  #expect(try await close(ticket))
  #expect(ticket.state == "closed")
  #expect(store.storedState(of: ticket.storeID)?.state == "closed")
}

@Suite("StoreManagedStateMachine however declared (Persistence P13)", .timeLimit(.minutes(1)))
struct StoreManagedDeclarationTests {
  @Test func inTheInheritanceClause() async throws {
    try await checkStoreManagedDeclaration(ListedTicket.init(id:)) { try await $0.close() }
  }

  @Test func throughARefiningProtocol() async throws {
    try await checkStoreManagedDeclaration(RefinedTicket.init(id:)) { try await $0.close() }
  }

  @Test func inAnExtensionInTheSameFile() async throws {
    try await checkStoreManagedDeclaration(ExtendedTicket.init(id:)) { try await $0.close() }
  }

  @Test func inAnExtensionInAnotherFile() async throws {
    try await checkStoreManagedDeclaration(ElsewhereTicket.init(id:)) { try await $0.close() }
  }

  @Test("a class Sendable through an extension gets a lock, as one that says so in its declaration")
  func sendableInAnExtensionGetsALock() {
    #expect(SendableByExtension()._$stateMachineLock != nil)
    #expect(SendableByDeclaration()._$stateMachineLock != nil)
    #expect(NotSendableCounter()._$stateMachineLock == nil)
  }

  @Test func typedNamesAreTheDeclaredNames() {
    #expect(ListedTicket.EventName.close.rawValue == "close")
    #expect(ListedTicket.StateName(rawValue: "closed") == .closed)
    #expect(ListedTicket.StateName(rawValue: "nosuchstate") == nil)
  }
}

/// Declared store-managed in another file (StoreManagedElsewhere.swift).
@StateMachine
final class ElsewhereTicket: Codable {
  var id: Int
  init(id: Int) { self.id = id }
  static let stateMachine = StateMachineDefinition<ElsewhereTicket> { sm in
    sm.addState("open")
    sm.addState("closed")
    sm.when("close", transitionFrom: "open", to: "closed")
  }
}

/// `Sendable` in its inheritance clause: a lock.
@StateMachine
final class SendableByDeclaration: Sendable {
  static let stateMachine = StateMachineDefinition<SendableByDeclaration> { sm in
    sm.addState("idle")
  }
}

/// `Sendable` in an extension: a lock all the same (the compiler tells the macro).
@StateMachine
final class SendableByExtension {
  static let stateMachine = StateMachineDefinition<SendableByExtension> { sm in
    sm.addState("idle")
  }
}

extension SendableByExtension: @unchecked Sendable {}

/// Not `Sendable`: no lock, one thread or actor at a time.
@StateMachine
final class NotSendableCounter {
  static let stateMachine = StateMachineDefinition<NotSendableCounter> { sm in
    sm.addState("idle")
  }
}
