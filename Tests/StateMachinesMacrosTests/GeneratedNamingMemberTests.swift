import Testing

/// How `@StateMachine` reads a definition and names the members it generates, spelled out in full.
@Suite struct GeneratedNamingMemberTests {
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
          @discardableResult @inline(__always)
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
