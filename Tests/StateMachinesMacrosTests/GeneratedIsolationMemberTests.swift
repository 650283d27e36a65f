import Testing

/// What `@StateMachine` adds to an actor-isolated class and to a `Sendable` class, spelled out in
/// full.
@Suite struct GeneratedIsolationMemberTests {
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
          @discardableResult @inline(__always)
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
          @discardableResult @inline(__always)
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

}
