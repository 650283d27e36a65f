import Testing

/// What `@StateMachine` adds to a plain, a public and a non-final class, spelled out in full.
@Suite struct GeneratedMemberTests {
  @Test func subscriptionExampleExpandsToStateEventsQueriesAndConformance() {
    assertExpansion(
      """
      @StateMachine
      final class Subscription {
        var terminatedAt: Date?
        private(set) var billingStopped = false
        func stopBilling() { billingStopped = true }

        static let stateMachine = StateMachineDefinition<Subscription> { sm in
          sm.initialState = "pendingActivation"
          sm.addState("pendingActivation")
          sm.addState("active")
          sm.addState("suspended")
          sm.addState("terminated")
          sm.when("activate", transitionFrom: "pendingActivation", to: "active")
          sm.when("suspend", transitionFrom: "active", to: "suspended")
          sm.when("unsuspend", transitionFrom: "suspended", to: "active")
          sm.when("terminate", transitionFrom: ["active", "suspended"], to: "terminated")
          sm.before("terminate") { $0.terminatedAt = Date(timeIntervalSince1970: 123_123_123) }
          sm.after("suspend") { $0.stopBilling() }
        }
      }
      """,
      expandedSource: """
        final class Subscription {
          var terminatedAt: Date?
          private(set) var billingStopped = false
          func stopBilling() { billingStopped = true }

          static let stateMachine = StateMachineDefinition<Subscription> { sm in
            sm.initialState = "pendingActivation"
            sm.addState("pendingActivation")
            sm.addState("active")
            sm.addState("suspended")
            sm.addState("terminated")
            sm.when("activate", transitionFrom: "pendingActivation", to: "active")
            sm.when("suspend", transitionFrom: "active", to: "suspended")
            sm.when("unsuspend", transitionFrom: "suspended", to: "active")
            sm.when("terminate", transitionFrom: ["active", "suspended"], to: "terminated")
            sm.before("terminate") { $0.terminatedAt = Date(timeIntervalSince1970: 123_123_123) }
            sm.after("suspend") { $0.stopBilling() }
          }

          /// The current state of the state machine.
          var state: String {
            Subscription.stateMachine.currentState(of: self)
          }

          var stateMachineDefinition: StateMachines.StateMachineDefinition<Subscription> {
            Subscription.stateMachine
          }

          var _$stateMachineModel: Subscription {
            self
          }

          @exclusivity(unchecked) var _$stateMachineStorage = StateMachines.StateMachineStorage(Subscription.stateMachine)

          var _$stateMachineLock: StateMachines.StateMachineLock? {
            nil
          }

          private struct _$StateMachineIDs: @unchecked Sendable {
            let definition: UnsafeRawPointer
            let event_activate: StateMachines.StateMachineEventID
            let event_suspend: StateMachines.StateMachineEventID
            let event_unsuspend: StateMachines.StateMachineEventID
            let event_terminate: StateMachines.StateMachineEventID
            let state_pendingActivation: StateMachines.StateMachineStateID
            let state_active: StateMachines.StateMachineStateID
            let state_suspended: StateMachines.StateMachineStateID
            let state_terminated: StateMachines.StateMachineStateID

            init<Model>(_ definition: StateMachines.StateMachineDefinition<Model>) {
              self.definition = StateMachines.StateMachineDefinition<Model>._$opaque(definition)
              event_activate = definition.eventID("activate")
              event_suspend = definition.eventID("suspend")
              event_unsuspend = definition.eventID("unsuspend")
              event_terminate = definition.eventID("terminate")
              state_pendingActivation = definition.stateID("pendingActivation")
              state_active = definition.stateID("active")
              state_suspended = definition.stateID("suspended")
              state_terminated = definition.stateID("terminated")
            }
          }

          private static let _$stateMachineIDs = _$StateMachineIDs(Subscription.stateMachine)

          /// Fires event "activate". Returns whether a transition happened.
          @discardableResult @inline(__always)
          func activate() -> Bool {
            let ids = Subscription._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Subscription>._$fire(ids.definition, ids.event_activate, on: self)
          }

          /// Fires event "activate" with a payload that callbacks, guards and actions receive.
          @discardableResult
          func activate(with payload: any Sendable) -> Bool {
            let ids = Subscription._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Subscription>._$fireWithPayload(ids.definition, ids.event_activate, payload: payload, on: self)
          }

          /// Whether event "activate" would take a transition now.
          var canActivate: Bool {
            let ids = Subscription._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Subscription>._$can(ids.definition, ids.event_activate, on: self)
          }

          /// Fires event "suspend". Returns whether a transition happened.
          @discardableResult @inline(__always)
          func suspend() -> Bool {
            let ids = Subscription._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Subscription>._$fire(ids.definition, ids.event_suspend, on: self)
          }

          /// Fires event "suspend" with a payload that callbacks, guards and actions receive.
          @discardableResult
          func suspend(with payload: any Sendable) -> Bool {
            let ids = Subscription._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Subscription>._$fireWithPayload(ids.definition, ids.event_suspend, payload: payload, on: self)
          }

          /// Whether event "suspend" would take a transition now.
          var canSuspend: Bool {
            let ids = Subscription._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Subscription>._$can(ids.definition, ids.event_suspend, on: self)
          }

          /// Fires event "unsuspend". Returns whether a transition happened.
          @discardableResult @inline(__always)
          func unsuspend() -> Bool {
            let ids = Subscription._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Subscription>._$fire(ids.definition, ids.event_unsuspend, on: self)
          }

          /// Fires event "unsuspend" with a payload that callbacks, guards and actions receive.
          @discardableResult
          func unsuspend(with payload: any Sendable) -> Bool {
            let ids = Subscription._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Subscription>._$fireWithPayload(ids.definition, ids.event_unsuspend, payload: payload, on: self)
          }

          /// Whether event "unsuspend" would take a transition now.
          var canUnsuspend: Bool {
            let ids = Subscription._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Subscription>._$can(ids.definition, ids.event_unsuspend, on: self)
          }

          /// Fires event "terminate". Returns whether a transition happened.
          @discardableResult @inline(__always)
          func terminate() -> Bool {
            let ids = Subscription._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Subscription>._$fire(ids.definition, ids.event_terminate, on: self)
          }

          /// Fires event "terminate" with a payload that callbacks, guards and actions receive.
          @discardableResult
          func terminate(with payload: any Sendable) -> Bool {
            let ids = Subscription._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Subscription>._$fireWithPayload(ids.definition, ids.event_terminate, payload: payload, on: self)
          }

          /// Whether event "terminate" would take a transition now.
          var canTerminate: Bool {
            let ids = Subscription._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Subscription>._$can(ids.definition, ids.event_terminate, on: self)
          }

          /// Whether the machine is in state "pendingActivation".
          var isPendingActivation: Bool {
            let ids = Subscription._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Subscription>._$isInState(ids.definition, ids.state_pendingActivation, on: self)
          }

          /// Whether the machine is in state "active".
          var isActive: Bool {
            let ids = Subscription._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Subscription>._$isInState(ids.definition, ids.state_active, on: self)
          }

          /// Whether the machine is in state "suspended".
          var isSuspended: Bool {
            let ids = Subscription._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Subscription>._$isInState(ids.definition, ids.state_suspended, on: self)
          }

          /// Whether the machine is in state "terminated".
          var isTerminated: Bool {
            let ids = Subscription._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Subscription>._$isInState(ids.definition, ids.state_terminated, on: self)
          }
        }

        extension Subscription: StateMachines.StateMachineObject {
        }
        """)
  }

