/// Gives a generated ``StateMachineStorage`` a way to find its definition while decoding.
///
/// ``StateMachine()`` generates one, `_$StateMachineDefinitionProvider`, in a class that declares
/// `Codable`, `Decodable` or `Encodable`.
public protocol StateMachineDefinitionProvider {
  /// The class the definition drives.
  associatedtype Model: StateMachineObject
  /// The class's definition.
  static var definition: StateMachineDefinition<Model> { get }
}

/// The storage of a `Codable` machine object: encodes as the current state's name, and decoding a
/// string that is not a state of the machine fails with a `DecodingError` that says so.
///
/// ``StateMachine()`` generates it instead of a plain ``StateMachineStorage`` for a class that
/// declares `Codable`, `Decodable` or `Encodable`, so the synthesized conformance keeps working.
///
/// Encoding reads the state without the object's lock: encode a `Sendable` object while no other
/// thread fires its events.
public struct CodableStateMachineStorage<Provider: StateMachineDefinitionProvider>: Codable {
  /// The storage the runtime reads and writes.
  public var storage: StateMachineStorage

  /// Storage in the definition's initial state.
  public init() {
    storage = StateMachineStorage(Provider.definition)
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let name = try container.decode(String.self)
    let definition = Provider.definition
    guard let index = definition.compiled.stateIndexByName[name] else {
      throw DecodingError.dataCorruptedError(
        in: container,
        debugDescription: "'\(name)' is not a state of the state machine of \(Provider.Model.self); "
          + "its states are \(definition.states)")
    }
    storage = StateMachineStorage(definition)
    storage.stateIndex = index
    storage.isTerminated = definition.isFinalState(index)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(Provider.definition.stateName(storage.stateIndex))
  }
}
