/// Hand-written expected expansions shared by the diagnostic tests, whose subject is the
/// diagnostic rather than the members. `GeneratedMemberTests` spells every expansion out in full.
enum ExpectedMembers {
  /// The members every plain (final, internal, not `Sendable`) machine class `name` gets whose
  /// definition is `static let stateMachine`, indented for the class body.
  static func storage(_ name: String) -> String {
    """
      /// The current state of the state machine.
      var state: String {
        \(name).stateMachine.currentState(of: self)
      }

      var stateMachineDefinition: StateMachines.StateMachineDefinition<\(name)> {
        \(name).stateMachine
      }

      var _$stateMachineModel: \(name) {
        self
      }

      @exclusivity(unchecked) var _$stateMachineStorage = StateMachines.StateMachineStorage(\(name).stateMachine)

      var _$stateMachineLock: StateMachines.StateMachineLock? {
        nil
      }
    """
  }

  /// The struct of resolved IDs and its static property, for the events and states given as
  /// (name, identifier) pairs, in class `className`.
  static func ids(_ className: String, events: [(String, String)], states: [(String, String)]) -> String {
    let fields =
      events.map { "    let event_\($0.1): StateMachines.StateMachineEventID\n" }
      + states.map { "    let state_\($0.1): StateMachines.StateMachineStateID\n" }
    let assignments =
      events.map { "      event_\($0.1) = definition.eventID(\"\($0.0)\")\n" }
      + states.map { "      state_\($0.1) = definition.stateID(\"\($0.0)\")\n" }
    return """
        private struct _$StateMachineIDs: @unchecked Sendable {
          let definition: UnsafeRawPointer
      \(fields.joined())
          init<Model>(_ definition: StateMachines.StateMachineDefinition<Model>) {
            self.definition = StateMachines.StateMachineDefinition<Model>._$opaque(definition)
      \(assignments.joined())    }
        }

        private static let _$stateMachineIDs = _$StateMachineIDs(\(className).stateMachine)
      """
  }

  /// The members of event `name` (identifier `identifier`) in class `className`.
  static func event(_ name: String, _ identifier: String, in className: String) -> String {
    let capitalized = identifier.prefix(1).uppercased() + identifier.dropFirst()
    return """
        /// Fires event "\(name)". Returns whether a transition happened.
        @discardableResult @inline(__always)
        func \(identifier)() -> Bool {
          let ids = \(className)._$stateMachineIDs
          return \(definition(className))._$fire(ids.definition, ids.event_\(identifier), on: self)
        }

        /// Fires event "\(name)" with a payload that callbacks, guards and actions receive.
        @discardableResult
        func \(identifier)(with payload: any Sendable) -> Bool {
          let ids = \(className)._$stateMachineIDs
          return \(definition(className))._$fireWithPayload(ids.definition, ids.event_\(identifier), payload: payload, on: self)
        }

        /// Whether event "\(name)" would take a transition now.
        var can\(capitalized): Bool {
          let ids = \(className)._$stateMachineIDs
          return \(definition(className))._$can(ids.definition, ids.event_\(identifier), on: self)
        }
      """
  }

  /// The members of state `name` (identifier `identifier`) in class `className`.
  static func state(_ name: String, _ identifier: String, in className: String) -> String {
    let capitalized = identifier.prefix(1).uppercased() + identifier.dropFirst()
    return """
        /// Whether the machine is in state "\(name)".
        var is\(capitalized): Bool {
          let ids = \(className)._$stateMachineIDs
          return \(definition(className))._$isInState(ids.definition, ids.state_\(identifier), on: self)
        }
      """
  }

  /// How generated members get the definition back from the IDs.
  private static func definition(_ className: String) -> String {
    "StateMachines.StateMachineDefinition<\(className)>"
  }

  /// The conformance the extension macro adds to a class that is not actor-isolated.
  static func conformance(_ name: String) -> String {
    """
    extension \(name): StateMachines.StateMachineObject {
    }
    """
  }
}