  @Test func publicClassGetsPublicMembers() {
    assertExpansion(
      """
      @StateMachine
      public final class Door {
        public static let stateMachine = StateMachineDefinition<Door> { sm in
          sm.addState("closed")
          sm.addState("open")
          sm.when("open", transitionFrom: "closed", to: "open")
        }
      }
      """,
      expandedSource: """
        public final class Door {
          public static let stateMachine = StateMachineDefinition<Door> { sm in
            sm.addState("closed")
            sm.addState("open")
            sm.when("open", transitionFrom: "closed", to: "open")
          }

          /// The current state of the state machine.
          public var state: String {
            Door.stateMachine.currentState(of: self)
          }

          public var stateMachineDefinition: StateMachines.StateMachineDefinition<Door> {
            Door.stateMachine
          }

          public var _$stateMachineModel: Door {
            self
          }

          @exclusivity(unchecked) public var _$stateMachineStorage = StateMachines.StateMachineStorage(Door.stateMachine)

          public var _$stateMachineLock: StateMachines.StateMachineLock? {
            nil
          }

          private struct _$StateMachineIDs: @unchecked Sendable {
            let definition: UnsafeRawPointer
            let event_open: StateMachines.StateMachineEventID
            let state_closed: StateMachines.StateMachineStateID
            let state_open: StateMachines.StateMachineStateID

            init<Model>(_ definition: StateMachines.StateMachineDefinition<Model>) {
              self.definition = StateMachines.StateMachineDefinition<Model>._$opaque(definition)
              event_open = definition.eventID("open")
              state_closed = definition.stateID("closed")
              state_open = definition.stateID("open")
            }
          }

          private static let _$stateMachineIDs = _$StateMachineIDs(Door.stateMachine)

          /// Fires event "open". Returns whether a transition happened.
          @discardableResult @inline(__always)
          public func open() -> Bool {
            let ids = Door._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Door>._$fire(ids.definition, ids.event_open, on: self)
          }

          /// Fires event "open" with a payload that callbacks, guards and actions receive.
          @discardableResult
          public func open(with payload: any Sendable) -> Bool {
            let ids = Door._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Door>._$fireWithPayload(ids.definition, ids.event_open, payload: payload, on: self)
          }

          /// Whether event "open" would take a transition now.
          public var canOpen: Bool {
            let ids = Door._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Door>._$can(ids.definition, ids.event_open, on: self)
          }

          /// Whether the machine is in state "closed".
          public var isClosed: Bool {
            let ids = Door._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Door>._$isInState(ids.definition, ids.state_closed, on: self)
          }

          /// Whether the machine is in state "open".
          public var isOpen: Bool {
            let ids = Door._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Door>._$isInState(ids.definition, ids.state_open, on: self)
          }
        }

        extension Door: StateMachines.StateMachineObject {
        }
        """)
  }

