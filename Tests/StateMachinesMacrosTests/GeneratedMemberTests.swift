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

          private static let _$event_activate = Subscription.stateMachine.eventID("activate")

          /// Fires event "activate". Returns whether a transition happened.
          @discardableResult
          func activate() -> Bool {
            Subscription.stateMachine.fire(Subscription._$event_activate, on: self)
          }

          /// Fires event "activate" with a payload that callbacks, guards and actions receive.
          @discardableResult
          func activate(with payload: Any) -> Bool {
            Subscription.stateMachine.fire(Subscription._$event_activate, payload: payload, on: self)
          }

          /// Whether event "activate" would take a transition now.
          var canActivate: Bool {
            Subscription.stateMachine.can(Subscription._$event_activate, on: self)
          }

          private static let _$event_suspend = Subscription.stateMachine.eventID("suspend")

          /// Fires event "suspend". Returns whether a transition happened.
          @discardableResult
          func suspend() -> Bool {
            Subscription.stateMachine.fire(Subscription._$event_suspend, on: self)
          }

          /// Fires event "suspend" with a payload that callbacks, guards and actions receive.
          @discardableResult
          func suspend(with payload: Any) -> Bool {
            Subscription.stateMachine.fire(Subscription._$event_suspend, payload: payload, on: self)
          }

          /// Whether event "suspend" would take a transition now.
          var canSuspend: Bool {
            Subscription.stateMachine.can(Subscription._$event_suspend, on: self)
          }

          private static let _$event_unsuspend = Subscription.stateMachine.eventID("unsuspend")

          /// Fires event "unsuspend". Returns whether a transition happened.
          @discardableResult
          func unsuspend() -> Bool {
            Subscription.stateMachine.fire(Subscription._$event_unsuspend, on: self)
          }

          /// Fires event "unsuspend" with a payload that callbacks, guards and actions receive.
          @discardableResult
          func unsuspend(with payload: Any) -> Bool {
            Subscription.stateMachine.fire(Subscription._$event_unsuspend, payload: payload, on: self)
          }

          /// Whether event "unsuspend" would take a transition now.
          var canUnsuspend: Bool {
            Subscription.stateMachine.can(Subscription._$event_unsuspend, on: self)
          }

          private static let _$event_terminate = Subscription.stateMachine.eventID("terminate")

          /// Fires event "terminate". Returns whether a transition happened.
          @discardableResult
          func terminate() -> Bool {
            Subscription.stateMachine.fire(Subscription._$event_terminate, on: self)
          }

          /// Fires event "terminate" with a payload that callbacks, guards and actions receive.
          @discardableResult
          func terminate(with payload: Any) -> Bool {
            Subscription.stateMachine.fire(Subscription._$event_terminate, payload: payload, on: self)
          }

          /// Whether event "terminate" would take a transition now.
          var canTerminate: Bool {
            Subscription.stateMachine.can(Subscription._$event_terminate, on: self)
          }

          private static let _$state_pendingActivation = Subscription.stateMachine.stateID("pendingActivation")

          /// Whether the machine is in state "pendingActivation".
          var isPendingActivation: Bool {
            Subscription.stateMachine.isInState(Subscription._$state_pendingActivation, on: self)
          }

          private static let _$state_active = Subscription.stateMachine.stateID("active")

          /// Whether the machine is in state "active".
          var isActive: Bool {
            Subscription.stateMachine.isInState(Subscription._$state_active, on: self)
          }

          private static let _$state_suspended = Subscription.stateMachine.stateID("suspended")

          /// Whether the machine is in state "suspended".
          var isSuspended: Bool {
            Subscription.stateMachine.isInState(Subscription._$state_suspended, on: self)
          }

          private static let _$state_terminated = Subscription.stateMachine.stateID("terminated")

          /// Whether the machine is in state "terminated".
          var isTerminated: Bool {
            Subscription.stateMachine.isInState(Subscription._$state_terminated, on: self)
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

          private static let _$event_open = Door.stateMachine.eventID("open")

          /// Fires event "open". Returns whether a transition happened.
          @discardableResult
          public func open() -> Bool {
            Door.stateMachine.fire(Door._$event_open, on: self)
          }

          /// Fires event "open" with a payload that callbacks, guards and actions receive.
          @discardableResult
          public func open(with payload: Any) -> Bool {
            Door.stateMachine.fire(Door._$event_open, payload: payload, on: self)
          }

          /// Whether event "open" would take a transition now.
          public var canOpen: Bool {
            Door.stateMachine.can(Door._$event_open, on: self)
          }

          private static let _$state_closed = Door.stateMachine.stateID("closed")

          /// Whether the machine is in state "closed".
          public var isClosed: Bool {
            Door.stateMachine.isInState(Door._$state_closed, on: self)
          }

          private static let _$state_open = Door.stateMachine.stateID("open")

          /// Whether the machine is in state "open".
          public var isOpen: Bool {
            Door.stateMachine.isInState(Door._$state_open, on: self)
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

          private static let _$event_switchOn = Lamp.stateMachine.eventID("switchOn")

          /// Fires event "switchOn". Returns whether a transition happened.
          @discardableResult
          final func switchOn() -> Bool {
            Lamp.stateMachine.fire(Lamp._$event_switchOn, on: self)
          }

          /// Fires event "switchOn" with a payload that callbacks, guards and actions receive.
          @discardableResult
          final func switchOn(with payload: Any) -> Bool {
            Lamp.stateMachine.fire(Lamp._$event_switchOn, payload: payload, on: self)
          }

          /// Whether event "switchOn" would take a transition now.
          final var canSwitchOn: Bool {
            Lamp.stateMachine.can(Lamp._$event_switchOn, on: self)
          }

          private static let _$state_off = Lamp.stateMachine.stateID("off")

          /// Whether the machine is in state "off".
          final var isOff: Bool {
            Lamp.stateMachine.isInState(Lamp._$state_off, on: self)
          }

          private static let _$state_on = Lamp.stateMachine.stateID("on")

          /// Whether the machine is in state "on".
          final var isOn: Bool {
            Lamp.stateMachine.isInState(Lamp._$state_on, on: self)
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

          private static let _$event_show = Screen.stateMachine.eventID("show")

          /// Fires event "show". Returns whether a transition happened.
          @discardableResult
          func show() -> Bool {
            Screen.stateMachine.fire(Screen._$event_show, on: self)
          }

          /// Fires event "show" with a payload that callbacks, guards and actions receive.
          @discardableResult
          func show(with payload: Any) -> Bool {
            Screen.stateMachine.fire(Screen._$event_show, payload: payload, on: self)
          }

          /// Whether event "show" would take a transition now.
          var canShow: Bool {
            Screen.stateMachine.can(Screen._$event_show, on: self)
          }

          private static let _$state_hidden = Screen.stateMachine.stateID("hidden")

          /// Whether the machine is in state "hidden".
          var isHidden: Bool {
            Screen.stateMachine.isInState(Screen._$state_hidden, on: self)
          }

          private static let _$state_shown = Screen.stateMachine.stateID("shown")

          /// Whether the machine is in state "shown".
          var isShown: Bool {
            Screen.stateMachine.isInState(Screen._$state_shown, on: self)
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

          private let _$stateMachineLockStorage = StateMachines.StateMachineLock()

          var _$stateMachineLock: StateMachines.StateMachineLock? {
            _$stateMachineLockStorage
          }

          private static let _$event_start = Counter.stateMachine.eventID("start")

          /// Fires event "start". Returns whether a transition happened.
          @discardableResult
          func start() -> Bool {
            Counter.stateMachine.fire(Counter._$event_start, on: self)
          }

          /// Fires event "start" with a payload that callbacks, guards and actions receive.
          @discardableResult
          func start(with payload: Any) -> Bool {
            Counter.stateMachine.fire(Counter._$event_start, payload: payload, on: self)
          }

          /// Whether event "start" would take a transition now.
          var canStart: Bool {
            Counter.stateMachine.can(Counter._$event_start, on: self)
          }

          private static let _$state_idle = Counter.stateMachine.stateID("idle")

          /// Whether the machine is in state "idle".
          var isIdle: Bool {
            Counter.stateMachine.isInState(Counter._$state_idle, on: self)
          }

          private static let _$state_busy = Counter.stateMachine.stateID("busy")

          /// Whether the machine is in state "busy".
          var isBusy: Bool {
            Counter.stateMachine.isInState(Counter._$state_busy, on: self)
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

        \(ExpectedMembers.event("put_on-hold", "putOnHold", in: "Ticket"))

          private static let _$state_inProgress = Ticket.stateMachine.stateID("in_progress")

          /// Whether the machine is in state "in_progress".
          var isInProgress: Bool {
            Ticket.stateMachine.isInState(Ticket._$state_inProgress, on: self)
          }

          private static let _$state_onHold = Ticket.stateMachine.stateID("on-hold")

          /// Whether the machine is in state "on-hold".
          var isOnHold: Bool {
            Ticket.stateMachine.isInState(Ticket._$state_onHold, on: self)
          }

          private static let _$state_waitingForReview = Ticket.stateMachine.stateID("waiting for review")

          /// Whether the machine is in state "waiting for review".
          var isWaitingForReview: Bool {
            Ticket.stateMachine.isInState(Ticket._$state_waitingForReview, on: self)
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

          private static let _$event_turn = Valve.machine.eventID("turn")

          /// Fires event "turn". Returns whether a transition happened.
          @discardableResult
          func turn() -> Bool {
            Valve.machine.fire(Valve._$event_turn, on: self)
          }

          /// Fires event "turn" with a payload that callbacks, guards and actions receive.
          @discardableResult
          func turn(with payload: Any) -> Bool {
            Valve.machine.fire(Valve._$event_turn, payload: payload, on: self)
          }

          /// Whether event "turn" would take a transition now.
          var canTurn: Bool {
            Valve.machine.can(Valve._$event_turn, on: self)
          }

          private static let _$state_shut = Valve.machine.stateID("shut")

          /// Whether the machine is in state "shut".
          var isShut: Bool {
            Valve.machine.isInState(Valve._$state_shut, on: self)
          }

          private static let _$state_flowing = Valve.machine.stateID("flowing")

          /// Whether the machine is in state "flowing".
          var isFlowing: Bool {
            Valve.machine.isInState(Valve._$state_flowing, on: self)
          }
        }

        extension Valve: StateMachines.StateMachineObject {
        }
        """)
  }
}
