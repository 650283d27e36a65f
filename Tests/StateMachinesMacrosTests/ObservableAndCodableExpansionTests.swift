import Testing

/// `@Observable` and `Codable` classes: `state` reports to Observation, and the storage is
/// codable under the key "state".
@Suite struct ObservableAndCodableExpansionTests {
  @Test func observableClassReportsStateAccessAndChanges() {
    assertExpansion(
      """
      @Observable
      @StateMachine
      final class Toggle {
        static let stateMachine = StateMachineDefinition<Toggle> { sm in
          sm.addState("off")
          sm.addState("on")
          sm.when("flip", transitionFrom: "off", to: "on")
        }
      }
      """,
      expandedSource: """
        @Observable
        final class Toggle {
          static let stateMachine = StateMachineDefinition<Toggle> { sm in
            sm.addState("off")
            sm.addState("on")
            sm.when("flip", transitionFrom: "off", to: "on")
          }

          /// The current state of the state machine.
          var state: String {
            _$observationRegistrar.access(self, keyPath: \\.state)
            return Toggle.stateMachine.currentState(of: self)
          }

          var stateMachineDefinition: StateMachines.StateMachineDefinition<Toggle> {
            Toggle.stateMachine
          }

          var _$stateMachineModel: Toggle {
            self
          }

          @exclusivity(unchecked) var _$stateMachineStorage = StateMachines.StateMachineStorage(Toggle.stateMachine)

          var _$stateMachineLock: StateMachines.StateMachineLock? {
            nil
          }

          var _$stateMachineHasStateHooks: Bool {
            true
          }

          func _$stateMachineWillChangeState() {
            _$observationRegistrar.willSet(self, keyPath: \\.state)
          }

          func _$stateMachineDidChangeState() {
            _$observationRegistrar.didSet(self, keyPath: \\.state)
          }

          private struct _$StateMachineIDs: @unchecked Sendable {
            let definition: UnsafeRawPointer
            let event_flip: StateMachines.StateMachineEventID
            let state_off: StateMachines.StateMachineStateID
            let state_on: StateMachines.StateMachineStateID

            init<Model>(_ definition: StateMachines.StateMachineDefinition<Model>) {
              self.definition = StateMachines.StateMachineDefinition<Model>._$opaque(definition)
              event_flip = definition.eventID("flip")
              state_off = definition.stateID("off")
              state_on = definition.stateID("on")
            }
          }

          private static let _$stateMachineIDs = _$StateMachineIDs(Toggle.stateMachine)

          /// Fires event "flip". Returns whether a transition happened.
          @discardableResult @inline(__always)
          func flip() -> Bool {
            let ids = Toggle._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Toggle>._$fire(ids.definition, ids.event_flip, on: self)
          }

          /// Fires event "flip" with a payload that callbacks, guards and actions receive.
          @discardableResult
          func flip(with payload: any Sendable) -> Bool {
            let ids = Toggle._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Toggle>._$fireWithPayload(ids.definition, ids.event_flip, payload: payload, on: self)
          }

          /// Whether event "flip" would take a transition now.
          var canFlip: Bool {
            let ids = Toggle._$stateMachineIDs
            _$observationRegistrar.access(self, keyPath: \\.state)
            return StateMachines.StateMachineDefinition<Toggle>._$can(ids.definition, ids.event_flip, on: self)
          }

          /// Whether the machine is in state "off".
          var isOff: Bool {
            let ids = Toggle._$stateMachineIDs
            _$observationRegistrar.access(self, keyPath: \\.state)
            return StateMachines.StateMachineDefinition<Toggle>._$isInState(ids.definition, ids.state_off, on: self)
          }

          /// Whether the machine is in state "on".
          var isOn: Bool {
            let ids = Toggle._$stateMachineIDs
            _$observationRegistrar.access(self, keyPath: \\.state)
            return StateMachines.StateMachineDefinition<Toggle>._$isInState(ids.definition, ids.state_on, on: self)
          }
        }

        extension Toggle: StateMachines.StateMachineObject {
        }
        """)
  }

  @Test func codableClassGetsCodableStorageAndCodingKeys() {
    assertExpansion(
      """
      @StateMachine
      final class Parcel: Codable {
        var id: Int
        let kind = "box"
        var weight: Double { 1 }
        lazy var label = "x"
        static let stateMachine = StateMachineDefinition<Parcel> { sm in
          sm.addState("packed")
        }
      }
      """,
      expandedSource: """
        final class Parcel: Codable {
          var id: Int
          let kind = "box"
          var weight: Double { 1 }
          lazy var label = "x"
          static let stateMachine = StateMachineDefinition<Parcel> { sm in
            sm.addState("packed")
          }

          /// The current state of the state machine.
          var state: String {
            Parcel.stateMachine.currentState(of: self)
          }

          var stateMachineDefinition: StateMachines.StateMachineDefinition<Parcel> {
            Parcel.stateMachine
          }

          var _$stateMachineModel: Parcel {
            self
          }

          enum _$StateMachineDefinitionProvider: StateMachines.StateMachineDefinitionProvider {
            static var definition: StateMachines.StateMachineDefinition<Parcel> {
              Parcel.stateMachine
            }
          }

          @exclusivity(unchecked) var _$stateMachineCodableStorage = StateMachines.CodableStateMachineStorage<_$StateMachineDefinitionProvider>()

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
            case _$stateMachineCodableStorage = "state"
          }

          var _$stateMachineLock: StateMachines.StateMachineLock? {
            nil
          }

          private struct _$StateMachineIDs: @unchecked Sendable {
            let definition: UnsafeRawPointer
            let state_packed: StateMachines.StateMachineStateID

            init<Model>(_ definition: StateMachines.StateMachineDefinition<Model>) {
              self.definition = StateMachines.StateMachineDefinition<Model>._$opaque(definition)
              state_packed = definition.stateID("packed")
            }
          }

          private static let _$stateMachineIDs = _$StateMachineIDs(Parcel.stateMachine)

          /// Whether the machine is in state "packed".
          var isPacked: Bool {
            let ids = Parcel._$stateMachineIDs
            return StateMachines.StateMachineDefinition<Parcel>._$isInState(ids.definition, ids.state_packed, on: self)
          }
        }

        extension Parcel: StateMachines.StateMachineObject {
        }
        """)
  }
}
