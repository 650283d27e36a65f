import Testing

/// What `@StateMachine` adds to a class, spelled out in full for each kind of class.
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
          @discardableResult
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
          @discardableResult
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
          @discardableResult
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
          @discardableResult
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
          @discardableResult
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
          @discardableResult
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

  @Test func mainActorClassGetsIsolatedConformanceAndActor() {
    assertExpansion(
      """
      @MainActor
      @StateMachine
      final class Screen {
        static let stateMachine = StateMachineDefinition<Screen> { sm in
          sm.addState("hidden")
          sm.addState("shown")
          sm.when("show", transitionFrom: "hidden", to: "shown")
        }
      }
      """,
      expandedSource: """
        @MainActor
        final class Screen {
          static let stateMachine = StateMachineDefinition<Screen> { sm in
            sm.addState("hidden")
            sm.addState("shown")
            sm.when("show", transitionFrom: "hidden", to: "shown")
          }

          /// The current state of the state machine.
          var state: String {
            Screen.stateMachine.currentState(of: self)
          }

          var stateMachineDefinition: StateMachines.StateMachineDefinition<Screen> {
            Screen.stateMachine
          }

          var _$stateMachineModel: Screen {
            self
          }

          @exclusivity(unchecked) var _$stateMachineStorage = StateMachines.StateMachineStorage(Screen.stateMachine)

          var _$stateMachineLock: StateMachines.StateMachineLock? {
            nil
          }

          var _$stateMachineActor: (any Actor)? {
            MainActor.shared
          }

          /// Fires an event by name; see `StateMachineObject.fire(_:payload:)`.
          @discardableResult
          func fire(_ event: String, payload: (any Sendable)? = nil) -> Bool {
            Screen.stateMachine.fire(event, payload: payload, on: self)
          }

          /// Fires an event by name and says why it was rejected; see `StateMachineObject.fireOrThrow(_:payload:)`.
          func fireOrThrow(_ event: String, payload: (any Sendable)? = nil) throws(StateMachines.StateMachineError) {
            try Screen.stateMachine.fireOrThrow(event, payload: payload, on: self)
          }

          /// Whether the event named `event` would take a transition now.
          func can(_ event: String) -> Bool {
            Screen.stateMachine.can(event, on: self)
          }

          /// Whether the machine is in the state named `state`.
          func isInState(_ state: String) -> Bool {
            Screen.stateMachine.isInState(state, on: self)
          }

          /// Fires an event by name on the class's actor, awaited from any context, and says how it ended.
          func send(_ event: String, payload: (any Sendable)? = nil, source: StateMachines.InspectionSource = .api) async -> StateMachines.FireOutcome {
            Screen.stateMachine.send(event, payload: payload, source: source, on: self)
          }

          private struct _$StateMachineIDs: @unchecked Sendable {
            let definition: UnsafeRawPointer
            let event_show: StateMachines.StateMachineEventID
            let state_hidden: StateMachines.StateMachineStateID
            let state_shown: StateMachines.StateMachineStateID

            init<Model>(_ definition: StateMachines.StateMachineDefinition<Model>) {
              self.definition = StateMachines.StateMachineDefinition<Model>._$opaque(definition)
              event_show = definition.eventID("show")
              state_hidden = definition.stateID("hidden")
              state_shown = definition.stateID("shown")
            }
          }

          private static let _$stateMachineIDs = _$StateMachineIDs(Screen.stateMachine)

          /// Fires event "show". Returns whether a transition happened.
          @discardableResult
          func show() -> Bool {
            let ids = Screen._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Screen>._$fire(ids.definition, ids.event_show, on: self)
          }

          /// Fires event "show" with a payload that callbacks, guards and actions receive.
          @discardableResult
          func show(with payload: any Sendable) -> Bool {
            let ids = Screen._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Screen>._$fireWithPayload(ids.definition, ids.event_show, payload: payload, on: self)
          }

          /// Whether event "show" would take a transition now.
          var canShow: Bool {
            let ids = Screen._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Screen>._$can(ids.definition, ids.event_show, on: self)
          }

          /// Whether the machine is in state "hidden".
          var isHidden: Bool {
            let ids = Screen._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Screen>._$isInState(ids.definition, ids.state_hidden, on: self)
          }

          /// Whether the machine is in state "shown".
          var isShown: Bool {
            let ids = Screen._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Screen>._$isInState(ids.definition, ids.state_shown, on: self)
          }
        }

        extension Screen: @MainActor StateMachines.StateMachineObject {
        }
        """)
  }

  @Test func sendableClassGetsLockedStorage() {
    assertExpansion(
      """
      @StateMachine
      final class Counter: Sendable {
        static let stateMachine = StateMachineDefinition<Counter> { sm in
          sm.addState("idle")
          sm.addState("busy")
          sm.when("start", transitionFrom: "idle", to: "busy")
        }
      }
      """,
      expandedSource: """
        final class Counter: Sendable {
          static let stateMachine = StateMachineDefinition<Counter> { sm in
            sm.addState("idle")
            sm.addState("busy")
            sm.when("start", transitionFrom: "idle", to: "busy")
          }

          /// The current state of the state machine.
          var state: String {
            Counter.stateMachine.currentState(of: self)
          }

          var stateMachineDefinition: StateMachines.StateMachineDefinition<Counter> {
            Counter.stateMachine
          }

          var _$stateMachineModel: Counter {
            self
          }

          @exclusivity(unchecked) nonisolated(unsafe) var _$stateMachineStorage = StateMachines.StateMachineStorage(Counter.stateMachine)

          var _$stateMachineLock: StateMachines.StateMachineLock? {
            StateMachines.StateMachineLock(guarding: self)
          }

          private struct _$StateMachineIDs: @unchecked Sendable {
            let definition: UnsafeRawPointer
            let event_start: StateMachines.StateMachineEventID
            let state_idle: StateMachines.StateMachineStateID
            let state_busy: StateMachines.StateMachineStateID

            init<Model>(_ definition: StateMachines.StateMachineDefinition<Model>) {
              self.definition = StateMachines.StateMachineDefinition<Model>._$opaque(definition)
              event_start = definition.eventID("start")
              state_idle = definition.stateID("idle")
              state_busy = definition.stateID("busy")
            }
          }

          private static let _$stateMachineIDs = _$StateMachineIDs(Counter.stateMachine)

          /// Fires event "start". Returns whether a transition happened.
          @discardableResult
          func start() -> Bool {
            let ids = Counter._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Counter>._$fire(ids.definition, ids.event_start, on: self)
          }

          /// Fires event "start" with a payload that callbacks, guards and actions receive.
          @discardableResult
          func start(with payload: any Sendable) -> Bool {
            let ids = Counter._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Counter>._$fireWithPayload(ids.definition, ids.event_start, payload: payload, on: self)
          }

          /// Whether event "start" would take a transition now.
          var canStart: Bool {
            let ids = Counter._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Counter>._$can(ids.definition, ids.event_start, on: self)
          }

          /// Whether the machine is in state "idle".
          var isIdle: Bool {
            let ids = Counter._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Counter>._$isInState(ids.definition, ids.state_idle, on: self)
          }

          /// Whether the machine is in state "busy".
          var isBusy: Bool {
            let ids = Counter._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Counter>._$isInState(ids.definition, ids.state_busy, on: self)
          }
        }

        extension Counter: StateMachines.StateMachineObject {
        }
        """)
  }

  @Test func stateNamesWithSeparatorsBecomeCamelCase() {
    assertExpansion(
      """
      @StateMachine
      final class Ticket {
        static let stateMachine = StateMachineDefinition<Ticket> { sm in
          sm.addState("in_progress")
          sm.addState("on-hold")
          sm.addState("waiting for review")
          sm.when("put_on-hold", transitionFrom: "in_progress", to: "on-hold")
        }
      }
      """,
      expandedSource: """
        final class Ticket {
          static let stateMachine = StateMachineDefinition<Ticket> { sm in
            sm.addState("in_progress")
            sm.addState("on-hold")
            sm.addState("waiting for review")
            sm.when("put_on-hold", transitionFrom: "in_progress", to: "on-hold")
          }

        \(ExpectedMembers.storage("Ticket"))

        \(ExpectedMembers.ids(
          "Ticket", events: [("put_on-hold", "putOnHold")],
          states: [("in_progress", "inProgress"), ("on-hold", "onHold"), ("waiting for review", "waitingForReview")]))

        \(ExpectedMembers.event("put_on-hold", "putOnHold", in: "Ticket"))

          /// Whether the machine is in state "in_progress".
          var isInProgress: Bool {
            let ids = Ticket._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Ticket>._$isInState(ids.definition, ids.state_inProgress, on: self)
          }

          /// Whether the machine is in state "on-hold".
          var isOnHold: Bool {
            let ids = Ticket._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Ticket>._$isInState(ids.definition, ids.state_onHold, on: self)
          }

          /// Whether the machine is in state "waiting for review".
          var isWaitingForReview: Bool {
            let ids = Ticket._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Ticket>._$isInState(ids.definition, ids.state_waitingForReview, on: self)
          }
        }

        \(ExpectedMembers.conformance("Ticket"))
        """)
  }

  @Test func definitionUsingDollarZeroIsRead() {
    assertExpansion(
      """
      @StateMachine
      final class Fan {
        static let stateMachine = StateMachineDefinition<Fan> {
          $0.addState("still")
          $0.addState("spinning")
          $0.when("spin", transitionFrom: "still", to: "spinning")
        }
      }
      """,
      expandedSource: """
        final class Fan {
          static let stateMachine = StateMachineDefinition<Fan> {
            $0.addState("still")
            $0.addState("spinning")
            $0.when("spin", transitionFrom: "still", to: "spinning")
          }

        \(ExpectedMembers.storage("Fan"))

        \(ExpectedMembers.ids("Fan", events: [("spin", "spin")], states: [("still", "still"), ("spinning", "spinning")]))

        \(ExpectedMembers.event("spin", "spin", in: "Fan"))

        \(ExpectedMembers.state("still", "still", in: "Fan"))

        \(ExpectedMembers.state("spinning", "spinning", in: "Fan"))
        }

        \(ExpectedMembers.conformance("Fan"))
        """)
  }

  @Test func definitionWithTypeAnnotationAndInitIsFound() {
    assertExpansion(
      """
      @StateMachine
      final class Valve {
        static let machine: StateMachineDefinition<Valve> = .init { sm in
          sm.addState("shut")
          sm.addState("flowing")
          sm.when("turn", transitionFrom: "shut", to: "flowing")
        }
      }
      """,
      expandedSource: """
        final class Valve {
          static let machine: StateMachineDefinition<Valve> = .init { sm in
            sm.addState("shut")
            sm.addState("flowing")
            sm.when("turn", transitionFrom: "shut", to: "flowing")
          }

          /// The current state of the state machine.
          var state: String {
            Valve.machine.currentState(of: self)
          }

          var stateMachineDefinition: StateMachines.StateMachineDefinition<Valve> {
            Valve.machine
          }

          var _$stateMachineModel: Valve {
            self
          }

          @exclusivity(unchecked) var _$stateMachineStorage = StateMachines.StateMachineStorage(Valve.machine)

          var _$stateMachineLock: StateMachines.StateMachineLock? {
            nil
          }

          private struct _$StateMachineIDs: @unchecked Sendable {
            let definition: UnsafeRawPointer
            let event_turn: StateMachines.StateMachineEventID
            let state_shut: StateMachines.StateMachineStateID
            let state_flowing: StateMachines.StateMachineStateID

            init<Model>(_ definition: StateMachines.StateMachineDefinition<Model>) {
              self.definition = StateMachines.StateMachineDefinition<Model>._$opaque(definition)
              event_turn = definition.eventID("turn")
              state_shut = definition.stateID("shut")
              state_flowing = definition.stateID("flowing")
            }
          }

          private static let _$stateMachineIDs = _$StateMachineIDs(Valve.machine)

          /// Fires event "turn". Returns whether a transition happened.
          @discardableResult
          func turn() -> Bool {
            let ids = Valve._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Valve>._$fire(ids.definition, ids.event_turn, on: self)
          }

          /// Fires event "turn" with a payload that callbacks, guards and actions receive.
          @discardableResult
          func turn(with payload: any Sendable) -> Bool {
            let ids = Valve._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Valve>._$fireWithPayload(ids.definition, ids.event_turn, payload: payload, on: self)
          }

          /// Whether event "turn" would take a transition now.
          var canTurn: Bool {
            let ids = Valve._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Valve>._$can(ids.definition, ids.event_turn, on: self)
          }

          /// Whether the machine is in state "shut".
          var isShut: Bool {
            let ids = Valve._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Valve>._$isInState(ids.definition, ids.state_shut, on: self)
          }

          /// Whether the machine is in state "flowing".
          var isFlowing: Bool {
            let ids = Valve._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Valve>._$isInState(ids.definition, ids.state_flowing, on: self)
          }
        }

        extension Valve: StateMachines.StateMachineObject {
        }
        """)
  }
}