  @Test func nonFinalClassGetsFinalMembers() {
    assertExpansion(
      """
      @StateMachine
      class Lamp {
        static let stateMachine = StateMachineDefinition<Lamp> { sm in
          sm.addState("off")
          sm.addState("on")
          sm.when("switchOn", transitionFrom: "off", to: "on")
        }
      }
      """,
      expandedSource: """
        class Lamp {
          static let stateMachine = StateMachineDefinition<Lamp> { sm in
            sm.addState("off")
            sm.addState("on")
            sm.when("switchOn", transitionFrom: "off", to: "on")
          }

          /// The current state of the state machine.
          final var state: String {
            Lamp.stateMachine.currentState(of: self)
          }

          final var stateMachineDefinition: StateMachines.StateMachineDefinition<Lamp> {
            Lamp.stateMachine
          }

          final var _$stateMachineModel: Lamp {
            self
          }

          @exclusivity(unchecked) final var _$stateMachineStorage = StateMachines.StateMachineStorage(Lamp.stateMachine)

          final var _$stateMachineLock: StateMachines.StateMachineLock? {
            nil
          }

          private struct _$StateMachineIDs: @unchecked Sendable {
            let definition: UnsafeRawPointer
            let event_switchOn: StateMachines.StateMachineEventID
            let state_off: StateMachines.StateMachineStateID
            let state_on: StateMachines.StateMachineStateID

            init<Model>(_ definition: StateMachines.StateMachineDefinition<Model>) {
              self.definition = StateMachines.StateMachineDefinition<Model>._$opaque(definition)
              event_switchOn = definition.eventID("switchOn")
              state_off = definition.stateID("off")
              state_on = definition.stateID("on")
            }
          }

          private static let _$stateMachineIDs = _$StateMachineIDs(Lamp.stateMachine)

          /// Fires event "switchOn". Returns whether a transition happened.
          @discardableResult @inline(__always)
          final func switchOn() -> Bool {
            let ids = Lamp._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Lamp>._$fire(ids.definition, ids.event_switchOn, on: self)
          }

          /// Fires event "switchOn" with a payload that callbacks, guards and actions receive.
          @discardableResult
          final func switchOn(with payload: any Sendable) -> Bool {
            let ids = Lamp._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Lamp>._$fireWithPayload(ids.definition, ids.event_switchOn, payload: payload, on: self)
          }

          /// Whether event "switchOn" would take a transition now.
          final var canSwitchOn: Bool {
            let ids = Lamp._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Lamp>._$can(ids.definition, ids.event_switchOn, on: self)
          }

          /// Whether the machine is in state "off".
          final var isOff: Bool {
            let ids = Lamp._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Lamp>._$isInState(ids.definition, ids.state_off, on: self)
          }

          /// Whether the machine is in state "on".
          final var isOn: Bool {
            let ids = Lamp._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Lamp>._$isInState(ids.definition, ids.state_on, on: self)
          }
        }

        extension Lamp: StateMachines.StateMachineObject {
        }
        """)
  }
}
