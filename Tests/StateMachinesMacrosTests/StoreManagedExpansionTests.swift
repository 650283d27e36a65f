import Testing

/// A class listing `StoreManagedStateMachine` (PERSISTENCE P13): a lock, storage marked
/// store-managed, and `CodingKeys` without the state, which the store owns.
@Suite struct StoreManagedExpansionTests {
  @Test func storeManagedCodableClassLeavesTheStateOutOfItsCodingKeys() {
    assertExpansion(
      """
      @StateMachine
      final class Order: Codable, StoreManagedStateMachine, @unchecked Sendable {
        var id: Int
        var storeID: Int { id }
        static let stateMachine = StateMachineDefinition<Order> { sm in
          sm.addState("open")
        }
      }
      """,
      expandedSource: """
        final class Order: Codable, StoreManagedStateMachine, @unchecked Sendable {
          var id: Int
          var storeID: Int { id }
          static let stateMachine = StateMachineDefinition<Order> { sm in
            sm.addState("open")
          }

          /// The current state of the state machine.
          var state: String {
            Order.stateMachine.currentState(of: self)
          }

          var stateMachineDefinition: StateMachines.StateMachineDefinition<Order> {
            Order.stateMachine
          }

          var _$stateMachineModel: Order {
            self
          }

          enum _$StateMachineDefinitionProvider: StateMachines.StateMachineDefinitionProvider {
            static var definition: StateMachines.StateMachineDefinition<Order> {
              Order.stateMachine
            }
          }

          @exclusivity(unchecked) nonisolated(unsafe) var _$stateMachineCodableStorage = StateMachines.CodableStateMachineStorage<_$StateMachineDefinitionProvider>(storeManaged: true)

          var _$stateMachineStorage: StateMachines.StateMachineStorage {
            _read {
              yield _$stateMachineCodableStorage.storage
            }
            _modify {
              yield &_$stateMachineCodableStorage.storage
            }
          }

          enum CodingKeys: String, CodingKey {
            case id
          }

          var _$stateMachineLock: StateMachines.StateMachineLock? {
            _$stateMachineCodableStorage.lock
          }

          private struct _$StateMachineIDs: @unchecked Sendable {
            let definition: UnsafeRawPointer
            let state_open: StateMachines.StateMachineStateID

            init<Model>(_ definition: StateMachines.StateMachineDefinition<Model>) {
              self.definition = StateMachines.StateMachineDefinition<Model>._$opaque(definition)
              state_open = definition.stateID("open")
            }
          }

          private static let _$stateMachineIDs = _$StateMachineIDs(Order.stateMachine)

          /// Whether the machine is in state "open".
          var isOpen: Bool {
            let ids = Order._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Order>._$isInState(ids.definition, ids.state_open, on: self)
          }
        }

        extension Order: StateMachines.StateMachineObject {
        }
        """)
  }

  @Test func storeManagedClassWithoutCodableGetsStoreManagedStorageAndALock() {
    assertExpansion(
      """
      @StateMachine
      final class Ticket: StoreManagedStateMachine {
        static let stateMachine = StateMachineDefinition<Ticket> { sm in
          sm.addState("open")
        }
      }
      """,
      expandedSource: """
        final class Ticket: StoreManagedStateMachine {
          static let stateMachine = StateMachineDefinition<Ticket> { sm in
            sm.addState("open")
          }

          /// The current state of the state machine.
          var state: String {
            Ticket.stateMachine.currentState(of: self)
          }

          var stateMachineDefinition: StateMachines.StateMachineDefinition<Ticket> {
            Ticket.stateMachine
          }

          var _$stateMachineModel: Ticket {
            self
          }

          @exclusivity(unchecked) nonisolated(unsafe) var _$stateMachineStorage = StateMachines.StateMachineStorage(Ticket.stateMachine, storeManaged: true)

          var _$stateMachineLock: StateMachines.StateMachineLock? {
            StateMachines.StateMachineLock(guarding: self)
          }

          private struct _$StateMachineIDs: @unchecked Sendable {
            let definition: UnsafeRawPointer
            let state_open: StateMachines.StateMachineStateID

            init<Model>(_ definition: StateMachines.StateMachineDefinition<Model>) {
              self.definition = StateMachines.StateMachineDefinition<Model>._$opaque(definition)
              state_open = definition.stateID("open")
            }
          }

          private static let _$stateMachineIDs = _$StateMachineIDs(Ticket.stateMachine)

          /// Whether the machine is in state "open".
          var isOpen: Bool {
            let ids = Ticket._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Ticket>._$isInState(ids.definition, ids.state_open, on: self)
          }
        }

        extension Ticket: StateMachines.StateMachineObject {
        }
        """)
  }
}
