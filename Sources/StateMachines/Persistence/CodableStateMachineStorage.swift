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

/// The storage of a `Codable` machine object, in a box of its own.
///
/// It encodes as the current state's name, or, for a machine that terminated in a state that is
/// not final (by `die`), as `{"state": name, "terminated": true}`, so that a round trip keeps
/// everything observable. Decoding a string that is not a state of the machine fails with a
/// `DecodingError` that says so. A decoded machine is in the saved state without having run any
/// callback; its timeouts and notifications are armed on first use.
///
/// ``StateMachine()`` generates it instead of a plain ``StateMachineStorage`` for a class that
/// declares `Codable`, `Decodable` or `Encodable`, so the synthesized conformance keeps working.
/// A box, because encoding reads it from the object without the runtime's help: the box's address
/// names the lock that guards the storage, so encoding a `Sendable` object takes a consistent
/// snapshot even while another thread fires its events.
public final class CodableStateMachineStorage<Provider: StateMachineDefinitionProvider>: Codable,
  @unchecked Sendable
{
  /// The storage the runtime reads and writes, under ``lock`` for a `Sendable` object.
  @exclusivity(unchecked) public var storage: StateMachineStorage

  /// The lock that guards ``storage`` of a `Sendable` object.
  public var lock: StateMachineLock { StateMachineLock(guarding: self) }

  /// Storage in the definition's initial state.
  public init() {
    storage = StateMachineStorage(Provider.definition)
  }

  private enum Keys: String, CodingKey {
    case state, terminated
  }

  public init(from decoder: any Decoder) throws {
    let definition = Provider.definition
    let name: String
    var terminated = false
    if let keyed = try? decoder.container(keyedBy: Keys.self) {
      name = try keyed.decode(String.self, forKey: .state)
      terminated = try keyed.decodeIfPresent(Bool.self, forKey: .terminated) ?? false
    } else {
      name = try decoder.singleValueContainer().decode(String.self)
    }
    guard let index = definition.compiled.stateTable.index(of: name) else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: decoder.codingPath,
          debugDescription: "'\(name)' is not a state of the state machine of \(Provider.Model.self); "
            + "its states are \(definition.states)"))
    }
    storage = StateMachineStorage(definition, state: index, terminated: terminated, restored: true)
  }

  public func encode(to encoder: any Encoder) throws {
    let (index, terminated) = lock.withLock { (storage.stateIndex, storage.isTerminated) }
    let definition = Provider.definition
    let name = definition.stateName(index)
    if terminated && !definition.isFinalState(index) {
      var container = encoder.container(keyedBy: Keys.self)
      try container.encode(name, forKey: .state)
      try container.encode(true, forKey: .terminated)
    } else {
      var container = encoder.singleValueContainer()
      try container.encode(name)
    }
  }
}
