import Testing

/// A store-managed class (Persistence P13): a lock, storage marked store-managed, `CodingKeys`
/// without the state, which the store owns, async store methods and typed names.
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

          /// The events of `Order`: it declares none.
          enum EventName: StateMachines.StateMachineName {
            var rawValue: Swift.String {
              switch self {}
            }
            init?(rawValue: Swift.String) {
              return nil
            }
          }

          /// The states of `Order`, checked by the compiler: each case's raw value is the declared name.
          enum StateName: Swift.String, StateMachines.StateMachineName {
            case open
          }

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

          /// The events of `Ticket`: it declares none.
          enum EventName: StateMachines.StateMachineName {
            var rawValue: Swift.String {
              switch self {}
            }
            init?(rawValue: Swift.String) {
              return nil
            }
          }

          /// The states of `Ticket`, checked by the compiler: each case's raw value is the declared name.
          enum StateName: Swift.String, StateMachines.StateMachineName {
            case open
          }

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

  /// A class the compiler reports as store-managed (a conformance in an extension or through a
  /// refining protocol, SE-0407): async store methods in place of the synchronous ones, `can…`
  /// and `is…` synchronous, and typed names whose raw values are the declared names.
  @Test func conformanceTheCompilerReportsGetsAsyncStoreMethodsAndTypedNames() {
    assertExpansion(
      """
      @StateMachine
      public final class Order {
        public static let stateMachine = StateMachineDefinition<Order> { sm in
          sm.addState("awaiting_payment")
          sm.addState("paid")
          sm.when("pay", transitionFrom: "awaiting_payment", to: "paid")
        }
      }
      """,
      expandedSource: """
        public final class Order {
          public static let stateMachine = StateMachineDefinition<Order> { sm in
            sm.addState("awaiting_payment")
            sm.addState("paid")
            sm.when("pay", transitionFrom: "awaiting_payment", to: "paid")
          }

          /// The current state of the state machine.
          public var state: String {
            Order.stateMachine.currentState(of: self)
          }

          public var stateMachineDefinition: StateMachines.StateMachineDefinition<Order> {
            Order.stateMachine
          }

          public var _$stateMachineModel: Order {
            self
          }

          @exclusivity(unchecked) public nonisolated(unsafe) var _$stateMachineStorage = StateMachines.StateMachineStorage(Order.stateMachine, storeManaged: true)

          public var _$stateMachineLock: StateMachines.StateMachineLock? {
            StateMachines.StateMachineLock(guarding: self)
          }

          private struct _$StateMachineIDs: @unchecked Sendable {
            let definition: UnsafeRawPointer
            let event_pay: StateMachines.StateMachineEventID
            let state_awaitingPayment: StateMachines.StateMachineStateID
            let state_paid: StateMachines.StateMachineStateID

            init<Model>(_ definition: StateMachines.StateMachineDefinition<Model>) {
              self.definition = StateMachines.StateMachineDefinition<Model>._$opaque(definition)
              event_pay = definition.eventID("pay")
              state_awaitingPayment = definition.stateID("awaiting_payment")
              state_paid = definition.stateID("paid")
            }
          }

          private static let _$stateMachineIDs = _$StateMachineIDs(Order.stateMachine)

          /// The events of `Order`, checked by the compiler: each case's raw value is the declared name.
          public enum EventName: Swift.String, StateMachines.StateMachineName {
            case pay
          }

          /// The states of `Order`, checked by the compiler: each case's raw value is the declared name.
          public enum StateName: Swift.String, StateMachines.StateMachineName {
            case awaitingPayment = "awaiting_payment"
            case paid
          }

          /// Fires event "pay" as one store step on this object's row. Returns `true` when the
          /// transition committed, `false` when the definition refused the event (nothing written).
          /// Throws `StateMachineStoreError` for a lost race (`.conflict`), a failed callback or a
          /// database failure; afterwards the object holds the row's committed state and version.
          @discardableResult
          public func pay() async throws(StateMachines.StateMachineStoreError) -> Bool {
            try await StateMachines.StateMachineDefinition<Order>._$fireInStore("pay", payload: nil, on: self)
          }

          /// Fires event "pay" with a payload as one store step on this object's row; see `pay()`.
          @discardableResult
          public func pay(with payload: any Encodable & Sendable) async throws(StateMachines.StateMachineStoreError) -> Bool {
            try await StateMachines.StateMachineDefinition<Order>._$fireInStore("pay", payload: payload, on: self)
          }

          /// Whether event "pay" would take a transition now.
          public var canPay: Bool {
            let ids = Order._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Order>._$can(ids.definition, ids.event_pay, on: self)
          }

          /// Whether the machine is in state "awaiting_payment".
          public var isAwaitingPayment: Bool {
            let ids = Order._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Order>._$isInState(ids.definition, ids.state_awaitingPayment, on: self)
          }

          /// Whether the machine is in state "paid".
          public var isPaid: Bool {
            let ids = Order._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Order>._$isInState(ids.definition, ids.state_paid, on: self)
          }
        }

        extension Order: StateMachines.StateMachineObject {
        }
        """,
      macroSpecs: compilerSaysStoreManagedSpecs)
  }
}
